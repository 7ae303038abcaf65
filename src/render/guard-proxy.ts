import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Dispatcher } from 'undici';
import { request } from 'undici';
import { isServiceError } from '../errors.js';
import type { Connector } from '../fetch/connector.js';
import type { AllowList } from '../fetch/ssrf.js';
import { assertPublicHostLiteral, parseHttpUrl, urlPort } from '../fetch/url.js';
import type { ByteBudget } from './byte-budget.js';

/**
 * The only way out of the browser: an HTTP proxy on 127.0.0.1 that applies the fetcher's
 * SSRF guard to every request Chromium makes. Plain http requests (absolute-form) are
 * forwarded through the fetcher's guarded undici dispatcher; CONNECT tunnels (https, wss,
 * ws) are dialled with the fetcher's guarded connector. Either way the host is resolved
 * once, every address is checked against the special-purpose registries (and the
 * ALLOW_PRIVATE_TARGETS escape hatch), and only a checked address is dialled. Response
 * bytes (tunnel bytes for CONNECT) are taken from the render's byte budget.
 */
export interface GuardProxyOptions {
  /** The fetcher's guarded undici dispatcher (resolved addresses are checked on connect). */
  dispatcher: Dispatcher;
  /** The fetcher's guarded connector, for CONNECT tunnels. */
  connect: Connector;
  /** ALLOW_PRIVATE_TARGETS, parsed: host literals are checked against it before any lookup. */
  allow: AllowList;
  budget: ByteBudget;
  /** Ends every exchange and tunnel when it aborts (the render is over). */
  signal: AbortSignal;
  /** Told about every refused target (metrics, tests). */
  onRefused?: (target: string, reason: string) => void;
}

export interface GuardProxy {
  /** `http://127.0.0.1:<port>`, for Chromium's `--proxy-server` / a context's proxy. */
  url: string;
  /** Requests and tunnels refused so far. */
  readonly refused: number;
  close(): Promise<void>;
}

