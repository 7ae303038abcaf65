import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Site } from '../../helpers/site.js';
import { startSite } from '../../helpers/site.js';
import type { TestService } from '../../helpers/service.js';
import { startService } from '../../helpers/service.js';
import { SITES_DIR, fixtureSlugs, startFixtureSites } from './fixture-sites.js';
import type { BadInputCase } from './helpers.js';
import { Gate } from '../../helpers/gate.js';
import { badUrlCases, commonBadBodies, usageOf } from './helpers.js';

interface Expected {
  value: number;
  grade: string;
  points: Record<string, number>;
}

describe('POST /v1/score', () => {
  let sites: Awaited<ReturnType<typeof startFixtureSites>>;
  let slow: Site;
  let svc: TestService;
  const gate = new Gate();

  beforeAll(async () => {
    sites = await startFixtureSites();
    slow = await startSite(async (req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      await gate.pass();
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><p>slow</p></body></html>');
    });
    svc = await startService();
  });
  afterAll(async () => {
    gate.release();
    await svc.close();
    await sites.close();
    await slow.close();
  });

  const slugs = fixtureSlugs();
  it('has at least ten fixture sites', () => {
    expect(slugs.length).toBeGreaterThanOrEqual(10);
  });

  it.each(slugs)('%s scores as hand-computed in its expected.json', async (slug) => {
    const expected = JSON.parse(readFileSync(join(SITES_DIR, slug, 'expected.json'), 'utf8')) as Expected;
    const { apiKey } = await svc.newAccount('free');
    const res = await svc.call('/v1/score', { key: apiKey, body: { url: sites.urlOf(slug) } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.url).toBe(sites.urlOf(slug));
    const checks = res.json.score.checks as Array<{
      id: string;
      points: number;
      max_points: number;
      passed: boolean;
      label: string;
      detail: string;
    }>;
    const points = Object.fromEntries(checks.map((c) => [c.id, c.points]));
    expect(points).toEqual(expected.points);
    expect(res.json.score.value).toBe(expected.value);
    expect(res.json.score.grade).toBe(expected.grade);
    for (const c of checks) {
      expect(c.passed).toBe(c.points === c.max_points);
      expect(c.label.length).toBeGreaterThan(0);
      expect(c.detail.length).toBeGreaterThan(0);
    }
    expect(checks.reduce((s, c) => s + c.max_points, 0)).toBe(100);
  });

  it('the SPA shell scores low and the well-formed docs site high', async () => {
    const { apiKey } = await svc.newAccount('free');
    const spa = await svc.call('/v1/score', { key: apiKey, body: { url: sites.urlOf('spa-shell') } });
    const docs = await svc.call('/v1/score', { key: apiKey, body: { url: sites.urlOf('docs-site') } });
    expect(spa.json.score.value).toBeLessThan(30);
    expect(docs.json.score.value).toBeGreaterThanOrEqual(90);
    expect(spa.json.score.checks.find((c: any) => c.id === 'server_rendered_content').detail).toContain('JavaScript shell');
  });

  it('costs 0 credits, is never cached, and sends the billing headers', async () => {
    const { apiKey, accountId } = await svc.newAccount('free');
    const a = await svc.call('/v1/score', { key: apiKey, body: { url: sites.urlOf('docs-site') } });
    const b = await svc.call('/v1/score', { key: apiKey, body: { url: sites.urlOf('docs-site') } });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.headers['x-service-cache']).toBeUndefined();
    expect(b.headers['x-ratelimit-remaining']).toBe('1000');
    expect(b.headers['x-concurrent-remaining']).toBe('1');
    expect(await usageOf(svc, accountId)).toEqual({ planUsed: 0, boughtBalance: 0 });
    expect(await svc.stores.ledger.listEntries(accountId)).toEqual([]);
  });

  it('holds a concurrency slot although free: two gated scores fill a Free account', async () => {
    const { apiKey, accountId } = await svc.newAccount('free');
    gate.close();
    const held = [1, 2].map((i) => svc.call('/v1/score', { key: apiKey, body: { url: `${slow.origin}/page/${i}` } }));
    await gate.waitFor(2);
    const refused = await svc.call('/v1/score', { key: apiKey, body: { url: sites.urlOf('docs-site') } });
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ code: 'CONCURRENT_LIMIT', in_flight: 2, limit: 2, retry_after: 1 });
    expect((await svc.call('/v1/usage', { key: apiKey })).json.concurrency).toEqual({ limit: 2, in_flight: 2 });
    gate.release();
    expect((await Promise.all(held)).map((r) => r.status)).toEqual([200, 200]);
    expect(await svc.stores.slots.inFlight(accountId, svc.clock.now)).toBe(0);
    expect(await usageOf(svc, accountId)).toEqual({ planUsed: 0, boughtBalance: 0 });
  });

  it('page errors are answered like read (and nothing is charged)', async () => {
    const { apiKey, accountId } = await svc.newAccount('free');
    const res = await svc.call('/v1/score', { key: apiKey, body: { url: sites.urlOf('docs-site', '/nope') } });
    expect(res.status).toBe(404);
    expect(res.json.code).toBe('URL_NOT_FOUND');
    const dns = await svc.call('/v1/score', { key: apiKey, body: { url: 'http://nowhere.invalid-tld-for-tests.example/' } });
    expect(dns.status).toBe(404);
    expect(await usageOf(svc, accountId)).toEqual({ planUsed: 0, boughtBalance: 0 });
  });

  describe('bad input → 4xx, never 500', () => {
    const cases: BadInputCase[] = [
      ...commonBadBodies(),
      ...badUrlCases(),
      { name: 'url is an array', opts: (k) => ({ key: k, body: { url: ['https://example.com/'] } }), status: 400, code: 'BAD_REQUEST' },
      { name: 'GET instead of POST', opts: (k) => ({ method: 'GET', key: k }), status: 405, code: 'METHOD_NOT_ALLOWED' },
    ];
    it.each(cases)('$name → $status $code', async ({ opts, status, code }) => {
      const { apiKey } = await svc.newAccount('free');
      const res = await svc.call('/v1/score', opts(apiKey));
      expect(res.status).toBe(status);
      expect(res.json).toMatchObject({ status: 'error', code });
    });
  });
});
