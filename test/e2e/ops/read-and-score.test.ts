import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../helpers/service.js';
import { startService } from '../../helpers/service.js';
import { startFixtureSites } from './fixture-sites.js';
import type { BadInputCase } from './helpers.js';
import { badUrlCases, commonBadBodies, usageOf } from './helpers.js';

describe('POST /v1/read-and-score', () => {
  let sites: Awaited<ReturnType<typeof startFixtureSites>>;
  let svc: TestService;

  beforeAll(async () => {
    sites = await startFixtureSites();
    svc = await startService();
  });
  afterAll(async () => {
    await svc.close();
    await sites.close();
  });

  it("answers read's fields plus the score, for 1 credit", async () => {
    const { apiKey, accountId } = await svc.newAccount('starter');
    const url = sites.urlOf('docs-site');
    const res = await svc.call('/v1/read-and-score', { key: apiKey, body: { url } });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      status: 'success',
      url,
      metadata: { title: expect.any(String), language: 'en' },
      cache: { hit: false, ttl_seconds: 3600 },
      score: { value: 100, grade: 'A' },
    });
    expect(res.json.markdown).toContain('## Install');
    expect(res.json.score.checks).toHaveLength(13);
    expect(Object.keys(res.json.stats).sort()).toEqual([
      'extraction_time_ms',
      'markdown_size_kb',
      'raw_html_size_kb',
      'reduction_percent',
      'rendered',
      'tokens',
    ]);
    expect(res.headers['x-service-cache']).toBe('MISS');
    expect(res.headers['x-service-billed']).toBe('plan');
    expect(await usageOf(svc, accountId)).toEqual({ planUsed: 1, boughtBalance: 0 });
    // the same page read plainly has no score
    const read = await svc.call('/v1/read', { key: apiKey, body: { url } });
    expect(read.json.score).toBeUndefined();
  });

  it('is cached 1 h under its own key; fresh skips the lookup; a HIT still costs 1 credit', async () => {
    const { apiKey, accountId } = await svc.newAccount('starter');
    const url = sites.urlOf('markdown-native');
    const read = await svc.call('/v1/read', { key: apiKey, body: { url } });
    expect(read.headers['x-service-cache']).toBe('MISS');
    // read's cache entry does not serve read-and-score
    const first = await svc.call('/v1/read-and-score', { key: apiKey, body: { url } });
    expect(first.headers['x-service-cache']).toBe('MISS');
    const second = await svc.call('/v1/read-and-score', { key: apiKey, body: { url } });
    expect(second.headers['x-service-cache']).toBe('HIT');
    expect(second.json.cache.hit).toBe(true);
    expect(second.json.score).toEqual(first.json.score);
    const fresh = await svc.call('/v1/read-and-score', { key: apiKey, body: { url, fresh: true } });
    expect(fresh.headers['x-service-cache']).toBe('MISS');
    expect(fresh.json.cache.hit).toBe(false);
    // after the hour the entry is gone
    svc.clock.now += 3600 * 1000 + 1;
    const later = await svc.call('/v1/read-and-score', { key: apiKey, body: { url } });
    expect(later.headers['x-service-cache']).toBe('MISS');
    expect(await usageOf(svc, accountId)).toEqual({ planUsed: 5, boughtBalance: 0 });
  });

  it('a failed call is refunded', async () => {
    const { apiKey, accountId } = await svc.newAccount('starter');
    const res = await svc.call('/v1/read-and-score', { key: apiKey, body: { url: sites.urlOf('docs-site', '/missing') } });
    expect(res.status).toBe(404);
    expect(res.json.code).toBe('URL_NOT_FOUND');
    expect(await usageOf(svc, accountId)).toEqual({ planUsed: 0, boughtBalance: 0 });
  });

  describe('bad input → 4xx, nothing charged', () => {
    const cases: BadInputCase[] = [
      ...commonBadBodies(),
      ...badUrlCases(),
      {
        name: 'fresh is a string',
        opts: (k) => ({ key: k, body: { url: 'https://example.com/', fresh: 'yes' } }),
        status: 400,
        code: 'BAD_REQUEST',
      },
      {
        name: 'fresh is a number',
        opts: (k) => ({ key: k, body: { url: 'https://example.com/', fresh: 1 } }),
        status: 400,
        code: 'BAD_REQUEST',
      },
    ];
    it.each(cases)('$name → $status $code', async ({ opts, status, code }) => {
      const { apiKey, accountId } = await svc.newAccount('starter');
      const res = await svc.call('/v1/read-and-score', opts(apiKey));
      expect(res.status).toBe(status);
      expect(res.json).toMatchObject({ status: 'error', code });
      expect(await usageOf(svc, accountId)).toEqual({ planUsed: 0, boughtBalance: 0 });
    });
  });
});
