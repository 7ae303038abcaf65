import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Site } from '../helpers/site.js';
import { startSite } from '../helpers/site.js';
import type { TestService } from '../helpers/service.js';
import { startService } from '../helpers/service.js';

const ARTICLE = `<!doctype html><html lang="en"><head><title>Tide tables explained</title>
<meta name="description" content="How tide tables are read."></head>
<body><main><article><h1>Tide tables explained</h1>
<p>Tide tables list the times and heights of high and low water for a harbour, day by day.</p>
<p>Each row gives a time in local hours and a height above chart datum in metres.</p>
</article></main></body></html>`;

describe('POST /v1/read end to end', () => {
  let site: Site;
  let svc: TestService;
  let hits = 0;

  beforeAll(async () => {
    site = await startSite((req, res) => {
      hits++;
      if (req.url?.startsWith('/article')) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(ARTICLE);
      } else if (req.url === '/robots.txt') {
        res.writeHead(404).end();
      } else if (req.url === '/gone') {
        res.writeHead(410).end('gone');
      } else if (req.url === '/notes.txt') {
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('plain notes\nsecond line\n');
      } else {
        res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
      }
    });
    svc = await startService();
  });
  afterAll(async () => {
    await svc.close();
    await site.close();
  });

  it('returns the spec JSON shape and all billing headers, MISS then HIT, both charged', async () => {
    const { apiKey } = await svc.newAccount('starter');
    const url = `${site.origin}/article-1.html`;
    const first = await svc.call('/v1/read', { key: apiKey, body: { url } });
    expect(first.status).toBe(200);
    expect(first.json.status).toBe('success');
    expect(first.json.url).toBe(url);
    expect(first.json.markdown).toContain('Tide tables list the times');
    expect(first.json.metadata).toMatchObject({ title: expect.stringContaining('Tide tables'), language: 'en' });
    expect(Object.keys(first.json.stats).sort()).toEqual([
      'extraction_time_ms',
      'markdown_size_kb',
      'raw_html_size_kb',
      'reduction_percent',
      'rendered',
      'tokens',
    ]);
    expect(first.json.stats.raw_html_size_kb).toBeCloseTo(Buffer.byteLength(ARTICLE) / 1024, 2);
    expect(first.json.cache).toEqual({ hit: false, ttl_seconds: 3600 });
    expect(first.headers['x-service-cache']).toBe('MISS');
    expect(first.headers['x-service-billed']).toBe('plan');
    expect(first.headers['x-ratelimit-remaining']).toBe('9999');
    expect(first.headers['x-ratelimit-reset']).toBe('2026-12-01T00:00:00.000Z');
    expect(first.headers['x-concurrent-remaining']).toBe('4');
    expect(first.headers['x-credits-remaining']).toBeUndefined();
    expect(first.headers['x-request-id']).toMatch(/^req_/);

    const hitsBefore = hits;
    const second = await svc.call('/v1/read', { key: apiKey, body: { url } });
    expect(second.status).toBe(200);
    expect(second.headers['x-service-cache']).toBe('HIT');
    expect(second.json.cache.hit).toBe(true);
    expect(second.json.stats).toEqual(first.json.stats);
    expect(second.headers['x-ratelimit-remaining']).toBe('9998');
    expect(hits).toBe(hitsBefore); // no outbound fetch on a HIT
  });

  it('fresh: true skips the lookup but writes the cache', async () => {
    const { apiKey } = await svc.newAccount('starter');
    const url = `${site.origin}/article-fresh.html`;
    await svc.call('/v1/read', { key: apiKey, body: { url } });
    const before = hits;
    const fresh = await svc.call('/v1/read', { key: apiKey, body: { url, fresh: true } });
    expect(fresh.headers['x-service-cache']).toBe('MISS');
    expect(hits).toBeGreaterThan(before);
    const after = await svc.call('/v1/read', { key: apiKey, body: { url } });
    expect(after.headers['x-service-cache']).toBe('HIT');
  });

  it('answers raw Markdown for Accept: text/markdown with the same headers', async () => {
    const { apiKey } = await svc.newAccount('starter');
    const res = await svc.call('/v1/read', {
      key: apiKey,
      body: { url: `${site.origin}/article-md.html` },
      headers: { accept: 'text/markdown' },
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.text).toContain('Tide tables list the times');
    expect(res.json).toBeNull();
    expect(res.headers['x-service-billed']).toBe('plan');
    expect(res.headers['x-service-cache']).toBe('MISS');
  });

  it('refunds a failed read: target 404 and 410 leave every counter unchanged', async () => {
    const { apiKey, accountId } = await svc.newAccount('starter');
    for (const path of ['/missing', '/gone']) {
      const res = await svc.call('/v1/read', { key: apiKey, body: { url: `${site.origin}${path}` } });
      expect(res.status).toBe(404);
      expect(res.json).toMatchObject({ status: 'error', code: 'URL_NOT_FOUND', request_id: res.headers['x-request-id'] });
      expect(res.headers['x-ratelimit-remaining']).toBe('10000');
      expect(res.headers['x-service-billed']).toBeUndefined();
      expect(res.headers['x-concurrent-remaining']).toBe('4');
    }
    const usage = await svc.call('/v1/usage', { key: apiKey });
    expect(usage.json.plan_credits).toEqual({ limit: 10000, used: 0, remaining: 10000 });
    const entries = await svc.stores.ledger.listEntries(accountId);
    expect(entries.filter((e) => e.kind === 'charge')).toHaveLength(2);
    expect(entries.filter((e) => e.kind === 'refund')).toHaveLength(2);
  });

  it('keys the cache by engine version: a new version misses', async () => {
    const other = await startService({ env: { ENGINE_VERSION: 'other-engine' } });
    try {
      const { apiKey } = await svc.newAccount('starter');
      const url = `${site.origin}/article-engine.html`;
      expect((await svc.call('/v1/read', { key: apiKey, body: { url } })).headers['x-service-cache']).toBe('MISS');
      // the same store under another engine version: copy the row to prove the key differs
      const key2 = await other.newAccount('starter');
      const res = await other.call('/v1/read', { key: key2.apiKey, body: { url } });
      expect(res.headers['x-service-cache']).toBe('MISS');
      const { cacheKey } = await import('../../src/ops/cache.js');
      expect(cacheKey('read', 'a', url)).not.toBe(cacheKey('read', 'b', url));
      expect(await svc.stores.cache.get(cacheKey('read', 'test-engine', url), svc.clock.now)).not.toBeNull();
      expect(await svc.stores.cache.get(cacheKey('read', 'other-engine', url), svc.clock.now)).toBeNull();
    } finally {
      await other.close();
    }
  });

  it('expires cache entries after one hour', async () => {
    const { apiKey } = await svc.newAccount('growth');
    const url = `${site.origin}/article-ttl.html`;
    await svc.call('/v1/read', { key: apiKey, body: { url } });
    svc.clock.now += 3600_000 - 1;
    expect((await svc.call('/v1/read', { key: apiKey, body: { url } })).headers['x-service-cache']).toBe('HIT');
    svc.clock.now += 2;
    expect((await svc.call('/v1/read', { key: apiKey, body: { url } })).headers['x-service-cache']).toBe('MISS');
    svc.clock.now -= 3600_000 + 1;
  });

  it('reads plain text', async () => {
    const { apiKey } = await svc.newAccount('starter');
    const res = await svc.call('/v1/read', { key: apiKey, body: { url: `${site.origin}/notes.txt` } });
    expect(res.status).toBe(200);
    expect(res.json.markdown).toContain('plain notes');
  });

  it('rewrites a code-host blob URL in the response url (validation only: refused before any fetch for private hosts)', async () => {
    const { apiKey } = await svc.newAccount('starter');
    const res = await svc.call('/v1/read', { key: apiKey, body: { url: 'http://127.0.0.1:1/x', fresh: true } });
    // port 1 on loopback is allowed by the escape hatch but nothing listens: refused connection
    expect(res.status).toBe(404);
    expect(res.json.code).toBe('URL_NOT_FOUND');
  });

  it('never writes an API key to the logs', async () => {
    const { apiKey } = await svc.newAccount('starter');
    await svc.call('/v1/read', { key: apiKey, body: { url: `${site.origin}/article-log.html` } });
    await svc.call('/v1/read', { key: `${apiKey}x`, body: { url: `${site.origin}/article-log.html` } });
    const all = JSON.stringify(svc.logs);
    expect(svc.logs.length).toBeGreaterThan(0);
    expect(all).not.toContain(apiKey);
  });
});
