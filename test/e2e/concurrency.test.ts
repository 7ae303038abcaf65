import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLOT_TTL_MS } from '../../src/billing/billed-call.js';
import { utcPeriod } from '../../src/billing/period.js';
import { openSqliteStores } from '../../src/store/sqlite/index.js';
import type { Site } from '../helpers/site.js';
import { startSite } from '../helpers/site.js';
import type { TestService } from '../helpers/service.js';
import { startService } from '../helpers/service.js';
import { Gate } from '../helpers/gate.js';

describe('concurrency slots and exact counters under load', () => {
  let site: Site;
  let svc: TestService;
  let inFlight = 0;
  let maxInFlight = 0;
  const gate = new Gate();

  beforeAll(async () => {
    site = await startSite(async (req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        if (req.url?.startsWith('/gate')) {
          await gate.pass();
        } else {
          await sleep(5 + Math.floor(Math.random() * 10));
        }
        if (req.url?.includes('fail=1')) res.writeHead(404).end();
        else res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><p>page ${req.url}</p></body></html>`);
      } finally {
        inFlight--;
      }
    });
    svc = await startService();
  });
  afterAll(async () => {
    gate.releaseHeld();
    await svc.close();
    await site.close();
  });

  it('answers CONCURRENT_LIMIT with in_flight, limit, retry_after 1 and Retry-After when slots are full', async () => {
    const { apiKey } = await svc.newAccount('free'); // 2 slots
    const held = [0, 1].map((i) => svc.call('/v1/read', { key: apiKey, body: { url: `${site.origin}/gate?i=${i}` } }));
    await gate.waitFor(2);
    const refused = await svc.call('/v1/read', { key: apiKey, body: { url: `${site.origin}/x.html` } });
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ code: 'CONCURRENT_LIMIT', in_flight: 2, limit: 2, retry_after: 1 });
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers['x-concurrent-remaining']).toBe('0');
    const usageWhileBusy = await svc.call('/v1/usage', { key: apiKey });
    expect(usageWhileBusy.status).toBe(200); // usage takes no slot
    expect(usageWhileBusy.json.concurrency).toEqual({ limit: 2, in_flight: 2 });
    gate.releaseHeld();
    const done = await Promise.all(held);
    expect(done.map((r) => r.status)).toEqual([200, 200]);
    expect(done.map((r) => r.headers['x-concurrent-remaining']).sort()).toEqual(['0', '1']);
    const usage = await svc.call('/v1/usage', { key: apiKey });
    expect(usage.json.concurrency.in_flight).toBe(0);
    expect(usage.json.plan_credits.used).toBe(2); // the refused call cost nothing
  });

  it('200 parallel calls with random target failures: counters and ledger agree exactly, limit never exceeded', async () => {
    const { apiKey, accountId } = await svc.newAccount('starter'); // 5 slots
    maxInFlight = 0;
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const fail = Math.random() < 0.3 ? 1 : 0;
        const url = `${site.origin}/p?i=${i}&fail=${fail}`;
        for (let attempt = 0; attempt < 400; attempt++) {
          const res = await svc.call('/v1/read', { key: apiKey, body: { url } });
          if (res.status === 429 && res.json.code === 'CONCURRENT_LIMIT') {
            await sleep(2 + Math.random() * 10);
            continue;
          }
          return { status: res.status, fail };
        }
        return { status: -1, fail };
      }),
    );
    const ok = outcomes.filter((o) => o.status === 200).length;
    const notFound = outcomes.filter((o) => o.status === 404).length;
    expect(ok + notFound).toBe(200);
    expect(notFound).toBe(outcomes.filter((o) => o.fail === 1).length);
    expect(maxInFlight).toBeLessThanOrEqual(5);
    expect(maxInFlight).toBeGreaterThan(1);
    const usage = await svc.stores.ledger.getUsage(accountId, utcPeriod(svc.clock.now));
    expect(usage.planUsed).toBe(ok);
    const entries = await svc.stores.ledger.listEntries(accountId);
    const charges = entries.filter((e) => e.kind === 'charge');
    const refunds = entries.filter((e) => e.kind === 'refund');
    expect(charges).toHaveLength(200);
    expect(refunds).toHaveLength(notFound);
    expect(new Set(refunds.map((r) => r.chargeId)).size).toBe(notFound); // each refunded once
    expect(charges.reduce((s, e) => s + e.amount, 0) - refunds.reduce((s, e) => s + e.amount, 0)).toBe(ok);
    expect(await svc.stores.slots.inFlight(accountId, svc.clock.now)).toBe(0);
  });
});

describe('slot safety expiry', () => {
  it('a slot taken by a killed process frees itself within 30 s', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pith-slot-'));
    try {
      const script = `
        import { openSqliteStores } from ${JSON.stringify(new URL('../../src/store/sqlite/index.ts', import.meta.url).pathname)};
        const stores = openSqliteStores(process.argv[1]);
        const r = await stores.slots.acquire({ accountId: 'acct_k', slotId: 'slot_child', limit: 1, nowMs: Number(process.argv[2]), ttlMs: ${SLOT_TTL_MS} });
        process.stdout.write(JSON.stringify(r) + '\\n');
        setInterval(() => {}, 1000);
      `;
      const takenAt = Date.now();
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, dir, String(takenAt)], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const line = await new Promise<string>((resolve, reject) => {
        child.stdout.once('data', (d: Buffer) => resolve(d.toString()));
        child.once('exit', (code) => reject(new Error(`child exited ${code}`)));
      });
      expect(JSON.parse(line)).toEqual({ acquired: true, inFlight: 1 });
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));

      const stores = openSqliteStores(dir);
      try {
        // the dead process still holds the slot until its expiry…
        expect(await stores.slots.inFlight('acct_k', takenAt + 1000)).toBe(1);
        const early = await stores.slots.acquire({
          accountId: 'acct_k',
          slotId: 's2',
          limit: 1,
          nowMs: takenAt + SLOT_TTL_MS - 1,
          ttlMs: SLOT_TTL_MS,
        });
        expect(early.acquired).toBe(false);
        // …and not a moment longer
        const later = await stores.slots.acquire({
          accountId: 'acct_k',
          slotId: 's3',
          limit: 1,
          nowMs: takenAt + SLOT_TTL_MS,
          ttlMs: SLOT_TTL_MS,
        });
        expect(later).toEqual({ acquired: true, inFlight: 1 });
      } finally {
        await stores.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
