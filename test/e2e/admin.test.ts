import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers/service.js';
import { ADMIN_TOKEN, startService } from '../helpers/service.js';

describe('admin API', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(async () => svc.close());

  it('refuses without the admin token', async () => {
    const none = await svc.call('/admin/v1/accounts', { body: { plan: 'free' } });
    expect(none.status).toBe(401);
    const wrong = await svc.call('/admin/v1/accounts', { key: 'nope', body: { plan: 'free' } });
    expect(wrong.status).toBe(401);
    expect(wrong.json.code).toBe('UNAUTHORIZED');
  });

  it('creates an account whose key works at once, shown only once', async () => {
    const created = await svc.call('/admin/v1/accounts', { key: ADMIN_TOKEN, body: { plan: 'growth', name: 'Acme' } });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ status: 'success', plan: 'growth' });
    expect(created.json.api_key).toMatch(/^pk_[A-Za-z0-9_-]{43}$/);
    const usage = await svc.call('/v1/usage', { key: created.json.api_key });
    expect(usage.status).toBe(200);
    expect(usage.json).toMatchObject({ account_id: created.json.account_id, plan: 'growth', concurrency: { limit: 20, in_flight: 0 } });
    const shown = await svc.call(`/admin/v1/accounts/${created.json.account_id}`, { key: ADMIN_TOKEN });
    expect(shown.status).toBe(200);
    expect(shown.text).not.toContain(created.json.api_key);
    expect(shown.json.keys).toHaveLength(1);
    expect(shown.json.keys[0].prefix).toBe(created.json.api_key.slice(0, 9));
  });

  it('changes plans, adds packs, revokes keys', async () => {
    const created = await svc.call('/admin/v1/accounts', { key: ADMIN_TOKEN, body: { plan: 'free' } });
    const id = created.json.account_id as string;
    const refused = await svc.call(`/admin/v1/accounts/${id}/credit-packs`, { key: ADMIN_TOKEN, body: { pack: 'M' } });
    expect(refused.status).toBe(409);
    const patched = await svc.call(`/admin/v1/accounts/${id}`, { method: 'PATCH', key: ADMIN_TOKEN, body: { plan: 'starter' } });
    expect(patched.status).toBe(200);
    expect(patched.json.plan).toBe('starter');
    for (const [pack, balance] of [
      ['S', 500],
      ['M', 2700],
      ['L', 8700],
      ['XL', 36700],
    ] as const) {
      const added = await svc.call(`/admin/v1/accounts/${id}/credit-packs`, { key: ADMIN_TOKEN, body: { pack } });
      expect(added.json).toEqual({ status: 'success', bought_credits: { balance } });
    }
    const bad = await svc.call(`/admin/v1/accounts/${id}/credit-packs`, { key: ADMIN_TOKEN, body: { pack: 'XXL' } });
    expect(bad.status).toBe(400);
    const key2 = await svc.call(`/admin/v1/accounts/${id}/keys`, { key: ADMIN_TOKEN, body: { name: 'ci' } });
    expect(key2.status).toBe(201);
    expect((await svc.call('/v1/usage', { key: key2.json.api_key })).status).toBe(200);
    const del = await svc.call(`/admin/v1/accounts/${id}/keys/${key2.json.key_id}`, { method: 'DELETE', key: ADMIN_TOKEN });
    expect(del.status).toBe(204);
    expect((await svc.call('/v1/usage', { key: key2.json.api_key })).status).toBe(401);
    expect((await svc.call('/v1/usage', { key: created.json.api_key })).status).toBe(200); // the other key still works
    const again = await svc.call(`/admin/v1/accounts/${id}/keys/${key2.json.key_id}`, { method: 'DELETE', key: ADMIN_TOKEN });
    expect(again.status).toBe(404);
  });

  it('answers NOT_FOUND for unknown accounts and BAD_REQUEST for bad plans', async () => {
    expect((await svc.call('/admin/v1/accounts/acct_missing', { key: ADMIN_TOKEN })).json.code).toBe('NOT_FOUND');
    const bad = await svc.call('/admin/v1/accounts', { key: ADMIN_TOKEN, body: { plan: 'platinum' } });
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe('BAD_REQUEST');
  });

  it('is absent when ADMIN_TOKEN is unset', async () => {
    const bare = await startService({ env: { ADMIN_TOKEN: '' } });
    try {
      const res = await bare.call('/admin/v1/accounts', { key: ADMIN_TOKEN, body: { plan: 'free' } });
      expect(res.status).toBe(404);
      expect(res.json.code).toBe('NOT_FOUND');
    } finally {
      await bare.close();
    }
  });

  it('serves health, readiness and the OpenAPI document without a key', async () => {
    expect((await svc.call('/healthz')).json).toEqual({ status: 'success', healthy: true });
    expect((await svc.call('/readyz')).json).toEqual({ status: 'success', ready: true });
    const doc = await svc.call('/openapi.json');
    expect(doc.json.openapi).toBe('3.1.0');
  });

  it('credit packs are idempotent per payment_id; a downgrade to Free with bought credits is refused; the ledger verifies', async () => {
    const created = await svc.call('/admin/v1/accounts', { key: ADMIN_TOKEN, body: { plan: 'growth' } });
    const id = created.json.account_id as string;
    const pay = (payment_id: string) =>
      svc.call(`/admin/v1/accounts/${id}/credit-packs`, { key: ADMIN_TOKEN, body: { pack: 'M', payment_id } });
    const first = await pay('pi_webhook_1');
    expect(first.json).toEqual({ status: 'success', bought_credits: { balance: 2200 } });
    const retried = await Promise.all([pay('pi_webhook_1'), pay('pi_webhook_1')]);
    for (const r of retried) expect(r.json).toEqual({ status: 'success', bought_credits: { balance: 2200 }, duplicate: true });
    expect((await pay('pi_webhook_2')).json.bought_credits.balance).toBe(4400);
    const down = await svc.call(`/admin/v1/accounts/${id}`, { method: 'PATCH', key: ADMIN_TOKEN, body: { plan: 'free' } });
    expect(down.status).toBe(409);
    expect(down.json).toMatchObject({ code: 'PLAN_NOT_ELIGIBLE', message: expect.stringContaining('4400 bought credits') });
    const verify = await svc.call('/admin/v1/ledger/verify', { key: ADMIN_TOKEN });
    expect(verify.status).toBe(200);
    expect(verify.json).toMatchObject({ status: 'success', ok: true, differences: [] });
    expect(verify.json.accounts_checked).toBeGreaterThanOrEqual(1);
  });
});
