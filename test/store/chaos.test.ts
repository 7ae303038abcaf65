/**
 * Issue 16: billing that survives crashes, retries and outages. 2,000 billable calls (reads
 * and batches) from many clients over three `pith serve` processes, against a loopback site
 * that fails 30 % of the time, while the test SIGKILLs and restarts one instance twice and —
 * on PostgreSQL + Redis — takes PostgreSQL away once and Redis once (Redis losing its data,
 * as a restart without persistence does). The stores sit behind TCP proxies the test cuts:
 * to pith that is a server restart, and CI's shared servers are never touched.
 *
 * Clients behave as the SDK does: one Idempotency-Key per call, the same key on every retry
 * (after a dropped connection, a 503, a 429, a 409 still running). A call whose key stays
 * claimed by a killed instance is given up and counts as not delivered. After the sweeper
 * ran: for every account, credits taken = credits delivered exactly, `ledger verify` finds
 * nothing, and no slot is held.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/billing/accounts.js';
import { SLOT_TTL_MS } from '../../src/billing/billed-call.js';
import { OPEN_CHARGE_TIMEOUT_MS, sweepOnce } from '../../src/billing/sweeper.js';
import type { StoreConfig } from '../../src/store/open.js';
import { openStores } from '../../src/store/open.js';
import type { Stores } from '../../src/store/types.js';
import type { Site } from '../helpers/site.js';
import { startSite } from '../helpers/site.js';
import { DATABASE_URL, REDIS_URL, deletePrefix, dropSchema, requireServer, testPrefix, testSchema } from './backends.js';
import type { Instance } from './instances.js';
import { startInstance } from './instances.js';
import type { TcpProxy } from './tcp-proxy.js';
import { startTcpProxy } from './tcp-proxy.js';

const CALLS = 2_000;
const CLIENTS = 24;
const ACCOUNTS = 6;
const hasPg = requireServer('DATABASE_URL', DATABASE_URL, 'chaos (PostgreSQL + Redis)');
const hasRedis = hasPg && requireServer('REDIS_URL', REDIS_URL, 'chaos (PostgreSQL + Redis)');

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Backend {
  name: string;
  /** What the instances get; the test opens the stores directly too. */
  env: Record<string, string>;
  store: StoreConfig;
  /** Outages to play during the run (none on SQLite). */
  outages: Array<{ name: string; play(): Promise<void> }>;
  cleanup(): Promise<void>;
}

