import { request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import { buildConnector } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetcher } from '../../../src/fetch/fetcher.js';
import { ByteBudget } from '../../../src/render/byte-budget.js';
import type { GuardProxy } from '../../../src/render/guard-proxy.js';
import { startGuardProxy } from '../../../src/render/guard-proxy.js';
import { mapLookup, memoryCache } from '../../e2e/fetch/helpers.js';
import type { Site } from '../../helpers/site.js';
import { startSite } from '../../helpers/site.js';

/**
 * The render guard proxy alone (no browser): it speaks HTTP proxy like Chromium does
 * (absolute-form requests, CONNECT tunnels) and applies the fetcher's guard. Refusals are
 * proven without connecting: every dial goes through a spy, and only the loopback test
 * site (allowed by host:port, as ALLOW_PRIVATE_TARGETS does in tests) is really dialled.
 */
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

interface Harness {
  proxy: GuardProxy;
  site: Site;
  dialled: string[];
  refused: string[];
  budget: ByteBudget;
}

async function harness(opts: { maxBytes?: number; names?: Record<string, string | string[]> } = {}): Promise<Harness> {
  const site = await startSite((req, res) => {
    if (req.url === '/big') return res.end('x'.repeat(64 * 1024));
    if (req.url === '/echo') {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString();
      });
      req.on('end', () =>
        res.end(`${req.method} ${body} ${req.headers['x-page'] ?? ''} ${req.headers['proxy-connection'] ?? 'no-proxy-header'}`),
      );
      return;
    }
    res.setHeader('content-type', 'text/plain');
    res.end('hello from the site');
  });
  closers.push(() => site.close());
  const dialled: string[] = [];
  const real = buildConnector({});
  const { lookup } = mapLookup({ 'site.test': '127.0.0.1', 'private.test': '10.1.2.3', 'public.test': '93.184.216.34', ...opts.names });
  const fetcher = createFetcher({
    allowPrivateTargets: [`127.0.0.1:${site.port}`],
    cache: memoryCache(),
    now: () => 0,
    lookup,
    logger: { warn: () => {} },
    dial: (o, cb) => {
      dialled.push(`${o.hostname}:${o.port}`);
      // only the allowed loopback site is ever really dialled
      if (o.hostname === '127.0.0.1' && Number(o.port) === site.port) real(o, cb);
      else cb(Object.assign(new Error('test dial refused'), { code: 'ECONNREFUSED' }), null);
    },
  });
  closers.push(() => fetcher.close());
  const budget = new ByteBudget(opts.maxBytes ?? 1024 * 1024);
  const ended = new AbortController();
  const refused: string[] = [];
  const proxy = await startGuardProxy({ ...fetcher.guard, budget, signal: ended.signal, onRefused: (t) => refused.push(t) });
  closers.push(async () => {
    ended.abort();
    await proxy.close();
  });
  return { proxy, site, dialled, refused, budget };
}

/** An absolute-form request through the proxy, as a browser sends it. */
function viaProxy(
  proxy: GuardProxy,
  target: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const { port } = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: init.method ?? 'GET', path: target, headers: init.headers ?? {} }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        body += c.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** A CONNECT through the proxy: the status line it answers, and the open socket on 200. */
function connect(proxy: GuardProxy, authority: string): Promise<{ status: number; socket: Socket }> {
  const { port } = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: 'CONNECT', path: authority });
    req.on('connect', (res, socket) => resolve({ status: res.statusCode ?? 0, socket }));
    req.on('response', (res) => resolve({ status: res.statusCode ?? 0, socket: res.socket }));
    req.on('error', reject);
    req.end();
  });
}

