import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../helpers/service.js';
import { startService } from '../../helpers/service.js';
import type { FixtureSite } from './fixtures.js';
import { startFixtureSite } from './fixtures.js';

/** The value of one sample line, e.g. `pith_requests_total{op="read",code="OK"}`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[3]);
  }
  return null;
}

describe('GET /metrics (Prometheus)', () => {
  let svc: TestService;
  let site: FixtureSite;
  beforeAll(async () => {
    site = await startFixtureSite();
    svc = await startService();
  });
  afterAll(async () => {
    await site.close();
    await svc.close();
  });

  it('counts requests by op and code, latency, cache hit ratio, fetch errors, slots and credits', async () => {
    const { apiKey } = await svc.newAccount('free');
    const url = `${site.origin}/article.html`;
    expect((await svc.call('/v1/read', { key: apiKey, body: { url } })).status).toBe(200);
    expect((await svc.call('/v1/read', { key: apiKey, body: { url } })).headers['x-service-cache']).toBe('HIT');
    expect((await svc.call('/v1/read', { key: apiKey, body: { url: `${site.origin}/missing` } })).status).toBe(404);

    // two reads hold both Free slots while we scrape
    const held = [1, 2].map((i) => svc.call('/v1/read', { key: apiKey, body: { url: `${site.origin}/slow?m=${i}` } }));
    await site.gate.waitFor(2);
    const busy = await svc.call('/metrics');
    expect(busy.status).toBe(200);
    expect(busy.headers['content-type']).toContain('text/plain');
    expect(sample(busy.text, 'pith_slots_in_use')).toBe(2);
    site.openGates();
    await Promise.all(held);

    const res = await svc.call('/metrics');
    const text = res.text;
    expect(sample(text, 'pith_requests_total', { op: 'read', code: 'OK' })).toBe(4);
    expect(sample(text, 'pith_requests_total', { op: 'read', code: 'URL_NOT_FOUND' })).toBe(1);
    expect(sample(text, 'pith_request_duration_seconds_count', { op: 'read' })).toBe(5);
    expect(sample(text, 'pith_cache_lookups_total', { op: 'read', result: 'hit' })).toBe(1);
    expect(sample(text, 'pith_cache_lookups_total', { op: 'read', result: 'miss' })).toBe(3);
    expect(sample(text, 'pith_cache_hit_ratio')).toBe(0.25);
    expect(sample(text, 'pith_fetch_errors_total', { op: 'read', code: 'URL_NOT_FOUND' })).toBe(1);
    expect(sample(text, 'pith_slots_in_use')).toBe(0);
    expect(sample(text, 'pith_credits_charged_total', { op: 'read', source: 'plan' })).toBe(5);
    expect(sample(text, 'pith_credits_refunded_total', { op: 'read', source: 'plan' })).toBe(1);
    expect(text).not.toContain(apiKey);
  });

  it('counts CONCURRENT_LIMIT refusals', async () => {
    const { apiKey } = await svc.newAccount('free');
    const held = [1, 2].map((i) => svc.call('/v1/read', { key: apiKey, body: { url: `${site.origin}/slow?r=${i}` } }));
    await site.gate.waitFor(2);
    const refused = await svc.call('/v1/read', { key: apiKey, body: { url: `${site.origin}/article.html` } });
    expect(refused.status).toBe(429);
    site.openGates();
    await Promise.all(held);
    const text = (await svc.call('/metrics')).text;
    expect(sample(text, 'pith_slot_refusals_total', { op: 'read' })).toBe(1);
    expect(sample(text, 'pith_requests_total', { op: 'read', code: 'CONCURRENT_LIMIT' })).toBe(1);
  });
});

describe('GET /metrics with METRICS_TOKEN set', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService({ env: { METRICS_TOKEN: 'scrape-secret-0123456789abcdefghijklmnop' } });
  });
  afterAll(async () => {
    await svc.close();
  });

  it('answers only the scraper that sends the token', async () => {
    const none = await svc.call('/metrics');
    expect(none.status).toBe(401);
    expect(none.json).toMatchObject({ status: 'error', code: 'UNAUTHORIZED' });
    const wrong = await svc.call('/metrics', { headers: { authorization: 'Bearer scrape-secret-0123456789abcdefghijklmnoq' } });
    expect(wrong.status).toBe(401);
    const right = await svc.call('/metrics', { headers: { authorization: 'Bearer scrape-secret-0123456789abcdefghijklmnop' } });
    expect(right.status).toBe(200);
    expect(right.text).toContain('pith_requests_total');
  });

  it('does not put the token in front of anything else', async () => {
    expect((await svc.call('/healthz')).status).toBe(200);
    const { apiKey } = await svc.newAccount('free');
    expect((await svc.call('/v1/usage', { key: apiKey })).status).toBe(200);
  });
});