/** Hop-by-hop and proxy headers (RFC 9110 §7.6.1), plus those undici refuses to send. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
  'host',
]);

const AUTHORITY = /^(?:\[[0-9a-fA-F:.]+\]|[^\s/?#@[\]:]+):\d{1,5}$/;

export async function startGuardProxy(opts: GuardProxyOptions): Promise<GuardProxy> {
  const sockets = new Set<Socket>();
  let refused = 0;
  const refuse = (target: string, err: unknown): void => {
    refused++;
    opts.onRefused?.(target, err instanceof Error ? err.message : String(err));
  };

  const server = createServer((req, res) => {
    void forward(req, res, opts, refuse);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => tunnel(req, client, head, opts, refuse, sockets));
  // a plain-http Upgrade (only CONNECT carries WebSockets through a proxy): refuse
  server.on('upgrade', (_req: IncomingMessage, socket: Socket) => socket.destroy());
  server.on('clientError', (_err, socket: Socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  let closed: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
    return closed;
  };
  if (opts.signal.aborted) void close();
  else opts.signal.addEventListener('abort', () => void close(), { once: true });

  return {
    url: `http://127.0.0.1:${port}`,
    get refused() {
      return refused;
    },
    close,
  };
}

/** Absolute-form request (`GET http://host/path`): checked, then sent with the guarded dispatcher. */
async function forward(req: IncomingMessage, res: ServerResponse, opts: GuardProxyOptions, refuse: (t: string, e: unknown) => void) {
  const target = req.url ?? '';
  let url: URL;
  try {
    // origin-form, other schemes, credentials, bad hosts: all refused here
    if (!/^https?:\/\//i.test(target)) throw new Error('only absolute http URLs are proxied');
    url = parseHttpUrl(target);
    assertPublicHostLiteral(url, opts.allow);
  } catch (err) {
    refuse(target, err);
    return answer(res, 403, 'refused by the pith guard');
  }
  const exchange = new AbortController();
  const stop = (): void => exchange.abort(opts.signal.reason);
  opts.signal.addEventListener('abort', stop, { once: true });
  res.on('close', () => {
    opts.signal.removeEventListener('abort', stop);
    if (!res.writableFinished) exchange.abort(new Error('the browser went away'));
  });
  const method = req.method ?? 'GET';
  const hasBody =
    method !== 'GET' &&
    method !== 'HEAD' &&
    (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined);
  let upstream: Dispatcher.ResponseData;
  try {
    upstream = await request(url, {
      dispatcher: opts.dispatcher,
      method: method as Dispatcher.HttpMethod,
      headers: requestHeaders(req.rawHeaders),
      body: hasBody ? req : null,
      signal: exchange.signal,
    });
  } catch (err) {
    if (isServiceError(err) && err.code === 'INVALID_URL') {
      refuse(target, err);
      return answer(res, 403, 'refused by the pith guard');
    }
    return answer(res, 502, 'the target could not be reached');
  }
  res.writeHead(upstream.statusCode, responseHeaders(upstream.headers));
  upstream.body.on('data', (chunk: Buffer) => {
    if (!opts.budget.take(chunk.length)) {
      exchange.abort(opts.budget.signal.reason);
      res.destroy();
      return;
    }
    if (!res.write(chunk)) {
      upstream.body.pause();
      res.once('drain', () => upstream.body.resume());
    }
  });
  upstream.body.on('end', () => res.end());
  upstream.body.on('error', () => res.destroy());
}

/** `CONNECT host:port`: checked, dialled with the guarded connector (no TLS: the browser speaks it), piped. */
function tunnel(
  req: IncomingMessage,
  client: Socket,
  head: Buffer,
  opts: GuardProxyOptions,
  refuse: (t: string, e: unknown) => void,
  sockets: Set<Socket>,
): void {
  const authority = req.url ?? '';
  client.on('error', () => client.destroy());
  let url: URL;
  try {
    if (!AUTHORITY.test(authority)) throw new Error('CONNECT needs host:port');
    url = parseHttpUrl(`http://${authority}/`);
    const port = Number(authority.slice(authority.lastIndexOf(':') + 1));
    if (port < 1 || port > 65535) throw new Error('port out of range');
    url.port = String(port);
    assertPublicHostLiteral(url, opts.allow);
  } catch (err) {
    refuse(authority, err);
    client.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
    return;
  }
  const port = urlPort(url);
  opts.connect({ hostname: url.hostname, host: url.host, protocol: 'http:', port: String(port) }, (err, upstream) => {
    if (err || !upstream) {
      if (isServiceError(err) && err.code === 'INVALID_URL') refuse(authority, err);
      client.end(`HTTP/1.1 ${isServiceError(err) ? '403 Forbidden' : '502 Bad Gateway'}\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    if (opts.signal.aborted || client.destroyed) {
      upstream.destroy();
      client.destroy();
      return;
    }
    sockets.add(upstream);
    const end = (): void => {
      upstream.destroy();
      client.destroy();
    };
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('error', end);
    client.on('close', end);
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.on('data', (chunk: Buffer) => {
      if (!opts.budget.take(chunk.length)) return end();
      if (!client.write(chunk)) {
        upstream.pause();
        client.once('drain', () => upstream.resume());
      }
    });
    client.pipe(upstream);
  });
}

function answer(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-pith-guard': status === 403 ? 'refused' : 'error' });
  res.end(text);
}

/** The browser's request headers minus hop-by-hop ones, as undici's flat [name, value, …] list. */
function requestHeaders(raw: string[]): string[] {
  const named = connectionTokens(raw);
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (!HOP_BY_HOP.has(name) && !named.has(name)) out.push(raw[i] as string, raw[i + 1] as string);
  }
  return out;
}

function connectionTokens(raw: string[]): Set<string> {
  const tokens = new Set<string>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if ((raw[i] as string).toLowerCase() !== 'connection') continue;
    for (const t of (raw[i + 1] as string).split(',')) tokens.add(t.trim().toLowerCase());
  }
  return tokens;
}

function responseHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((t) => t.trim().toLowerCase()),
  );
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name)) continue;
    out[name] = value;
  }
  return out;
}
