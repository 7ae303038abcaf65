import { lookup as dnsLookup } from 'node:dns/promises';
import type { Dispatcher } from 'undici';
import { Agent, request } from 'undici';
import { packageVersion } from '../config.js';
import { ServiceError } from '../errors.js';
import type { CacheStore } from '../store/types.js';
import { parseContentEncoding, readBody } from './body.js';
import type { Connector } from './connector.js';
import { createGuardedConnector } from './connector.js';
import { withDeadline } from './deadline.js';
import { mapFetchError } from './fetch-errors.js';
import type { RawResponse } from './response.js';
import { destroyBody, discard, lowerHeaders, mediaType, rejectDeclaredOversize } from './response.js';
import type { RobotsGate } from './robots-gate.js';
import { createRobotsGate } from './robots-gate.js';
import type { AllowList } from './ssrf.js';
import { parseAllowList } from './ssrf.js';
import type { MemoryLease } from './memory-budget.js';
import type { FetchedDocument, FetchedResource, Fetcher, FetchOptions, LookupFn, ResourceFetcher, ResourceOptions } from './types.js';
import { assertPublicHostLiteral, parseHttpUrl } from './url.js';
import { detectWaf, WAF_BODY_SNIFF_BYTES } from './waf.js';

export const DEFAULT_FETCH_LIMITS = {
  /** One deadline for the whole page fetch: robots, redirects, headers and body. */
  totalTimeoutMs: 15_000,
  /** Cap on raw and on decoded bytes. */
  maxBytes: 10 * 1024 * 1024,
  robotsTimeoutMs: 5_000,
  maxRedirects: 10,
} as const;

export interface FetcherLimits {
  totalTimeoutMs?: number;
  maxBytes?: number;
  robotsTimeoutMs?: number;
  maxRedirects?: number;
}

export interface FetcherDeps {
  /** DNS resolution, `dns.lookup(host, {all: true})`-shaped; injectable for tests. */
  lookup?: LookupFn;
  /** Test-only escape hatch (ALLOW_PRIVATE_TARGETS): CIDRs or host:port. */
  allowPrivateTargets: string[];
  /** Robots answers are cached here under `robots:<origin>`. */
  cache: CacheStore;
  now: () => number;
  /** Where the one loud ALLOW_PRIVATE_TARGETS warning goes (else `process.emitWarning`). */
  logger?: { warn(obj: object, msg?: string): void };
  userAgent?: string;
  limits?: FetcherLimits;
  /** Test seam: the connector that dials the already-checked address. */
  dial?: Connector;
}

/**
 * The fetcher's SSRF guard, for other clients that must obey exactly the same rules (the
 * render proxy): the guarded connector (one resolution, checked addresses only) and the
 * parsed ALLOW_PRIVATE_TARGETS list for host-literal checks.
 */
export interface FetchGuard {
  connect: Connector;
  allow: AllowList;
  /** The undici Agent that dials through `connect`. */
  dispatcher: Dispatcher;
}

export type SafeFetcher = Fetcher & ResourceFetcher & { guard: FetchGuard; close(): Promise<void> };

/** Request headers a caller may never set: credentials, hop-by-hop, and what we control. */
const FORBIDDEN_REQUEST_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'upgrade',
  'content-length',
  'accept-encoding',
  'user-agent',
  'proxy-connection',
]);