describe('guard proxy: what it lets through', () => {
  it('forwards an allowed request, strips hop-by-hop headers, and counts the bytes', async () => {
    const h = await harness();
    const res = await viaProxy(h.proxy, `http://site.test:${h.site.port}/`);
    expect(res.status).toBe(200);
    expect(res.body).toBe('hello from the site');
    expect(h.budget.bytesUsed).toBe('hello from the site'.length);
    const echo = await viaProxy(h.proxy, `http://127.0.0.1:${h.site.port}/echo`, {
      method: 'POST',
      body: 'a=1',
      headers: { 'x-page': 'kept', 'proxy-connection': 'keep-alive', 'content-length': '3' },
    });
    expect(echo.body).toBe('POST a=1 kept no-proxy-header');
    expect(h.dialled.every((d) => d === `127.0.0.1:${h.site.port}`)).toBe(true);
  });

  it('tunnels CONNECT to an allowed address', async () => {
    const h = await harness();
    const { status, socket } = await connect(h.proxy, `site.test:${h.site.port}`);
    expect(status).toBe(200);
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (c: Buffer) => {
        text += c.toString();
        if (text.includes('hello from the site')) resolve(text);
      });
      socket.write(`GET / HTTP/1.1\r\nHost: site.test\r\nConnection: close\r\n\r\n`);
    });
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(h.budget.bytesUsed).toBeGreaterThan(0);
  });
});

describe('guard proxy: what it refuses, before any connect', () => {
  it.each([
    'http://10.1.2.3:8080/',
    'http://169.254.169.254/latest/meta-data/',
    'http://127.0.0.2:8080/',
    'http://[::1]:8080/',
    'http://[::ffff:10.1.2.3]/',
    'http://0x7f000001:8080/',
    'http://2130706433:8080/',
    'http://localhost:8080/',
    'http://metadata.google.internal/',
    'http://private.test/',
  ])('GET %s → 403, never dialled', async (target) => {
    const h = await harness();
    const res = await viaProxy(h.proxy, target);
    expect(res.status).toBe(403);
    expect(res.headers['x-pith-guard']).toBe('refused');
    expect(h.dialled).toEqual([]);
    expect(h.proxy.refused).toBe(1);
  });

  it('the allowed site on another port is refused too (the escape hatch is host:port)', async () => {
    const h = await harness();
    const res = await viaProxy(h.proxy, `http://127.0.0.1:${h.site.port + 1}/`);
    expect(res.status).toBe(403);
    expect(h.dialled).toEqual([]);
  });

  it.each([
    '10.1.2.3:443',
    '[::1]:443',
    '169.254.169.254:80',
    'localhost:443',
    'private.test:443',
    'a.b:0',
    'no-port',
    'x@evil:443',
    '/path',
  ])('CONNECT %s → refused, never dialled', async (authority) => {
    const h = await harness();
    const { status, socket } = await connect(h.proxy, authority);
    socket.destroy();
    expect(status).toBe(403);
    expect(h.dialled).toEqual([]);
  });

  it.each(['/relative', 'ftp://example.com/', 'file:///etc/passwd', 'http://user:pw@site.test/'])('%s → 403', async (target) => {
    const h = await harness();
    const res = await viaProxy(h.proxy, target);
    expect(res.status).toBe(403);
    expect(h.dialled).toEqual([]);
  });

  it('a name resolving to both a public and a private address is refused (every address is checked)', async () => {
    const h = await harness({ names: { 'mixed.test': ['93.184.216.34', '10.9.9.9'] } });
    expect((await viaProxy(h.proxy, 'http://mixed.test/')).status).toBe(403);
    expect(h.dialled).toEqual([]);
  });

  it('a public name is dialled at its checked address only', async () => {
    const h = await harness();
    const res = await viaProxy(h.proxy, 'http://public.test:8080/');
    expect(res.status).toBe(502); // the spy refuses the connect: nothing leaves the machine
    expect(h.dialled).toEqual(['93.184.216.34:8080']);
  });
});

describe('guard proxy: the byte cap', () => {
  it('a response past the budget is cut and the budget aborts with TOO_LARGE', async () => {
    const h = await harness({ maxBytes: 10 * 1024 });
    await viaProxy(h.proxy, `http://site.test:${h.site.port}/big`).catch(() => null);
    expect(h.budget.signal.aborted).toBe(true);
    expect((h.budget.signal.reason as { code?: string }).code).toBe('TOO_LARGE');
  });
});