async function sqliteBackend(): Promise<Backend> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pith-chaos-'));
  return {
    name: 'SQLite',
    env: { DATA_DIR: dataDir },
    store: { dataDir, databaseUrl: null, redisUrl: null },
    outages: [],
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

async function pgRedisBackend(): Promise<Backend> {
  const pgUrl = new URL(DATABASE_URL as string);
  const redisUrl = new URL(REDIS_URL as string);
  const pgProxy: TcpProxy = await startTcpProxy(pgUrl.hostname, Number(pgUrl.port || 5432));
  const redisProxy: TcpProxy = await startTcpProxy(redisUrl.hostname, Number(redisUrl.port || 6379));
  const schema = testSchema();
  const prefix = testPrefix();
  const viaProxy = (url: URL, port: number, param: string, value: string): string => {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(port);
    u.searchParams.set(param, value);
    return u.toString();
  };
  const databaseUrl = viaProxy(pgUrl, pgProxy.port, 'schema', schema);
  const redis = viaProxy(redisUrl, redisProxy.port, 'prefix', prefix);
  const dataDir = mkdtempSync(join(tmpdir(), 'pith-chaos-'));
  return {
    name: 'PostgreSQL + Redis',
    env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl, REDIS_URL: redis },
    store: { dataDir, databaseUrl, redisUrl: redis },
    outages: [
      {
        name: 'PostgreSQL restart',
        play: async () => {
          await pgProxy.cut();
          await pause(2_000);
          await pgProxy.restore();
        },
      },
      {
        name: 'Redis restart (data lost)',
        play: async () => {
          await redisProxy.cut();
          await deletePrefix(REDIS_URL as string, prefix);
          await pause(1_500);
          await redisProxy.restore();
        },
      },
    ],
    cleanup: async () => {
      await pgProxy.close();
      await redisProxy.close();
      await dropSchema(DATABASE_URL as string, schema);
      await deletePrefix(REDIS_URL as string, prefix);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A page that fails 30 % of the time: 500 (UPSTREAM_ERROR) or 404 (URL_NOT_FOUND). */
async function flakySite(): Promise<Site> {
  let n = 0;
  return startSite((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    const roll = n++ % 10;
    if (roll < 2) return void res.writeHead(500).end('oops');
    if (roll < 3) return void res.writeHead(404).end('gone');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><head><title>Log ${req.url}</title></head><body><main><h1>Log ${req.url}</h1><p>${'The harbour log records every boat that leaves and returns. '.repeat(6)}</p></main></body></html>`,
    );
  });
}

interface Tally {
  /** Credits delivered per account: 1 per 200 read, 1 per ok batch item. */
  delivered: Map<string, number>;
  finals: Map<string, number>;
  givenUp: number;
  retries: number;
}

async function runChaos(backend: Backend): Promise<void> {
  const site = await flakySite();
  const base = { ...backend.env, ALLOW_PRIVATE_TARGETS: `127.0.0.1:${site.port}`, ENGINE_VERSION: `chaos-${randomUUID()}`, RENDER: 'off' };
  const stores: Stores = await openStores(backend.store);
  const instances: Instance[] = [];
  try {
    const accounts = await Promise.all(
      Array.from({ length: ACCOUNTS }, () => createAccount({ stores, now: Date.now, randomBytes }, { plan: 'starter' })),
    );
    for (const i of [0, 1, 2]) instances[i] = await startInstance(base, 60_000);
    const dispatcher = new Agent({ connections: 64, headersTimeout: 60_000, bodyTimeout: 60_000 });
    const tally: Tally = { delivered: new Map(), finals: new Map(), givenUp: 0, retries: 0 };
    const note = (m: Map<string, number>, k: string, by = 1): void => void m.set(k, (m.get(k) ?? 0) + by);

    const oneCall = async (i: number): Promise<void> => {
      const account = accounts[i % ACCOUNTS] as (typeof accounts)[number];
      const batch = i % 5 === 0;
      const path = batch ? '/v1/batch' : '/v1/read';
      const body = batch
        ? { urls: Array.from({ length: 1 + (i % 4) }, (_, j) => `${site.origin}/b/${i}/${j}`) }
        : { url: `${site.origin}/r/${i}`, fresh: true };
      const key = randomUUID();
      let inProgress = 0;
      for (let attempt = 0; attempt < 200; attempt++) {
        const target = instances[(i + attempt) % 3] as Instance;
        let status: number;
        let json: { code?: string; results?: Array<{ ok: boolean }> };
        try {
          const res = await request(`${target.url}${path}`, {
            method: 'POST',
            dispatcher,
            headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json', 'idempotency-key': key },
            body: JSON.stringify(body),
          });
          status = res.statusCode;
          json = (await res.body.json()) as typeof json;
        } catch {
          tally.retries++;
          await pause(50); // the instance died or restarts: try another
          continue;
        }
        if (status === 503 || status === 429) {
          tally.retries++;
          await pause(20 + (attempt % 5) * 20);
          continue;
        }
        if (status === 409 && json.code === 'IDEMPOTENCY_CONFLICT') {
          // still running, or claimed by a killed instance: after a few tries, give up
          if (++inProgress > 5) {
            tally.givenUp++;
            return;
          }
          await pause(100);
          continue;
        }
        note(tally.finals, String(status));
        if (status === 200) {
          const credits = batch ? (json.results ?? []).filter((r) => r.ok).length : 1;
          note(tally.delivered, account.account.id, credits);
        }
        return;
      }
      tally.givenUp++;
    };

    // the chaos schedule, by progress through the calls
    let done = 0;
    let lastKill = 0;
    const events: Array<{ at: number; name: string; play(): Promise<void> }> = [
      {
        at: 300,
        name: 'SIGKILL instance 0',
        play: async () => {
          await (instances[0] as Instance).crash();
          lastKill = Date.now();
          instances[0] = await startInstance(base, 60_000);
        },
      },
      ...backend.outages.map((o, j) => ({ at: 700 + j * 500, ...o })),
      {
        at: 1_000,
        name: 'SIGKILL instance 1',
        play: async () => {
          await (instances[1] as Instance).crash();
          lastKill = Date.now();
          instances[1] = await startInstance(base, 60_000);
        },
      },
    ];
    const played: string[] = [];
    const chaos = (async () => {
      for (const e of events.sort((a, b) => a.at - b.at)) {
        while (done < e.at) await pause(20);
        await e.play();
        played.push(e.name);
      }
    })();
    let next = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        for (let i = next++; i < CALLS; i = next++) {
          await oneCall(i);
          done++;
        }
      }),
    );
    await chaos;
    await Promise.all(instances.map((inst) => inst.stop()));
    await dispatcher.close();

    // the sweeper, as it runs once the open-charge timeout has passed
    const swept = await sweepOnce({
      stores,
      now: () => Date.now() + OPEN_CHARGE_TIMEOUT_MS + 1,
      logger: { info: () => {}, error: () => {} },
    });
    const report = await stores.ledger.verify();
    const taken = new Map<string, number>();
    for (const { account } of accounts) {
      const entries = await stores.ledger.listEntries(account.id);
      taken.set(
        account.id,
        entries.reduce((sum, e) => sum + (e.kind === 'charge' ? e.amount : e.kind === 'refund' ? -e.amount : 0), 0),
      );
    }
    // slots of a killed instance are leases: gone at most 30 s after its death
    const waitForLeases = lastKill + SLOT_TTL_MS - Date.now();
    if (waitForLeases > 0) await pause(waitForLeases + 100);
    const slotsHeld = await Promise.all(accounts.map(({ account }) => stores.slots.inFlight(account.id, Date.now())));

    console.log(
      `[chaos ${backend.name}] calls=${CALLS} finals=${JSON.stringify(Object.fromEntries(tally.finals))} given_up=${tally.givenUp} ` +
        `retries=${tally.retries} delivered=${[...tally.delivered.values()].reduce((a, b) => a + b, 0)} ` +
        `taken=${[...taken.values()].reduce((a, b) => a + b, 0)} swept=${swept} events=${played.join(', ')}`,
    );
    expect(played).toHaveLength(events.length);
    for (const { account } of accounts) expect(taken.get(account.id)).toBe(tally.delivered.get(account.id) ?? 0);
    expect(report.differences).toEqual([]);
    expect(report.openCharges).toEqual([]);
    expect(slotsHeld).toEqual(accounts.map(() => 0));
    // most calls end in a definite answer
    expect([...tally.finals.values()].reduce((a, b) => a + b, 0) + tally.givenUp).toBe(CALLS);
  } finally {
    await Promise.all(instances.map((inst) => inst?.stop().catch(() => undefined)));
    await stores.close();
    await site.close();
  }
}

describe('chaos: billing stays exact through kills, retries and outages', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of cleanups) await c().catch(() => undefined);
  });

  it('SQLite: three instances, two SIGKILLs', { timeout: 600_000 }, async () => {
    const backend = await sqliteBackend();
    cleanups.push(backend.cleanup);
    await runChaos(backend);
  });

  it.skipIf(!hasRedis)(
    'PostgreSQL + Redis: three instances, two SIGKILLs, PostgreSQL and Redis restarts',
    { timeout: 600_000 },
    async () => {
      const backend = await pgRedisBackend();
      cleanups.push(backend.cleanup);
      await runChaos(backend);
    },
  );
});
