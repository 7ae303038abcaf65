import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utcPeriod } from '../../src/billing/period.js';
import type { Site } from '../helpers/site.js';
import { startSite } from '../helpers/site.js';
import type { TestService } from '../helpers/service.js';
import { startService } from '../helpers/service.js';
import { seedPlanUsage } from '../helpers/seed.js';

const PAGE =
  '<html lang="en"><head><title>Quota page</title></head><body><article><p>Some content that is long enough to read as an article body for the quota tests.</p></article></body></html>';

describe('billing: plans, packs, quota, month rollover', () => {
  let site: Site;
  let svc: TestService;

  beforeAll(async () => {
    site = await startSite((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      if (req.url?.startsWith('/missing')) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    });
    svc = await startService();
  });
  afterAll(async () => {
    await svc.close();
    await site.close();
  });

  it('Free: 1,000 calls, then RATE_LIMITED with retry_after at the next UTC month', async () => {
    const { apiKey, accountId } = await svc.newAccount('free');
    const url = `${site.origin}/free.html`;
    for (let i = 0; i < 1000; i++) {
      const res = await svc.call('/v1/read', { key: apiKey, body: { url } });
      if (res.status !== 200) throw new Error(`call ${i + 1} failed: ${res.text}`);
      if (i === 999) expect(res.headers['x-ratelimit-remaining']).toBe('0');
    }
    const limited = await svc.call('/v1/read', { key: apiKey, body: { url } });
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ code: 'RATE_LIMITED', retry_after: '2026-12-01T00:00:00.000Z' });
    expect(Number(limited.headers['retry-after'])).toBe((Date.UTC(2026, 11, 1) - svc.clock.now) / 1000);
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    expect(limited.headers['x-service-billed']).toBeUndefined();
    const usage = await svc.stores.ledger.getUsage(accountId, utcPeriod(svc.clock.now));
    expect(usage).toEqual({ planUsed: 1000, boughtBalance: 0 });
    // a Free account never buys packs
    const pack = await svc.call(`/admin/v1/accounts/${accountId}/credit-packs`, {
      key: 'test-admin-token-0123456789abcdef0123456789',
      body: { pack: 'S' },
    });
    expect(pack.status).toBe(409);
    expect(pack.json.code).toBe('PLAN_NOT_ELIGIBLE');
  });

  it('Starter with pack S: plan credits, then bought credits falling, then PAYMENT_REQUIRED', async () => {
    const { apiKey, accountId } = await svc.newAccount('starter');
    await seedPlanUsage(svc, accountId, 'starter', 9998); // all but 2 plan credits
    expect(await svc.addPack(accountId, 'S')).toBe(500);
    const url = `${site.origin}/starter.html`;
    for (const remaining of ['1', '0']) {
      const res = await svc.call('/v1/read', { key: apiKey, body: { url } });
      expect(res.headers['x-service-billed']).toBe('plan');
      expect(res.headers['x-ratelimit-remaining']).toBe(remaining);
      expect(res.headers['x-credits-remaining']).toBeUndefined();
    }
    let last = 500;
    for (let i = 0; i < 499; i++) {
      const res = await svc.call('/v1/read', { key: apiKey, body: { url } });
      expect(res.status).toBe(200);
      expect(res.headers['x-service-billed']).toBe('credit');
      expect(res.headers['x-ratelimit-remaining']).toBe('0');
      const credits = Number(res.headers['x-credits-remaining']);
      expect(credits).toBe(last - 1);
      last = credits;
    }
    // a failed read on bought credits is refunded to bought credits
    const failed = await svc.call('/v1/read', { key: apiKey, body: { url: `${site.origin}/missing` } });
    expect(failed.status).toBe(404);
    expect(failed.headers['x-credits-remaining']).toBeUndefined();
    const lastCredit = await svc.call('/v1/read', { key: apiKey, body: { url } });
    expect(lastCredit.headers['x-credits-remaining']).toBe('0');
    const broke = await svc.call('/v1/read', { key: apiKey, body: { url } });
    expect(broke.status).toBe(402);
    expect(broke.json.code).toBe('PAYMENT_REQUIRED');
    expect(broke.headers['x-ratelimit-remaining']).toBe('0');
    const usage = await svc.call('/v1/usage', { key: apiKey });
    expect(usage.json.plan_credits).toEqual({ limit: 10000, used: 10000, remaining: 0 });
    expect(usage.json.bought_credits).toEqual({ balance: 0 });
  });

  it('Enterprise is unlimited: no X-RateLimit-Remaining, usage limit null', async () => {
    const { apiKey } = await svc.newAccount('enterprise');
    const res = await svc.call('/v1/read', { key: apiKey, body: { url: `${site.origin}/ent.html` } });
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-remaining']).toBeUndefined();
    expect(res.headers['x-service-billed']).toBe('plan');
    expect(res.headers['x-concurrent-remaining']).toBe('99');
    const usage = await svc.call('/v1/usage', { key: apiKey });
    expect(usage.json.plan_credits).toEqual({ limit: null, used: 1, remaining: null });
    expect(usage.json.concurrency).toEqual({ limit: 100, in_flight: 0 });
  });

  it('month counters reset at 00:00 UTC on the 1st (injected clock)', async () => {
    const saved = svc.clock.now;
    try {
      svc.clock.now = Date.UTC(2026, 10, 30, 23, 59, 59, 999);
      const { apiKey } = await svc.newAccount('free');
      const url = `${site.origin}/rollover.html`;
      const before = await svc.call('/v1/read', { key: apiKey, body: { url } });
      expect(before.headers['x-ratelimit-remaining']).toBe('999');
      expect(before.headers['x-ratelimit-reset']).toBe('2026-12-01T00:00:00.000Z');
      svc.clock.now = Date.UTC(2026, 11, 1, 0, 0, 0, 0);
      const after = await svc.call('/v1/read', { key: apiKey, body: { url } });
      expect(after.headers['x-ratelimit-remaining']).toBe('999');
      expect(after.headers['x-ratelimit-reset']).toBe('2027-01-01T00:00:00.000Z');
      const usage = await svc.call('/v1/usage', { key: apiKey });
      expect(usage.json.period).toEqual({ start: '2026-12-01T00:00:00.000Z', end: '2027-01-01T00:00:00.000Z' });
      expect(usage.json.plan_credits.used).toBe(1);
    } finally {
      svc.clock.now = saved;
    }
  });

  it('quota and concurrency are per account, shared by all its keys', async () => {
    const { apiKey, accountId } = await svc.newAccount('starter');
    const second = await svc.call(`/admin/v1/accounts/${accountId}/keys`, { key: 'test-admin-token-0123456789abcdef0123456789', body: {} });
    expect(second.status).toBe(201);
    await svc.call('/v1/read', { key: apiKey, body: { url: `${site.origin}/k1.html` } });
    const res = await svc.call('/v1/read', { key: second.json.api_key, body: { url: `${site.origin}/k2.html` } });
    expect(res.headers['x-ratelimit-remaining']).toBe('9998');
  });
});
