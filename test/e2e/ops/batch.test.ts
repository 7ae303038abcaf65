import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Site } from '../../helpers/site.js';
import { startSite } from '../../helpers/site.js';
import type { TestService } from '../../helpers/service.js';
import { startService } from '../../helpers/service.js';
import type { BadInputCase } from './helpers.js';
import { Gate } from '../../helpers/gate.js';
import { seedPlanUsage } from '../../helpers/seed.js';
import { commonBadBodies, usageOf } from './helpers.js';

const page = (name: string): string =>
  `<html lang="en"><head><title>${name}</title></head><body><article><h1>${name}</h1><p>This is the page called ${name}; it has enough words to be read as an article body by the converter.</p></article></body></html>`;

describe('POST /v1/batch', () => {
  let site: Site;
  let svc: TestService;
  const gate = new Gate();
  const hits = new Map<string, number>();

  beforeAll(async () => {
    site = await startSite(async (req, res) => {
      const path = req.url ?? '/';
      hits.set(path, (hits.get(path) ?? 0) + 1);
      if (path === '/robots.txt') return void res.writeHead(404).end();
      if (path.startsWith('/missing')) return void res.writeHead(404).end();
      if (path.startsWith('/gate')) await gate.pass();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(path.slice(1) || 'home'));
    });
    svc = await startService();
  });
  afterAll(async () => {
    gate.release();
    await svc.close();
    await site.close();
  });

  it('returns one result per URL in request order; duplicates are charged, ok:false items refunded', async () => {
    const { apiKey, accountId } = await svc.newAccount('starter');
    const urls = [
      `${site.origin}/a`,
      `${site.origin}/missing`,
      `${site.origin}/a`,
      'ftp://example.com/x',
      'http://10.0.0.1/',
      `http://one.site.test:${site.port}/b`,
    ];
    const res = await svc.call('/v1/batch', { key: apiKey, body: { urls } });
    expect(res.status).toBe(200);
    expect(res.json.status).toBe('success');
    const results = res.json.results as Array<Record<string, any>>;
    expect(results.map((r) => r.ok)).toEqual([true, false, true, false, false, true]);
    expect(results[0]).toMatchObject({
      url: `${site.origin}/a`,
      ok: true,
      metadata: { title: 'a' },
      cache: { hit: false, ttl_seconds: 3600 },
    });
    expect(results[0]!.markdown).toContain('This is the page called a');
    expect(Object.keys(results[0]!.stats).sort()).toEqual([
      'extraction_time_ms',
      'markdown_size_kb',
      'raw_html_size_kb',
      'reduction_percent',
      'rendered',
      'tokens',
    ]);
    expect(results[1]).toEqual({
      url: `${site.origin}/missing`,
      ok: false,
      error: { code: 'URL_NOT_FOUND', message: 'the target answered 404' },
    });
    // the duplicate is charged but shares the first one's fetch
    expect(results[2]).toEqual(results[0]);
    expect(hits.get('/a')).toBe(1);
    expect(results[3]).toMatchObject({ url: 'ftp://example.com/x', ok: false, error: { code: 'INVALID_URL' } });
    expect(results[4]).toMatchObject({ url: 'http://10.0.0.1/', ok: false, error: { code: 'INVALID_URL' } });
    expect(results[5]).toMatchObject({ url: `http://one.site.test:${site.port}/b`, ok: true, metadata: { title: 'b' } });
    expect(results[1]!.markdown).toBeUndefined();
    // 6 charged, 3 refunded
    expect(await usageOf(svc, accountId)).toEqual({ planUsed: 3, boughtBalance: 0 });
    const entries = await svc.stores.ledger.listEntries(accountId);
    expect(entries.filter((e) => e.kind === 'charge').map((e) => e.amount)).toEqual([6]);
    expect(entries.filter((e) => e.kind === 'refund').map((e) => e.amount)).toEqual([1, 1, 1]);
    expect(res.headers['x-service-billed']).toBe('plan');
    expect(res.headers['x-service-cache']).toBe('MISS');
  });

  it("items go through read's cache: a batch of cached pages is a HIT, and read sees the batch's entries", async () => {
    const { apiKey, accountId } = await svc.newAccount('starter');
    const urls = [`${site.origin}/c1`, `${site.origin}/c2`];
    const first = await svc.call('/v1/batch', { key: apiKey, body: { urls } });
    expect(first.headers['x-service-cache']).toBe('MISS');
    expect(first.json.results.map((r: any) => r.cache.hit)).toEqual([false, false]);
    const second = await svc.call('/v1/batch', { key: apiKey, body: { urls } });
    expect(second.headers['x-service-cache']).toBe('HIT');
    expect(second.json.results.map((r: any) => r.cache.hit)).toEqual([true, true]);
    expect(hits.get('/c1')).toBe(1);
    const read = await svc.call('/v1/read', { key: apiKey, body: { url: `${site.origin}/c2` } });
    expect(read.headers['x-service-cache']).toBe('HIT');
    const mixed = await svc.call('/v1/batch', { key: apiKey, body: { urls: [`${site.origin}/c1`, `${site.origin}/c3`] } });
    expect(mixed.headers['x-service-cache']).toBe('MISS');
    expect(await usageOf(svc, accountId)).toEqual({ planUsed: 7, boughtBalance: 0 });
  });

  it('a batch whose every item fails is fully refunded', async () => {
    const { apiKey, accountId } = await svc.newAccount('free');
    const res = await svc.call('/v1/batch', { key: apiKey, body: { urls: [`${site.origin}/missing/1`, 'not a url'] } });
    expect(res.status).toBe(200);
    expect(res.json.results.map((r: any) => r.error.code)).toEqual(['URL_NOT_FOUND', 'INVALID_URL']);
    expect(await usageOf(svc, accountId)).toEqual({ planUsed: 0, boughtBalance: 0 });
  });

  it('a batch of 100 holds exactly one concurrency slot', async () => {
    const { apiKey, accountId } = await svc.newAccount('free'); // 2 slots
    gate.close();
    const urls = Array.from({ length: 100 }, (_, i) => `${site.origin}/gate/${i}`);
    const batch = svc.call('/v1/batch', { key: apiKey, body: { urls } });
    await gate.waitFor(svc.config.batchParallelism);
    const usage = await svc.call('/v1/usage', { key: apiKey });
    expect(usage.json.concurrency).toEqual({ limit: 2, in_flight: 1 });
    expect(await svc.stores.slots.inFlight(accountId, svc.clock.now)).toBe(1);
    // the second slot is still free: a read takes it, a third call is refused
    const read = svc.call('/v1/read', { key: apiKey, body: { url: `${site.origin}/gate/read` } });
    await gate.waitFor(svc.config.batchParallelism + 1);
    const refused = await svc.call('/v1/batch', { key: apiKey, body: { urls: [`${site.origin}/x`] } });
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ code: 'CONCURRENT_LIMIT', in_flight: 2, limit: 2 });
    gate.release();
    const done = await batch;
    expect(done.status).toBe(200);
    expect(done.json.results).toHaveLength(100);
    expect(done.json.results.every((r: any, i: number) => r.ok && r.url === `${site.origin}/gate/${i}`)).toBe(true);
    expect((await read).status).toBe(200);
    expect(await svc.stores.slots.inFlight(accountId, svc.clock.now)).toBe(0);
    expect(await usageOf(svc, accountId)).toEqual({ planUsed: 101, boughtBalance: 0 });
  });

  describe('all-or-nothing credit check', () => {
    const urls3 = (tag: string): string[] => [1, 2, 3].map((i) => `${site.origin}/aon/${tag}/${i}`);

    it('Free: N = remaining passes; N = remaining + 1 is RATE_LIMITED and charges nothing', async () => {
      const { apiKey, accountId } = await svc.newAccount('free');
      await seedPlanUsage(svc, accountId, 'free', 997); // 3 left
      const over = await svc.call('/v1/batch', { key: apiKey, body: { urls: [...urls3('f'), `${site.origin}/aon/f/4`] } });
      expect(over.status).toBe(429);
      expect(over.json).toMatchObject({ code: 'RATE_LIMITED', retry_after: '2026-12-01T00:00:00.000Z' });
      expect(await usageOf(svc, accountId)).toEqual({ planUsed: 997, boughtBalance: 0 });
      const fits = await svc.call('/v1/batch', { key: apiKey, body: { urls: urls3('f') } });
      expect(fits.status).toBe(200);
      expect(fits.headers['x-ratelimit-remaining']).toBe('0');
      expect(fits.headers['x-service-billed']).toBe('plan');
      expect(await usageOf(svc, accountId)).toEqual({ planUsed: 1000, boughtBalance: 0 });
    });

    it('paid: N = remaining goes to plan credits; N = remaining + 1 goes wholly to bought credits', async () => {
      const a = await svc.newAccount('starter');
      await seedPlanUsage(svc, a.accountId, 'starter', 9997);
      await svc.addPack(a.accountId, 'S');
      const fits = await svc.call('/v1/batch', { key: a.apiKey, body: { urls: urls3('p') } });
      expect(fits.status).toBe(200);
      expect(fits.headers['x-service-billed']).toBe('plan');
      expect(await usageOf(svc, a.accountId)).toEqual({ planUsed: 10000, boughtBalance: 500 });

      const b = await svc.newAccount('starter');
      await seedPlanUsage(svc, b.accountId, 'starter', 9997);
      await svc.addPack(b.accountId, 'S');
      const urls = [...urls3('p'), `${site.origin}/missing/p4`];
      const spill = await svc.call('/v1/batch', { key: b.apiKey, body: { urls } });
      expect(spill.status).toBe(200);
      expect(spill.headers['x-service-billed']).toBe('credit');
      expect(spill.headers['x-ratelimit-remaining']).toBe('3');
      // 4 taken from bought credits, the failed item given back to them
      expect(await usageOf(svc, b.accountId)).toEqual({ planUsed: 9997, boughtBalance: 497 });
      expect(spill.headers['x-credits-remaining']).toBe('497');
    });

    it('paid without bought credits: N = remaining + 1 is PAYMENT_REQUIRED and charges nothing', async () => {
      const { apiKey, accountId } = await svc.newAccount('starter');
      await seedPlanUsage(svc, accountId, 'starter', 9997);
      const res = await svc.call('/v1/batch', { key: apiKey, body: { urls: [...urls3('n'), `${site.origin}/aon/n/4`] } });
      expect(res.status).toBe(402);
      expect(res.json.code).toBe('PAYMENT_REQUIRED');
      expect(await usageOf(svc, accountId)).toEqual({ planUsed: 9997, boughtBalance: 0 });
    });
  });

  describe('bad input → 4xx, nothing charged', () => {
    const ok = 'https://example.com/';
    const cases: BadInputCase[] = [
      ...commonBadBodies(),
      { name: 'fresh: true', opts: (k) => ({ key: k, body: { urls: [ok], fresh: true } }), status: 400, code: 'BAD_REQUEST' },
      { name: 'fresh: false', opts: (k) => ({ key: k, body: { urls: [ok], fresh: false } }), status: 400, code: 'BAD_REQUEST' },
      { name: 'missing urls', opts: (k) => ({ key: k, body: { url: ok } }), status: 400, code: 'BAD_REQUEST' },
      { name: 'urls is a string', opts: (k) => ({ key: k, body: { urls: ok } }), status: 400, code: 'BAD_REQUEST' },
      { name: 'urls is null', opts: (k) => ({ key: k, body: { urls: null } }), status: 400, code: 'BAD_REQUEST' },
      { name: 'urls is empty', opts: (k) => ({ key: k, body: { urls: [] } }), status: 400, code: 'BAD_REQUEST' },
      {
        name: '101 urls',
        opts: (k) => ({ key: k, body: { urls: Array.from({ length: 101 }, () => ok) } }),
        status: 400,
        code: 'BAD_REQUEST',
      },
      { name: 'an item is a number', opts: (k) => ({ key: k, body: { urls: [ok, 42] } }), status: 400, code: 'BAD_REQUEST' },
      { name: 'an item is an object', opts: (k) => ({ key: k, body: { urls: [{ url: ok }] } }), status: 400, code: 'BAD_REQUEST' },
      { name: 'an item is empty', opts: (k) => ({ key: k, body: { urls: [''] } }), status: 400, code: 'INVALID_URL' },
      {
        name: 'an item is too long',
        opts: (k) => ({ key: k, body: { urls: [`${ok}${'a'.repeat(8200)}`] } }),
        status: 400,
        code: 'INVALID_URL',
      },
      { name: 'GET instead of POST', opts: (k) => ({ method: 'GET', key: k }), status: 405, code: 'METHOD_NOT_ALLOWED' },
    ];
    it.each(cases)('$name → $status $code', async ({ opts, status, code }) => {
      const { apiKey, accountId } = await svc.newAccount('starter');
      const res = await svc.call('/v1/batch', opts(apiKey));
      expect(res.status).toBe(status);
      expect(res.json).toMatchObject({ status: 'error', code });
      expect(res.json.message.length).toBeGreaterThan(0);
      expect(await usageOf(svc, accountId)).toEqual({ planUsed: 0, boughtBalance: 0 });
    });
  });
});
