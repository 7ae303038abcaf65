import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { buildConnector } from 'undici';
import { describe, expect, it } from 'vitest';
import type { Site, SiteHandler } from '../../helpers/site.js';
import { startSite } from '../../helpers/site.js';
import { WAF_FIXTURES } from '../../unit/fetch/waf-fixtures.js';
import { mapLookup, memoryCache } from './helpers.js';
import { serviceErrorOf, useFetchKit } from './kit.js';

const { site, fetcher, defer } = useFetchKit();
const codeOf = serviceErrorOf;

const noRobots: SiteHandler = (_req, res) => {
  res.statusCode = 404;
  res.end();
};

describe('success path', () => {
  it('returns final canonical URL, status, lower-case headers, media type and body', async () => {
    const s = await site((req, res) => {
      if (req.url === '/robots.txt') return noRobots(req, res);
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.setHeader('X-Custom', 'Yes');
      res.end('<h1>hello</h1>');
    });
    const doc = await fetcher().fetch(`${s.origin}/page?q=1#frag`);
    expect(doc).toMatchObject({ url: `${s.origin}/page?q=1`, status: 200, contentType: 'text/html' });
    expect(doc.headers['x-custom']).toBe('Yes');
    expect(doc.body.toString()).toBe('<h1>hello</h1>');
  });

  it('sends a descriptive User-Agent and never credentials', async () => {
    const seen: Record<string, string | string[] | undefined>[] = [];
    const s = await site((req, res) => {
      seen.push(req.headers);
      if (req.url === '/robots.txt') return noRobots(req, res);
      res.end('ok');
    });
    await fetcher().fetch(`${s.origin}/`, {
      headers: { Authorization: 'Bearer secret', Cookie: 'a=b', 'Proxy-Authorization': 'x', Accept: 'text/markdown' },
    });
    expect(seen).toHaveLength(2);
    for (const h of seen) {
      expect(h['user-agent']).toMatch(/^PithBot\/\S+ \(\+https:\/\/github\.com\/pith\/pith; /);
      expect(h.authorization).toBeUndefined();
      expect(h.cookie).toBeUndefined();
      expect(h['proxy-authorization']).toBeUndefined();
      expect(h['accept-encoding']).toBe('gzip, deflate, br');
    }
    expect(seen[1]?.accept).toBe('text/markdown');
  });

  it.each([
    ['gzip', gzipSync],
    ['x-gzip', gzipSync],
    ['deflate', deflateSync],
    ['deflate', deflateRawSync],
    ['br', brotliCompressSync],
  ] as const)('decodes Content-Encoding %s', async (coding, compress) => {
    const text = `${'é'.repeat(5000)} end`;
    const s = await site((req, res) => {
      if (req.url === '/robots.txt') return noRobots(req, res);
      res.setHeader('content-encoding', coding);
      res.end(compress(Buffer.from(text)));
    });
    expect((await fetcher().fetch(`${s.origin}/`)).body.toString()).toBe(text);
  });
});

describe('redirects', () => {
  it('follows a chain across origins and reports the final URL', async () => {
    const b = await site((req, res) => {
      if (req.url === '/robots.txt') return noRobots(req, res);
      res.end(`final ${req.url}`);
    });
    const a = await site((req, res) => {
      if (req.url === '/robots.txt') return noRobots(req, res);
      const n = Number(req.url?.slice(1) || 0);
      res.statusCode = n < 3 ? 301 : 307;
      res.setHeader('location', n < 3 ? `/${n + 1}` : `${b.origin}/done`);
      res.end();
    });
    const doc = await fetcher().fetch(`${a.origin}/0`);
    expect(doc.url).toBe(`${b.origin}/done`);
    expect(doc.body.toString()).toBe('final /done');
  });

  it('allows 10 hops, refuses the 11th', async () => {
    const s = await site((req, res) => {
      if (req.url === '/robots.txt') return noRobots(req, res);
      const n = Number(req.url?.slice(1));
      if (n === 0) return res.end('landed');
      res.statusCode = 302;
      res.setHeader('location', `/${n - 1}`);
      res.end();
    });
    expect((await fetcher().fetch(`${s.origin}/10`)).body.toString()).toBe('landed');
    const err = await codeOf(fetcher().fetch(`${s.origin}/11`));
    expect(err.code).toBe('UPSTREAM_ERROR');
    expect(err.fields.upstream_status).toBe(302);
  });

  it('detects loops', async () => {
    const s = await site((req, res) => {
      if (req.url === '/robots.txt') return noRobots(req, res);
      res.statusCode = 302;
      res.setHeader('location', req.url === '/a' ? '/b' : '/a');
      res.end();
    });
    const err = await codeOf(fetcher().fetch(`${s.origin}/a`));
    expect(err.code).toBe('UPSTREAM_ERROR');
    expect(err.message).toMatch(/loop/);
  });

  it.each([
    'http://10.0.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://localhost/',
    'http://[::1]/',
    'http://0x7f000001:1/',
    'http://internal.example.com/',
    'http://other-port.example.com/',
    'file:///etc/passwd',
    'gopher://127.0.0.1:25/',
  ])('redirect to %s is refused with INVALID_URL and never dialled', async (target) => {
    const dialled: string[] = [];
    const real = buildConnector({});
    const s = await site((req, res) => {
      if (req.url === '/robots.txt') return noRobots(req, res);
      res.statusCode = 302;
      res.setHeader('location', target.replace('other-port.example.com', `other-port.example.com:${s.port + 1}`));
      res.end();
    });
    const { lookup } = mapLookup({ 'internal.example.com': '10.1.2.3', 'other-port.example.com': '127.0.0.1' });
    const f = fetcher({
      allowPrivateTargets: [`127.0.0.1:${s.port}`],
      lookup,
      dial: (opts, cb) => {
        dialled.push(`${opts.hostname}:${opts.port}`);
        real(opts, cb);
      },
    });
    const err = await codeOf(f.fetch(`${s.origin}/start`));
    expect(err.code).toBe('INVALID_URL');
    expect(dialled.every((d) => d === `127.0.0.1:${s.port}`)).toBe(true);
  });
});

describe('DNS rebinding', () => {
  it('checks each connection once and never dials the rebound address', async () => {
    const s = await site((req, res) => {
      res.setHeader('connection', 'close'); // every request needs a new connection, so a new resolution
      if (req.url === '/robots.txt') return noRobots(req, res);
      res.end('first');
    });
    const answers = ['127.0.0.1', '10.0.0.7', '10.0.0.7'];
    const lookups: string[] = [];
    const dialled: string[] = [];
    const real = buildConnector({});
    const f = fetcher({
      allowPrivateTargets: [`127.0.0.1:${s.port}`],
      lookup: async (host) => {
        const address = answers[lookups.length] ?? '10.0.0.7';
        lookups.push(`${host}=${address}`);
        return [{ address, family: 4 }];
      },
      dial: (opts, cb) => {
        dialled.push(opts.hostname);
        real({ ...opts, port: String(s.port) }, cb);
      },
    });
    // robots.txt connection resolves to 127.0.0.1 (allowed); the page connection gets the rebound 10.0.0.7
    const err = await codeOf(f.fetch(`http://rebind.test:${s.port}/`));
    expect(err.code).toBe('INVALID_URL');
    expect(dialled).toEqual(['127.0.0.1']);
    expect(lookups).toHaveLength(2);
    expect(lookups.length).toBe(dialled.length + 1);
  });

  it('resolves once per connection: the dialled address is the checked one', async () => {
    const s = await site((_req, res) => res.end('same connection'));
    let n = 0;
    const dialled: string[] = [];
    const real = buildConnector({});
    const cache = memoryCache();
    await cache.set(`robots:http://rebind2.test:${s.port}`, JSON.stringify({ kind: 'allow-all' }), 60_000, 0);
    const f = fetcher({
      cache,
      lookup: async () => [{ address: n++ === 0 ? '127.0.0.1' : '10.0.0.7', family: 4 }],
      dial: (opts, cb) => {
        dialled.push(opts.hostname);
        real({ ...opts, port: String(s.port) }, cb);
      },
    });
    const doc = await f.fetch(`http://rebind2.test:${s.port}/`);
    expect(doc.body.toString()).toBe('same connection');
    expect(dialled).toEqual(['127.0.0.1']);
    expect(n).toBe(1);
  });
});

describe('hosts with several addresses', () => {
  /** A dialler that fails the listed addresses without connecting and really dials 127.0.0.1. */
  function failingDialler(port: number, failures: Record<string, string>, dialled: string[]) {
    const real = buildConnector({});
    return (opts: buildConnector.Options, cb: buildConnector.Callback) => {
      dialled.push(opts.hostname);
      const code = failures[opts.hostname];
      if (code !== undefined) {
        const err = Object.assign(new Error(`simulated ${code}`), { code });
        queueMicrotask(() => cb(err, null));
        return;
      }
      real({ ...opts, port: String(port) }, cb);
    };
  }

  it('falls over to the next checked address when one refuses or is unreachable', async () => {
    const s = await site((req, res) => (req.url === '/robots.txt' ? noRobots(req, res) : res.end('reached')));
    const dialled: string[] = [];
    const f = fetcher({
      allowPrivateTargets: ['127.0.0.0/8'],
      lookup: async () => [
        { address: '127.0.0.7', family: 4 },
        { address: '127.0.0.8', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
      dial: failingDialler(s.port, { '127.0.0.7': 'ECONNREFUSED', '127.0.0.8': 'EHOSTUNREACH' }, dialled),
    });
    const doc = await f.fetch(`http://multi.test:${s.port}/`);
    expect(doc.body.toString()).toBe('reached');
    // every connection (robots.txt, then the page) tries the addresses in resolver order
    expect(dialled.slice(0, 3)).toEqual(['127.0.0.7', '127.0.0.8', '127.0.0.1']);
    expect(dialled.every((a) => ['127.0.0.7', '127.0.0.8', '127.0.0.1'].includes(a))).toBe(true);
  });

  it("does not retry other addresses for failures that are not the address's (e.g. TLS)", async () => {
    const s = await site((_req, res) => res.end('never'));
    const dialled: string[] = [];
    const cache = memoryCache();
    await cache.set(`robots:http://tls.test:${s.port}`, JSON.stringify({ kind: 'allow-all' }), 60_000, 0);
    const f = fetcher({
      cache,
      allowPrivateTargets: ['127.0.0.0/8'],
      lookup: async () => [
        { address: '127.0.0.7', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
      dial: failingDialler(s.port, { '127.0.0.7': 'ERR_TLS_CERT_ALTNAME_INVALID' }, dialled),
    });
    const err = await codeOf(f.fetch(`http://tls.test:${s.port}/`));
    expect(err.status).toBeGreaterThanOrEqual(400);
    expect(dialled).toEqual(['127.0.0.7']);
  });

  it('tries at most four addresses and reports the target as unreachable', async () => {
    const s = await site((_req, res) => res.end('never'));
    const dialled: string[] = [];
    const cache = memoryCache();
    await cache.set(`robots:http://down.test:${s.port}`, JSON.stringify({ kind: 'allow-all' }), 60_000, 0);
    const addresses = ['127.0.0.11', '127.0.0.12', '127.0.0.13', '127.0.0.14', '127.0.0.15'];
    const f = fetcher({
      cache,
      allowPrivateTargets: ['127.0.0.0/8'],
      lookup: async () => addresses.map((address) => ({ address, family: 4 as const })),
      dial: failingDialler(s.port, Object.fromEntries(addresses.map((a) => [a, 'ECONNREFUSED'])), dialled),
    });
    const err = await codeOf(f.fetch(`http://down.test:${s.port}/`));
    expect(err.code).toBe('URL_NOT_FOUND');
    expect(dialled).toEqual(addresses.slice(0, 4));
  });

  it('refuses the connection without dialling when any of the addresses is not public', async () => {
    const s = await site((_req, res) => res.end('never'));
    const dialled: string[] = [];
    const f = fetcher({
      allowPrivateTargets: [`127.0.0.1:${s.port}`],
      lookup: async () => [
        { address: '127.0.0.1', family: 4 },
        { address: '10.1.2.3', family: 4 },
      ],
      dial: failingDialler(s.port, {}, dialled),
    });
    const err = await codeOf(f.fetch(`http://mixed.test:${s.port}/`));
    expect(err.code).toBe('INVALID_URL');
    expect(dialled).toEqual([]);
  });
});

describe('error statuses and network failures', () => {
  it.each([
    [404, 'URL_NOT_FOUND'],
    [410, 'URL_NOT_FOUND'],
    [500, 'UPSTREAM_ERROR'],
    [502, 'UPSTREAM_ERROR'],
    [403, 'UPSTREAM_ERROR'],
    [429, 'UPSTREAM_ERROR'],
    [401, 'UPSTREAM_ERROR'],
    [300, 'UPSTREAM_ERROR'],
  ])('status %i → %s', async (status, code) => {
    const s = await site((req, res) => {
      if (req.url === '/robots.txt') return noRobots(req, res);
      res.statusCode = status;
      res.end('nope');
    });
    const err = await codeOf(fetcher().fetch(`${s.origin}/`));
    expect(err.code).toBe(code);
    expect(err.fields.upstream_status).toBe(status);
  });

  it('connection refused → URL_NOT_FOUND', async () => {
    const s = await startSite(noRobots);
    await s.close();
    expect((await codeOf(fetcher().fetch(`${s.origin}/`))).code).toBe('URL_NOT_FOUND');
  });

  it('NXDOMAIN → URL_NOT_FOUND', async () => {
    const { lookup } = mapLookup({});
    expect((await codeOf(fetcher({ lookup }).fetch('http://does-not-exist.example.com/'))).code).toBe('URL_NOT_FOUND');
  });

  it('a self-signed certificate → TLS_ERROR', async () => {
    const dir = new URL('./fixtures/', import.meta.url);
    const server = createHttpsServer(
      { key: readFileSync(new URL('self-signed.key', dir)), cert: readFileSync(new URL('self-signed.crt', dir)) },
      (_req, res) => res.end('secret'),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    defer(() => new Promise<void>((r) => server.close(() => r())));
    const { port } = server.address() as AddressInfo;
    expect((await codeOf(fetcher().fetch(`https://127.0.0.1:${port}/`))).code).toBe('TLS_ERROR');
  });

  it('TLS verifies the original host name while dialling the checked address', async () => {
    const dir = new URL('./fixtures/', import.meta.url);
    const cert = readFileSync(new URL('self-signed.crt', dir));
    const server = createHttpsServer({ key: readFileSync(new URL('self-signed.key', dir)), cert }, (req, res) => {
      res.end(req.url === '/robots.txt' ? '' : 'over tls');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    defer(() => new Promise<void>((r) => server.close(() => r())));
    const { port } = server.address() as AddressInfo;
    const trusting = buildConnector({ ca: cert }); // test-only trust in the fixture certificate
    const servernames: Array<string | undefined> = [];
    const { lookup } = mapLookup({ 'tls.test': '127.0.0.1', 'wrong.test': '127.0.0.1' });
    const f = fetcher({
      lookup,
      dial: (opts, cb) => {
        servernames.push(opts.servername ?? undefined);
        trusting(opts, cb);
      },
    });
    expect((await f.fetch(`https://tls.test:${port}/`)).body.toString()).toBe('over tls');
    expect(servernames.every((n) => n === 'tls.test')).toBe(true);
    // the certificate does not name wrong.test: the check is against the name, not the IP
    expect((await codeOf(f.fetch(`https://wrong.test:${port}/`))).code).toBe('TLS_ERROR');
  });

  it('a connection reset mid-body → UPSTREAM_ERROR', async () => {
    const s = await site((req, res) => {
      if (req.url === '/robots.txt') return noRobots(req, res);
      res.setHeader('content-length', '1000');
      res.write('partial');
      setTimeout(() => req.socket.destroy(), 20);
    });
    expect((await codeOf(fetcher().fetch(`${s.origin}/`))).code).toBe('UPSTREAM_ERROR');
  });

  it('a caller abort rejects with the caller reason', async () => {
    const s = await site(() => {
      /* never answers */
    });
    const ac = new AbortController();
    const p = fetcher().fetch(`${s.origin}/`, { signal: ac.signal });
    setTimeout(() => ac.abort(new Error('client went away')), 50);
    await expect(p).rejects.toThrow('client went away');
  });
});

describe('firewalls', () => {
  it.each(WAF_FIXTURES.filter((f) => f.vendor !== null))('$name → WAF_BLOCKED $vendor', async (fx) => {
    const s = await site((req, res) => {
      if (req.url === '/robots.txt') return noRobots(req, res);
      res.writeHead(fx.status, fx.headers);
      res.end(fx.body);
    });
    const err = await codeOf(fetcher().fetch(`${s.origin}/`));
    expect(err.code).toBe('WAF_BLOCKED');
    expect(err.fields.vendor).toBe(fx.vendor);
  });

  it('a gzip-compressed challenge page is still recognised', async () => {
    const fx = WAF_FIXTURES[0]!;
    const s = await site((req, res) => {
      if (req.url === '/robots.txt') return noRobots(req, res);
      res.writeHead(fx.status, { ...fx.headers, 'cf-mitigated': '', 'content-encoding': 'gzip' });
      res.end(gzipSync(fx.body));
    });
    expect((await codeOf(fetcher().fetch(`${s.origin}/`))).fields.vendor).toBe('cloudflare');
  });

  it('a plain 403 is UPSTREAM_ERROR, not WAF_BLOCKED', async () => {
    const s = await site((req, res) => {
      if (req.url === '/robots.txt') return noRobots(req, res);
      res.writeHead(403, { server: 'nginx' });
      res.end('<h1>403 Forbidden</h1>');
    });
    const err = await codeOf(fetcher().fetch(`${s.origin}/`));
    expect(err.code).toBe('UPSTREAM_ERROR');
    expect(err.fields.upstream_status).toBe(403);
  });
});

describe('robots.txt gate', () => {
  function robotsSite(robots: { status: number; body?: string; delayMs?: number }, hits: string[]): Promise<Site> {
    return site(async (req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/robots.txt') {
        if (robots.delayMs) await new Promise((r) => setTimeout(r, robots.delayMs));
        res.statusCode = robots.status;
        return res.end(robots.body ?? '');
      }
      res.end('page');
    });
  }

  it('blocks a disallowed path for PithBot and allows others', async () => {
    const hits: string[] = [];
    const s = await robotsSite({ status: 200, body: 'User-agent: *\nDisallow: /\n\nUser-agent: PithBot\nDisallow: /private\n' }, hits);
    const f = fetcher();
    expect((await codeOf(f.fetch(`${s.origin}/private/x`))).code).toBe('ROBOTS_BLOCKED');
    expect((await f.fetch(`${s.origin}/public`)).body.toString()).toBe('page');
    expect(hits.filter((h) => h === '/robots.txt')).toHaveLength(1); // cached per origin
    expect(hits).not.toContain('/private/x');
  });

  it.each([
    [404, true],
    [401, true],
    [403, true],
    [410, true],
    [429, false],
    [500, false],
    [503, false],
  ])('robots.txt status %i → allowed=%s', async (status, allowed) => {
    const s = await robotsSite({ status, body: 'User-agent: *\nDisallow: /\n' }, []);
    const p = fetcher().fetch(`${s.origin}/x`);
    if (allowed) expect((await p).body.toString()).toBe('page');
    else expect((await codeOf(p)).code).toBe('ROBOTS_BLOCKED');
  });

  it('a robots.txt that times out disallows everything (within the robots bound)', async () => {
    const s = await robotsSite({ status: 200, delayMs: 3_000 }, []);
    const started = Date.now();
    const err = await codeOf(fetcher({ limits: { robotsTimeoutMs: 200 } }).fetch(`${s.origin}/x`));
    expect(err.code).toBe('ROBOTS_BLOCKED');
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it('caches for one hour per origin in the CacheStore, then asks again', async () => {
    const hits: string[] = [];
    const s = await robotsSite({ status: 200, body: 'User-agent: *\nAllow: /\n' }, hits);
    let now = 1_000_000;
    const cache = memoryCache();
    const f = fetcher({ cache, now: () => now });
    await f.fetch(`${s.origin}/a`);
    await f.fetch(`${s.origin}/b`);
    expect([...cache.entries.keys()]).toEqual([`robots:${s.origin}`]);
    now += 59 * 60 * 1000;
    await f.fetch(`${s.origin}/c`);
    expect(hits.filter((h) => h === '/robots.txt')).toHaveLength(1);
    now += 2 * 60 * 1000;
    await f.fetch(`${s.origin}/d`);
    expect(hits.filter((h) => h === '/robots.txt')).toHaveLength(2);
  });

  it('checks the robots.txt of every redirect target', async () => {
    const hitsB: string[] = [];
    const b = await robotsSite({ status: 200, body: 'User-agent: pithbot\nDisallow: /no\n' }, hitsB);
    const a = await site((req, res) => {
      if (req.url === '/robots.txt') return noRobots(req, res);
      res.statusCode = 302;
      res.setHeader('location', `${b.origin}/no`);
      res.end();
    });
    expect((await codeOf(fetcher().fetch(`${a.origin}/`))).code).toBe('ROBOTS_BLOCKED');
    expect(hitsB).toEqual(['/robots.txt']);
  });

  it('parallel reads of one origin share a single robots.txt request', async () => {
    const hits: string[] = [];
    const s = await robotsSite({ status: 200, body: 'User-agent: *\nDisallow: /no\n', delayMs: 100 }, hits);
    const f = fetcher();
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => f.fetch(`${s.origin}/${i % 2 ? 'no' : 'yes'}/${i}`)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    expect(hits.filter((h) => h === '/robots.txt')).toHaveLength(1);
  });

  it('follows a robots.txt redirect', async () => {
    const s = await site((req, res) => {
      if (req.url === '/robots.txt') {
        res.statusCode = 301;
        res.setHeader('location', '/real-robots.txt');
        return res.end();
      }
      if (req.url === '/real-robots.txt') return res.end('User-agent: *\nDisallow: /x\n');
      res.end('page');
    });
    expect((await codeOf(fetcher().fetch(`${s.origin}/x`))).code).toBe('ROBOTS_BLOCKED');
  });

  it('a cache that fails is logged and bypassed', async () => {
    const s = await robotsSite({ status: 404 }, []);
    const warnings: string[] = [];
    const f = fetcher({
      cache: {
        get: async () => Promise.reject(new Error('down')),
        set: async () => Promise.reject(new Error('down')),
        delete: async () => {},
      },
      logger: { warn: (_o, msg) => warnings.push(msg ?? '') },
    });
    expect((await f.fetch(`${s.origin}/`)).body.toString()).toBe('page');
    expect(warnings.some((w) => /robots cache/.test(w))).toBe(true);
  });
});

describe('fetchResource', () => {
  it('returns 4xx as data, follows redirects, truncates on request', async () => {
    const s = await site((req, res) => {
      if (req.url === '/missing') {
        res.statusCode = 404;
        return res.end('not here');
      }
      if (req.url === '/move') {
        res.statusCode = 301;
        res.setHeader('location', '/big');
        return res.end();
      }
      res.setHeader('content-type', 'text/plain; charset=utf-8');
      res.end('x'.repeat(10_000));
    });
    const f = fetcher();
    const missing = await f.fetchResource(`${s.origin}/missing`);
    expect(missing.status).toBe(404);
    expect(missing.body.toString()).toBe('not here');
    const big = await f.fetchResource(`${s.origin}/move`, { maxBytes: 100, truncate: true });
    expect(big).toMatchObject({ url: `${s.origin}/big`, status: 200, contentType: 'text/plain', truncated: true });
    expect(big.body.length).toBe(100);
    expect((await codeOf(f.fetchResource(`${s.origin}/big`, { maxBytes: 100 }))).code).toBe('TOO_LARGE');
    const noFollow = await f.fetchResource(`${s.origin}/move`, { followRedirects: 0 });
    expect(noFollow.status).toBe(301);
  });

  it('can probe with HEAD', async () => {
    const methods: string[] = [];
    const s = await site((req, res) => {
      methods.push(req.method ?? '');
      res.setHeader('content-type', 'text/markdown');
      res.end(req.method === 'HEAD' ? undefined : '# hi');
    });
    const out = await fetcher().fetchResource(`${s.origin}/llms.txt`, { method: 'HEAD', headers: { accept: 'text/markdown' } });
    expect(out).toMatchObject({ status: 200, contentType: 'text/markdown' });
    expect(out.body.length).toBe(0);
    expect(methods).toEqual(['HEAD']);
  });

  it('honours its own deadline', async () => {
    const s = await site(() => {
      /* never answers */
    });
    const started = Date.now();
    expect((await codeOf(fetcher().fetchResource(`${s.origin}/`, { timeoutMs: 150 }))).code).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
