/**
 * Issue 13: hostile pages, bodies and requests against the service as it runs in production
 * (content jobs in a worker pool, a body memory budget), one case per class, each at the full
 * size cap (10 MB). Every case asserts a bound on time: the whole call answers within the
 * read window (15 s fetch + 5 s queue + 10 s conversion = 30 s), which only a stall or a
 * super-linear blow-up can break (linear work on 10 MB takes a few seconds at most here),
 * and a clear answer: never a 500 INTERNAL_ERROR, and a failed call is refunded.
 * Then: the event loop stays free while ten hostile reads run, and overload is 503.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utcPeriod } from '../../src/billing/period.js';
import { WorkerPool } from '../../src/convert/workers/pool.js';
import { MemoryBudget } from '../../src/fetch/memory-budget.js';
import { ROBOTS_MAX_RULES } from '../../src/fetch/robots.js';
import { WORKER_JOBS_MODULE } from '../../src/ops/worker-jobs.js';
import type { TestService } from '../helpers/service.js';
import { startService } from '../helpers/service.js';
import type { Site } from '../helpers/site.js';
import { startSite } from '../helpers/site.js';

const MB = 1024 * 1024;
const CAP = 10 * MB;
/** The read window: fetch deadline + longest queue wait + conversion budget. */
const READ_WINDOW_MS = 30_000;

const fill = (unit: string, size: number, prefix = '', suffix = ''): string =>
  prefix +
  unit.repeat(Math.ceil((size - prefix.length - suffix.length) / unit.length)).slice(0, size - prefix.length - suffix.length) +
  suffix;

/** Hostile bodies at the cap, by path: [content-type, body]. */
function hostileBodies(): Map<string, [string, Buffer]> {
  const b = (s: string): Buffer => Buffer.from(s, 'latin1');
  return new Map<string, [string, Buffer]>([
    // the exponential SVG sniff of the issue, at 10 MB instead of 300 bytes
    ['/svg-comments.xml', ['application/xml', b(fill('<!---->', CAP, '<?xml?>', 'Z'))]],
    ['/svg-comments.bin', ['application/octet-stream', b(fill('<!---->', CAP, '<?xml?>', 'Z'))]],
    ['/brackets.md', ['text/markdown', b(fill('[', CAP))]],
    ['/title.md', ['text/markdown', b(fill(' ', CAP, '# a', 'b'))]],
    ['/deep.json', ['application/json', b(fill('[', CAP / 2) + fill(']', CAP / 2))]],
    ['/quote.csv', ['text/csv', b(fill('a', CAP, '"'))]],
    ['/dtd.xml', ['application/xml', b(fill('<!ENTITY a "b">', CAP, '<?xml version="1.0"?><!DOCTYPE r [', ''))]],
    ['/unclosed.html', ['text/html', b(fill('<div><a href="/x">', CAP, '<!doctype html><html><body>'))]],
    ['/markup.html', ['text/html', b(fill('<p><b>x</b></p>', CAP, '<!doctype html><html><body>'))]],
    ['/text.txt', ['text/plain', b(fill('ab\t', CAP))]],
  ]);
}