const DEFAULT_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,text/markdown;q=0.9,text/plain;q=0.8,*/*;q=0.5';

export function defaultUserAgent(version: string = packageVersion()): string {
  return `PithBot/${version} (+https://github.com/pith/pith; bot@pith.dev)`;
}

export async function defaultLookup(hostname: string): Promise<Array<{ address: string; family: 4 | 6 }>> {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

export function createFetcher(deps: FetcherDeps): SafeFetcher {
  const limits = { ...DEFAULT_FETCH_LIMITS, ...stripUndefined(deps.limits ?? {}) };
  const allow: AllowList = parseAllowList(deps.allowPrivateTargets);
  if (allow.cidrs.length + allow.hostPorts.length > 0) {
    const msg = 'ALLOW_PRIVATE_TARGETS is set: the SSRF guard lets these private targets through (tests only, never in production)';
    if (deps.logger) deps.logger.warn({ allowPrivateTargets: allow.entries }, msg);
    else process.emitWarning(`${msg}: ${allow.entries.join(', ')}`, { code: 'PITH_ALLOW_PRIVATE_TARGETS' });
  }
  const userAgent = deps.userAgent ?? defaultUserAgent();
  const connect = createGuardedConnector({
    lookup: deps.lookup ?? defaultLookup,
    allow,
    ...(deps.dial ? { dial: deps.dial } : {}),
    connectTimeoutMs: limits.totalTimeoutMs,
  });
  const agent = new Agent({
    connect,
    // our own deadline bounds everything; undici's must never fire first
    headersTimeout: limits.totalTimeoutMs + 1_000,
    bodyTimeout: limits.totalTimeoutMs + 1_000,
    keepAliveTimeout: 4_000,
  });

  function requestHeaders(extra: Record<string, string> | undefined, accept: string): Record<string, string> {
    const headers: Record<string, string> = { accept, 'accept-language': 'en;q=0.9, *;q=0.5' };
    for (const [name, value] of Object.entries(extra ?? {})) {
      const lower = name.toLowerCase();
      if (!FORBIDDEN_REQUEST_HEADERS.has(lower)) headers[lower] = value;
    }
    headers['user-agent'] = userAgent;
    headers['accept-encoding'] = 'gzip, deflate, br';
    return headers;
  }

  /** One exchange with one hop; the host literal is re-checked, the connector checks the address. */
  async function exchange(
    url: URL,
    headers: Record<string, string>,
    signal: AbortSignal,
    method: 'GET' | 'HEAD' = 'GET',
  ): Promise<RawResponse> {
    assertPublicHostLiteral(url, allow);
    const res = await request(url, { dispatcher: agent, method, headers, signal });
    return { url, status: res.statusCode, headers: lowerHeaders(res.headers), body: res.body };
  }

  /**
   * Follows up to `maxHops` redirects, each hop validated again (literal host here,
   * resolved address in the connector) and `beforeHop` (robots) run for every URL.
   * Returns the first non-redirect response, or the last 3xx when `exhausted` is
   * 'return'.
   */
  async function follow(
    start: URL,
    opts: {
      maxHops: number;
      headers: Record<string, string>;
      signal: AbortSignal;
      exhausted: 'error' | 'return';
      beforeHop?: (url: URL) => Promise<void>;
      method?: 'GET' | 'HEAD';
    },
  ): Promise<RawResponse> {
    const seen = new Set<string>([start.href]);
    let url = start;
    for (let hop = 0; ; hop++) {
      await opts.beforeHop?.(url);
      const res = await exchange(url, opts.headers, opts.signal, opts.method);
      const location = res.headers.location;
      if (res.status < 300 || res.status >= 400 || res.status === 304 || !location) return res;
      if (hop >= opts.maxHops) {
        if (opts.exhausted === 'return') return res;
        await discard(res);
        throw new ServiceError('UPSTREAM_ERROR', `more than ${opts.maxHops} redirects`, { upstream_status: res.status });
      }
      await discard(res);
      const next = parseHttpUrl(location, url.href);
      if (seen.has(next.href)) {
        throw new ServiceError('UPSTREAM_ERROR', 'the target redirects in a loop', { upstream_status: res.status });
      }
      seen.add(next.href);
      url = next;
    }
  }

  const robots: RobotsGate = createRobotsGate({
    cache: deps.cache,
    now: deps.now,
    timeoutMs: limits.robotsTimeoutMs,
    fetchResource: (url, opts) => fetchResource(url, opts),
    ...(deps.logger ? { logger: deps.logger } : {}),
  });

  async function fetchPage(raw: string, options: FetchOptions, signal: AbortSignal): Promise<FetchedDocument> {
    const start = parseHttpUrl(raw);
    const headers = requestHeaders(options.headers, options.headers?.accept ?? DEFAULT_ACCEPT);
    const res = await follow(start, {
      maxHops: limits.maxRedirects,
      headers,
      signal,
      exhausted: 'error',
      beforeHop: (url) => robots.check(url, signal),
    });
    if (res.status < 200 || res.status >= 300) await throwForStatus(res);
    // on a 2xx only these headers can mark a firewall page; skip the detectors otherwise
    const suspicious = 'cf-mitigated' in res.headers || 'x-amzn-waf-action' in res.headers || 'x-sucuri-block' in res.headers;
    const vendor = suspicious ? detectWaf({ status: res.status, headers: res.headers, body: '' }) : null;
    if (vendor) {
      await discard(res);
      throw new ServiceError('WAF_BLOCKED', undefined, { vendor });
    }
    const truncateAt = options.truncateAt === undefined ? null : Math.min(options.truncateAt, limits.maxBytes);
    if (truncateAt === null) await rejectDeclaredOversize(res, limits.maxBytes);
    const memory = options.memory;
    if (memory) prepayDeclaredSize(res, memory, truncateAt ?? limits.maxBytes);
    const { body } = await readBody(res.body, {
      encodings: parseContentEncoding(res.headers['content-encoding']),
      maxBytes: truncateAt ?? limits.maxBytes,
      ...(truncateAt === null ? {} : { maxRawBytes: limits.maxBytes, truncate: true }),
      ...(memory ? { onKept: (n: number) => memory.use(n) } : {}),
      ...declaredLength(res),
    });
    return { url: res.url.href, status: res.status, headers: res.headers, contentType: mediaType(res.headers), body };
  }

  /** Error statuses: firewall signature → WAF_BLOCKED; 404/410 → URL_NOT_FOUND; else UPSTREAM_ERROR. */
  async function throwForStatus(res: RawResponse): Promise<never> {
    let snippet = '';
    try {
      const sniffed = await readBody(res.body, {
        encodings: parseContentEncoding(res.headers['content-encoding']),
        maxBytes: WAF_BODY_SNIFF_BYTES,
        maxRawBytes: limits.maxBytes,
        truncate: true,
      });
      snippet = sniffed.body.toString('latin1');
    } catch {
      // an unreadable error body still has status and headers to judge by
    }
    const vendor = detectWaf({ status: res.status, headers: res.headers, body: snippet });
    if (vendor) throw new ServiceError('WAF_BLOCKED', undefined, { vendor });
    if (res.status === 404 || res.status === 410) {
      throw new ServiceError('URL_NOT_FOUND', `the target answered ${res.status}`, { upstream_status: res.status });
    }
    throw new ServiceError('UPSTREAM_ERROR', `the target answered ${res.status}`, { upstream_status: res.status });
  }

  async function fetchResource(raw: string, opts: ResourceOptions = {}): Promise<FetchedResource> {
    const timeoutMs = opts.timeoutMs ?? limits.totalTimeoutMs;
    const outcome = await withDeadline(timeoutMs, opts.signal, async (signal) => {
      const start = parseHttpUrl(raw);
      const headers = requestHeaders(opts.headers, opts.headers?.accept ?? '*/*');
      const res = await follow(start, {
        maxHops: opts.followRedirects ?? 5,
        headers,
        signal,
        exhausted: 'return',
        method: opts.method ?? 'GET',
        ...(opts.obeyRobots ? { beforeHop: (url: URL) => robots.check(url, signal) } : {}),
      });
      if (!opts.truncate && opts.method !== 'HEAD') await rejectDeclaredOversize(res, opts.maxBytes ?? limits.maxBytes);
      if (opts.memory && opts.method !== 'HEAD') prepayDeclaredSize(res, opts.memory, opts.maxBytes ?? limits.maxBytes);
      const read = await readBody(res.body, {
        encodings: parseContentEncoding(res.headers['content-encoding']),
        maxBytes: opts.maxBytes ?? limits.maxBytes,
        maxRawBytes: Math.max(opts.maxBytes ?? limits.maxBytes, opts.truncate ? limits.maxBytes : 0),
        truncate: opts.truncate ?? false,
        ...(opts.memory ? { onKept: (n: number) => opts.memory?.use(n) } : {}),
      });
      return {
        url: res.url.href,
        status: res.status,
        headers: res.headers,
        contentType: mediaType(res.headers),
        body: read.body,
        truncated: read.truncated,
      };
    });
    if ('value' in outcome) return outcome.value;
    if (opts.signal?.aborted) throw opts.signal.reason;
    throw mapFetchError(outcome.error, { deadlineHit: outcome.deadlineHit, timeoutMs });
  }

  return {
    async fetch(url, options = {}) {
      const timeoutMs = limits.totalTimeoutMs;
      const outcome = await withDeadline(timeoutMs, options.signal, (signal) => fetchPage(url, options, signal));
      if ('value' in outcome) return outcome.value;
      if (options.signal?.aborted) throw options.signal.reason;
      throw mapFetchError(outcome.error, { deadlineHit: outcome.deadlineHit, timeoutMs });
    },
    fetchResource,
    dispatcher: agent,
    guard: { connect, allow, dispatcher: agent },
    async close() {
      // in-flight fetches are over (or abandoned) when the app closes; do not wait on them
      await agent.destroy();
    },
  };
}

/**
 * Takes the body's declared size (Content-Length, at most `cap`) from the memory budget
 * before reading it; a body refused here is drained unread. Decoded bytes beyond it are
 * counted as they come.
 */
function prepayDeclaredSize(res: RawResponse, memory: MemoryLease, cap: number): void {
  const declared = Number(res.headers['content-length']);
  if (!Number.isFinite(declared) || declared <= 0) return;
  try {
    memory.prepay(Math.min(declared, cap));
  } catch (err) {
    destroyBody(res.body);
    throw err;
  }
}

/** `expectedBytes` for readBody: the Content-Length of an identity body, when it gives one. */
function declaredLength(res: RawResponse): { expectedBytes?: number } {
  if (res.headers['content-encoding'] !== undefined) return {};
  const declared = Number(res.headers['content-length']);
  return Number.isSafeInteger(declared) && declared > 0 ? { expectedBytes: declared } : {};
}

function stripUndefined<T extends object>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
}
