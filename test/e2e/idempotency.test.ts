/**
 * Issue 16: Idempotency-Key on billable POSTs. Parallel duplicates charge once; a retry
 * after a lost reply gets the first answer without a second charge; the key with another
 * body is 409; keys expire after 24 h on the injected clock; refusals that ran nothing are
 * not kept.
 */
import type { Socket } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utcPeriod } from '../../src/billing/period.js';
import type { TestService } from '../helpers/service.js';
import { startService } from '../helpers/service.js';
import type { Site } from '../helpers/site.js';
import { startSite } from '../helpers/site.js';
import { Gate } from '../helpers/gate.js';
import { seedPlanUsage } from '../helpers/seed.js';

const PAGE = (n: number) =>
  `<!doctype html><html lang="en"><head><title>Tide table ${n}</title></head><body><main><article><h1>Tide table ${n}</h1>
<p>High water is at six in the morning and again at half past six in the evening, every day this week.</p></article></main></body></html>`;

describe('Idempotency-Key', () => {
  let site: Site;
  let svc: TestService;
  let served = 0;
  const gate = new Gate();

  beforeAll(async () => {
    site = await startSite(async (req, res) => {
      if (req.url === '/robots.txt' || req.url === '/missing') return void res.writeHead(404).end();
      if (req.url?.startsWith('/slow')) await gate.pass();
      served++;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE(served));
    });
    svc = await startService();
  });
  afterAll(async () => {
    gate.releaseHeld();
    await svc.close();
    await site.close();
  });

  const planUsed = async (accountId: string) => (await svc.stores.ledger.getUsage(accountId, utcPeriod(svc.clock.now))).planUsed;
  const read = (apiKey: string, key: string, url: string, extra: Record<string, unknown> = {}) =>
    svc.call('/v1/read', { key: apiKey, headers: { 'idempotency-key': key }, body: { url, fresh: true, ...extra } });

  it('parallel duplicates with one key: one runs and is charged once, the others are 409 with retry_after; then all replay its answer', async () => {
    const { apiKey, accountId } = await svc.newAccount('starter');
    const url = `${site.origin}/slow/dupes`;
    const all = Array.from({ length: 5 }, () => read(apiKey, 'dupes-1', url));
    await gate.waitFor(1);
    const early = await Promise.race([Promise.all(all.slice(1)), new Promise((r) => setTimeout(r, 2000, null))]);
    gate.releaseHeld();
    const answers = await Promise.all(all);
    const ok = answers.filter((a) => a.status === 200);
    const conflicts = answers.filter((a) => a.status === 409);
    expect(early).not.toBeNull(); // the duplicates did not wait for the first
    expect(ok).toHaveLength(1);
    expect(conflicts).toHaveLength(4);
    for (const c of conflicts) expect(c.json).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT', retry_after: 1 });
    expect(await planUsed(accountId)).toBe(1);
    const again = await read(apiKey, 'dupes-1', url);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(ok[0]?.text);
    expect(again.headers['x-service-billed']).toBe('plan');
    expect(await planUsed(accountId)).toBe(1);
  });

  it('a retry after the reply was lost gets the first answer, charged once', async () => {
    const { apiKey, accountId } = await svc.newAccount('starter');
    const url = `${site.origin}/slow/lost`;
    // the first call's client goes away once the work is under way: its reply is lost
    const body = JSON.stringify({ url, fresh: true });
    const socket: Socket = connect(Number(new URL(svc.baseUrl).port), '127.0.0.1');
    socket.write(
      `POST /v1/read HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${apiKey}\r\nIdempotency-Key: lost-1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await gate.waitFor(1);
    // the answer is ready and delivered into a connection nobody reads any more
    socket.pause();
    gate.releaseHeld();
    let firstAnswer = '';
    socket.on('data', (d: Buffer) => {
      firstAnswer += d.toString();
    });
    socket.resume();
    while (!firstAnswer.includes('"status":"success"')) await new Promise((r) => setTimeout(r, 5));
    socket.destroy();
    const retry = await read(apiKey, 'lost-1', url);
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(firstAnswer).toContain(retry.text);
    expect(await planUsed(accountId)).toBe(1);
    const entries = await svc.stores.ledger.listEntries(accountId);
    expect(entries.filter((e) => e.kind === 'charge')).toHaveLength(1);
  });

  it('the key with another body, route or answer format is 409 and charges nothing', async () => {
    const { apiKey, accountId } = await svc.newAccount('starter');
    expect((await read(apiKey, 'reuse-1', `${site.origin}/a`)).status).toBe(200);
    const otherBody = await read(apiKey, 'reuse-1', `${site.origin}/b`);
    expect(otherBody.status).toBe(409);
    expect(otherBody.json).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT', message: expect.stringContaining('another request') });
    const otherRoute = await svc.call('/v1/read-and-score', {
      key: apiKey,
      headers: { 'idempotency-key': 'reuse-1' },
      body: { url: `${site.origin}/a`, fresh: true },
    });
    expect(otherRoute.status).toBe(409);
    const markdown = await svc.call('/v1/read', {
      key: apiKey,
      headers: { 'idempotency-key': 'reuse-1', accept: 'text/markdown' },
      body: { url: `${site.origin}/a`, fresh: true },
    });
    expect(markdown.status).toBe(409);
    // the same body with its keys in another order is the same request
    const reordered = await svc.call('/v1/read', {
      key: apiKey,
      headers: { 'idempotency-key': 'reuse-1', 'content-type': 'application/json' },
      rawBody: JSON.stringify({ fresh: true, url: `${site.origin}/a` }),
    });
    expect(reordered.status).toBe(200);
    expect(reordered.headers['idempotent-replayed']).toBe('true');
    expect(await planUsed(accountId)).toBe(1);
  });

  it('a key is kept 24 h (injected clock), then runs anew', async () => {
    const { apiKey, accountId } = await svc.newAccount('starter');
    const url = `${site.origin}/day`;
    const first = await read(apiKey, 'day-1', url);
    svc.clock.now += 24 * 3600_000 - 1;
    const within = await read(apiKey, 'day-1', url);
    expect(within.headers['idempotent-replayed']).toBe('true');
    expect(within.text).toBe(first.text);
    svc.clock.now += 1;
    const after = await read(apiKey, 'day-1', url);
    expect(after.status).toBe(200);
    expect(after.headers['idempotent-replayed']).toBeUndefined();
    expect(after.json.metadata.title).not.toBe(first.json.metadata.title); // fetched again (fresh)
    const charges = (await svc.stores.ledger.listEntries(accountId)).filter((e) => e.kind === 'charge');
    expect(charges).toHaveLength(2);
  });

  it("an error after the charge is the key's answer (refunded once); a refusal that ran nothing is not kept", async () => {
    const { apiKey, accountId } = await svc.newAccount('free');
    const missing = await read(apiKey, 'err-1', `${site.origin}/missing`);
    expect(missing.status).toBe(404);
    const replay = await read(apiKey, 'err-1', `${site.origin}/missing`);
    expect(replay.status).toBe(404);
    expect(replay.text).toBe(missing.text);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await planUsed(accountId)).toBe(0);
    // quota used up: RATE_LIMITED is not kept, the same key runs once credits are back
    const seeded = await seedPlanUsage(svc, accountId, 'free', 1000);
    const limited = await read(apiKey, 'quota-1', `${site.origin}/q`);
    expect(limited.status).toBe(429);
    await svc.stores.ledger.settle({ chargeId: seeded, keep: 0, now: svc.clock.now });
    const later = await read(apiKey, 'quota-1', `${site.origin}/q`);
    expect(later.status).toBe(200);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
  });

  it('a malformed key is BAD_REQUEST', async () => {
    const { apiKey } = await svc.newAccount('starter');
    const res = await read(apiKey, 'x'.repeat(256), `${site.origin}/a`);
    expect(res.status).toBe(400);
    expect(res.json.message).toContain('Idempotency-Key');
  });
});
