/**
 * Issue 8: three `pith serve` processes on PostgreSQL + Redis share one account pool.
 * The target (a loopback site) counts what really happens: requests in flight at once and
 * pages fetched. No timing assertions; the only wait is for real slot expiry after SIGKILL.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/billing/accounts.js';
import { utcPeriod } from '../../src/billing/period.js';
import { OPEN_CHARGE_TIMEOUT_MS, sweepOnce } from '../../src/billing/sweeper.js';
import { openStores } from '../../src/store/open.js';
import type { Stores } from '../../src/store/types.js';
import type { Site } from '../helpers/site.js';
import { startSite } from '../helpers/site.js';
import { DATABASE_URL, REDIS_URL, deletePrefix, dropSchema, requireServer, testPrefix, testSchema } from './backends.js';
import type { Instance } from './instances.js';
import { startInstance } from './instances.js';

const SUITE = 'multi-instance (PostgreSQL + Redis)';
const hasPg = requireServer('DATABASE_URL', DATABASE_URL, SUITE);
const hasRedis = hasPg && requireServer('REDIS_URL', REDIS_URL, SUITE);

interface Answer {
  status: number;
  code: string | null;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

async function read(base: string, apiKey: string, url: string): Promise<Answer> {
  const res = await request(`${base}/v1/read`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url }),
  });
  const body = (await res.body.json()) as Record<string, unknown>;
  return { status: res.statusCode, code: typeof body.code === 'string' ? body.code : null, headers: res.headers, body };
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!hasRedis)(SUITE, () => {
  const schema = testSchema();
  const prefix = testPrefix();
  const dataDir = mkdtempSync(join(tmpdir(), 'pith-multi-'));
  const target = { inFlight: 0, maxInFlight: 0, pages: 0, hanging: 0 };
  const held: ServerResponse[] = [];
  let site: Site;
  let stores: Stores;
  let instances: Instance[] = [];
  const admin = () => ({ stores, now: () => Date.now(), randomBytes });

  beforeAll(async () => {
    site = await startSite((req, res) => {
      target.inFlight++;
      target.maxInFlight = Math.max(target.maxInFlight, target.inFlight);
      res.on('close', () => target.inFlight--);
      const path = req.url ?? '/';
      if (path === '/robots.txt') {
        res.writeHead(404).end();
      } else if (path.startsWith('/hang/')) {
        target.hanging++;
        res.on('close', () => target.hanging--);
        held.push(res);
      } else {
        target.pages++;
        // Hold the response a moment so requests overlap at the target.
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end(`<!doctype html><html lang="en"><head><title>Page ${path}</title></head><body><main><h1>Page ${path}</h1>
            <p>${'Shared pools are one pool. '.repeat(20)}</p></main></body></html>`);
        }, 40);
      }
    });
    const u = (raw: string, name: string, value: string): string => {
      const url = new URL(raw);
      url.searchParams.set(name, value);
      return url.toString();
    };
    const databaseUrl = u(DATABASE_URL ?? '', 'schema', schema);
    const redisUrl = u(REDIS_URL ?? '', 'prefix', prefix);
    stores = await openStores({ dataDir, databaseUrl, redisUrl });
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      DATA_DIR: dataDir,
      ALLOW_PRIVATE_TARGETS: `127.0.0.1:${site.port}`,
      ENGINE_VERSION: `multi-instance-${schema}`,
    };
    instances = await Promise.all([0, 1, 2].map(() => startInstance(env)));
  }, 90_000);

  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop()));
    for (const res of held) res.destroy();
    await site?.close();
    await stores?.close();
    await dropSchema(DATABASE_URL ?? '', schema);
    await deletePrefix(REDIS_URL ?? '', prefix);
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('600 requests over three instances: never more than 5 in flight, exactly 300 billed to plan', async () => {
    expect(new Set(instances.map((i) => i.url)).size).toBe(3);
    const { account, apiKey } = await createAccount(admin(), { plan: 'starter' });
    const period = utcPeriod(Date.now());
    // Starter: concurrency 5, 10,000 credits a month; leave exactly 300 of them.
    const setup = await stores.ledger.charge({
      chargeId: `chg_setup_${schema}`,
      accountId: account.id,
      period,
      amount: 9_700,
      planLimit: 10_000,
      allowBought: true,
      operation: 'test-setup',
      now: Date.now(),
    });
    expect(setup).toMatchObject({ ok: true, planUsed: 9_700 });

    const finals: Answer[] = [];
    const limited: Answer[] = [];
    const busy: Answer[] = [];
    let next = 0;
    // 15 clients (5 per instance) for 600 logical requests; a CONCURRENT_LIMIT answer is
    // retried like a well-behaved client would, so every request ends in a final answer.
    const client = async (): Promise<void> => {
      for (let i = next++; i < 600; i = next++) {
        const base = instances[i % 3]?.url ?? '';
        for (let attempt = 0; ; attempt++) {
          const a = await read(base, apiKey, `${site.origin}/page/${i}`);
          if (a.code === 'CONCURRENT_LIMIT' && attempt < 2_000) {
            limited.push(a);
            await pause(2 + (i % 7));
            continue;
          }
          // an honest "busy" (the content workers were saturated on a loaded machine) is retried
          // too, as its Retry-After asks; it was refunded, so billing must still come out exact
          if (a.code === 'SERVICE_UNAVAILABLE' && attempt < 2_000) {
            busy.push(a);
            await pause(50);
            continue;
          }
          finals.push(a);
          break;
        }
      }
    };
    await Promise.all(Array.from({ length: 15 }, client));

    const count = (pred: (a: Answer) => boolean): number => finals.filter(pred).length;
    console.log(
      `[multi-instance] finals=${finals.length} ok=${count((a) => a.status === 200)} 402=${count((a) => a.status === 402)} ` +
        `concurrent_limit_retries=${limited.length} busy_retries=${busy.length} target_max_in_flight=${target.maxInFlight} target_pages=${target.pages}`,
    );
    const odd = finals.filter((a) => a.status !== 200 && !(a.status === 402 && a.code === 'PAYMENT_REQUIRED'));
    if (odd.length > 0) console.log('[multi-instance] odd finals', JSON.stringify(odd.map((a) => [a.status, a.body])));
    expect(finals).toHaveLength(600);
    expect(count((a) => a.status === 200)).toBe(300);
    expect(count((a) => a.status === 402 && a.code === 'PAYMENT_REQUIRED')).toBe(300);
    for (const a of finals.filter((x) => x.status === 200)) {
      expect(a.headers['x-service-billed']).toBe('plan');
      expect(a.headers['x-service-cache']).toBe('MISS');
    }
    for (const a of limited) {
      expect(a.status).toBe(429);
      expect(a.body).toMatchObject({ limit: 5, retry_after: 1 });
      expect(a.body.in_flight).toBeGreaterThanOrEqual(5);
      expect(a.headers['retry-after']).toBe('1');
    }
    for (const a of busy) {
      expect(a.status).toBe(503);
      expect(a.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    }
    // Counted at the target: the account never had more than 5 requests out at once, and
    // every page fetched was delivered, save those whose call was refused busy after fetching.
    expect(target.maxInFlight).toBeLessThanOrEqual(5);
    expect(target.pages).toBeGreaterThanOrEqual(300);
    expect(target.pages).toBeLessThanOrEqual(300 + busy.length);

    // Counters and ledger agree exactly, and no slot is left behind.
    expect(await stores.ledger.getUsage(account.id, period)).toEqual({ planUsed: 10_000, boughtBalance: 0 });
    const entries = (await stores.ledger.listEntries(account.id)).filter((e) => e.operation === 'read');
    const net = entries.reduce((sum, e) => sum + (e.kind === 'charge' ? e.amount : -e.amount), 0);
    expect(net).toBe(300);
    expect(entries.every((e) => e.source === 'plan')).toBe(true);
    expect(await stores.slots.inFlight(account.id, Date.now())).toBe(0);
  }, 120_000);

  it("SIGKILL mid-request: the dead instance's slots expire within 30 s; its open charges are refunded by the sweeper", async () => {
    const { account, apiKey } = await createAccount(admin(), { plan: 'starter' });
    const period = utcPeriod(Date.now());
    const [victim, other] = instances;
    if (!victim || !other) throw new Error('instances missing');

    // Five requests hang at the target on the victim: all 5 slots taken, all 5 charged.
    const pending = [0, 1, 2, 3, 4].map((j) => read(victim.url, apiKey, `${site.origin}/hang/${j}`).catch((err: unknown) => err));
    for (let i = 0; target.hanging < 5; i++) {
      if (i > 2_000) throw new Error('requests never reached the target');
      await pause(10);
    }
    const refused = await read(other.url, apiKey, `${site.origin}/page/after-busy`);
    expect(refused).toMatchObject({ status: 429, code: 'CONCURRENT_LIMIT' });

    await victim.crash();
    const killedAt = Date.now();
    await Promise.all(pending);
    // No finally block ran: the slots are still held and the charges stand.
    expect(await stores.slots.inFlight(account.id, killedAt)).toBe(5);
    expect(await stores.slots.inFlight(account.id, killedAt + 30_000)).toBe(0);
    expect(await stores.ledger.getUsage(account.id, period)).toEqual({ planUsed: 5, boughtBalance: 0 });
    const entries = await stores.ledger.listEntries(account.id);
    expect(entries.filter((e) => e.kind === 'charge')).toHaveLength(5);
    expect(entries.filter((e) => e.kind === 'refund')).toHaveLength(0);

    // The surviving instances serve the account again once the slots expire (≤ 30 s).
    let served: Answer | null = null;
    for (let i = 0; i < 90 && served === null; i++) {
      const a = await read(other.url, apiKey, `${site.origin}/page/after-kill`);
      if (a.status === 200) served = a;
      else {
        expect(a.code).toBe('CONCURRENT_LIMIT');
        await pause(500);
      }
    }
    expect(served?.headers['x-service-billed']).toBe('plan');
    expect(await stores.ledger.getUsage(account.id, period)).toEqual({ planUsed: 6, boughtBalance: 0 });
    // the five charges the dead instance left open: refunded by the sweep once they are old enough
    const swept = await sweepOnce({
      stores,
      now: () => Date.now() + OPEN_CHARGE_TIMEOUT_MS + 1,
      logger: { info: () => {}, error: () => {} },
    });
    expect(swept).toBeGreaterThanOrEqual(5);
    expect(await stores.ledger.getUsage(account.id, period)).toEqual({ planUsed: 1, boughtBalance: 0 });
  }, 90_000);
});