describe('hostile input (issue 13)', () => {
  let site: Site;
  let svc: TestService;
  const workers = new WorkerPool({ registry: WORKER_JOBS_MODULE, size: 1 });
  const bodies = hostileBodies();
  const gzip3 = gzipSync(gzipSync(gzipSync(Buffer.from('<html><body><p>three layers</p></body></html>'))));
  const sitemapBomb = Buffer.from(fill('<url><loc>http://map.test/a', CAP, '<urlset>'), 'latin1');
  const robots = `User-agent: *\n${Array.from({ length: ROBOTS_MAX_RULES }, () => `Disallow: /${'*a'.repeat(100)}b$`).join('\n')}\n`;

  beforeAll(async () => {
    site = await startSite((req, res) => {
      const host = (req.headers.host ?? '').split(':')[0];
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      if (path === '/robots.txt') {
        if (host === 'robots.test') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(robots);
        return void res.writeHead(404).end();
      }
      if (path === '/sitemap.xml' && host === 'map.test')
        return void res.writeHead(200, { 'content-type': 'application/xml' }).end(sitemapBomb);
      if (path === '/gzip3')
        return void res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip, gzip, gzip' }).end(gzip3);
      const hostile = bodies.get(path);
      if (hostile) return void res.writeHead(200, { 'content-type': hostile[0] }).end(hostile[1]);
      return void res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          '<!doctype html><html lang="en"><head><title>Plain</title></head><body><main><p>A plain page for the site.</p></main></body></html>',
        );
    });
    svc = await startService({ runner: workers, memory: new MemoryBudget(256 * MB) });
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
    await workers.close();
    await site?.close();
  });

  const timed = async <T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> => {
    const t0 = performance.now();
    const value = await work();
    return { value, ms: performance.now() - t0 };
  };

  it.each([...hostileBodies().keys()])(
    'read of %s at 10 MB answers within the read window, never 500 INTERNAL, refunded when failed',
    { timeout: 60_000 },
    async (path) => {
      const { apiKey, accountId } = await svc.newAccount('starter');
      const { value: res, ms } = await timed(() => svc.call('/v1/read', { key: apiKey, body: { url: `${site.origin}${path}` } }));
      expect(ms).toBeLessThan(READ_WINDOW_MS);
      expect(res.json.code).not.toBe('INTERNAL_ERROR');
      expect(res.status === 200 || (res.status >= 400 && res.json.status === 'error')).toBe(true);
      const usage = await svc.stores.ledger.getUsage(accountId, utcPeriod(svc.clock.now));
      expect(usage.planUsed).toBe(res.status === 200 ? 1 : 0);
    },
  );

  it('three stacked content codings: UPSTREAM_ERROR, nothing charged', async () => {
    const { apiKey, accountId } = await svc.newAccount('starter');
    const res = await svc.call('/v1/read', { key: apiKey, body: { url: `${site.origin}/gzip3` } });
    expect(res.status).toBe(502);
    expect(res.json).toMatchObject({ code: 'UPSTREAM_ERROR', message: expect.stringContaining('3 stacked content codings') });
    expect((await svc.stores.ledger.getUsage(accountId, utcPeriod(svc.clock.now))).planUsed).toBe(0);
  });

  it(`robots.txt of ${ROBOTS_MAX_RULES} wildcard rules against an 8 KB path: answered within the window`, async () => {
    const { apiKey } = await svc.newAccount('starter');
    const url = `http://robots.test:${site.port}/${'a'.repeat(8000)}`;
    const { value: res, ms } = await timed(() => svc.call('/v1/read', { key: apiKey, body: { url } }));
    expect(ms).toBeLessThan(READ_WINDOW_MS);
    expect([200, 403]).toContain(res.status);
  });

  it('map over a 10 MB sitemap of unclosed <url> blocks, with hostile globs: answered within its 15 s bound', async () => {
    const { apiKey } = await svc.newAccount('starter');
    const body = { url: `http://map.test:${site.port}/`, include: [`/**${'a**'.repeat(40)}`], exclude: ['/*/*/*/*/*/*/*/*/*/*'] };
    const { value: res, ms } = await timed(() => svc.call('/v1/map', { key: apiKey, body }));
    expect(ms).toBeLessThan(READ_WINDOW_MS);
    expect(res.status, res.text).toBe(200);
    expect(res.json.stats.sitemap_bytes).toBeLessThanOrEqual(CAP);
  });

  it('score of a 10 MB hostile page reads 2 MB of it and answers within the window', async () => {
    const { apiKey } = await svc.newAccount('free');
    const { value: res, ms } = await timed(() => svc.call('/v1/score', { key: apiKey, body: { url: `${site.origin}/unclosed.html` } }));
    expect(ms).toBeLessThan(READ_WINDOW_MS);
    expect(res.status, res.text).toBe(200);
    expect(res.json.score.checks.find((c: { id: string }) => c.id === 'text_ratio')).toBeDefined();
  });

  it('a batch of 100 duplicates of a 10 MB page: one read, the answer bounded, every undelivered item refunded', {
    timeout: 90_000,
  }, async () => {
    const { apiKey, accountId } = await svc.newAccount('growth');
    const urls = Array.from({ length: 100 }, () => `${site.origin}/text.txt`);
    const { value: res, ms } = await timed(() => svc.call('/v1/batch', { key: apiKey, body: { urls } }));
    expect(ms).toBeLessThan(READ_WINDOW_MS);
    expect(res.status).toBe(200);
    const ok = res.json.results.filter((r: { ok: boolean }) => r.ok);
    const tooLarge = res.json.results.filter((r: { ok: boolean; error?: { code: string } }) => !r.ok && r.error?.code === 'TOO_LARGE');
    expect(ok.length).toBeGreaterThan(0);
    expect(ok.length + tooLarge.length).toBe(100);
    // the 50 Mi-character bound of the Markdown; JSON escapes each tab of this page as two characters
    const markdownChars = ok.reduce((sum: number, r: { markdown: string }) => sum + r.markdown.length, 0);
    expect(markdownChars).toBeLessThanOrEqual(50 * MB);
    expect(res.text.length).toBeLessThan(2 * 50 * MB);
    expect((await svc.stores.ledger.getUsage(accountId, utcPeriod(svc.clock.now))).planUsed).toBe(ok.length);
  });

  it('the event loop stays free while ten hostile reads run: /healthz p99 well under a stall', { timeout: 120_000 }, async () => {
    const { apiKey } = await svc.newAccount('growth');
    const paths = [
      '/markup.html',
      '/unclosed.html',
      '/svg-comments.xml',
      '/brackets.md',
      '/title.md',
      '/deep.json',
      '/quote.csv',
      '/dtd.xml',
      '/text.txt',
      '/svg-comments.bin',
    ];
    const latencies: number[] = [];
    let running = true;
    const pinger = (async () => {
      while (running) {
        const t0 = performance.now();
        await svc.call('/healthz');
        latencies.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const reads = await Promise.all(
      paths.map((p) => svc.call('/v1/read', { key: apiKey, body: { url: `${site.origin}${p}`, fresh: true } })),
    );
    running = false;
    await pinger;
    for (const r of reads) expect(r.json.code).not.toBe('INTERNAL_ERROR');
    const sorted = [...latencies].sort((a, b) => a - b);
    const p99 = sorted[Math.floor(0.99 * (sorted.length - 1))] ?? Number.POSITIVE_INFINITY;
    console.log(`[hostile] /healthz while ten hostile reads run: n=${latencies.length} p99=${p99.toFixed(1)} ms`);
    expect(latencies.length).toBeGreaterThan(20);
    // Measured alone: p99 ≈ 18 ms (the target is 100 ms; bench/overload.ts tracks it).
    // One hostile parse on the loop would stall it for seconds; 250 ms catches that without
    // failing on a CI machine that runs other suites beside this one (it once saw 103 ms).
    expect(p99).toBeLessThanOrEqual(250);
  });
});

describe('overload is an honest 503 (issue 13)', () => {
  let site: Site;
  let svc: TestService;
  const workers = new WorkerPool({ registry: WORKER_JOBS_MODULE, size: 1 });
  const page = Buffer.from(fill('<p>A paragraph of a long page about harbours and tides. </p>', CAP, '<!doctype html><html><body><main>'));

  beforeAll(async () => {
    site = await startSite((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    });
    // room for two 10 MB bodies at once
    svc = await startService({ runner: workers, memory: new MemoryBudget(25 * MB) });
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
    await workers.close();
    await site?.close();
  });

  it('eight concurrent fresh reads of a 10 MB page: each 200 or 503 with Retry-After, never EXTRACTION_FAILED; credits = deliveries', {
    timeout: 120_000,
  }, async () => {
    const { apiKey, accountId } = await svc.newAccount('growth');
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => svc.call('/v1/read', { key: apiKey, body: { url: `${site.origin}/page-${i}`, fresh: true } })),
    );
    const ok = answers.filter((a) => a.status === 200);
    const busy = answers.filter((a) => a.status === 503);
    expect(ok.length + busy.length).toBe(8);
    expect(ok.length).toBeGreaterThan(0);
    expect(busy.length).toBeGreaterThan(0); // 8 × 10 MB cannot fit a 25 MB budget at once
    for (const b of busy) {
      expect(b.json).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retry_after: expect.any(Number) });
      expect(Number(b.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    expect((await svc.stores.ledger.getUsage(accountId, utcPeriod(svc.clock.now))).planUsed).toBe(ok.length);
  });
});
