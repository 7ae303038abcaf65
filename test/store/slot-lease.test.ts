/**
 * Issue 13 item 4: a slot is held for the whole call, on every backend, in real time with
 * the real lease (30 s, renewed every 10 s). Two Free calls (limit 2) that run 45 s keep
 * their slots, so a third call at 35 s is refused; a holder that is SIGKILLed after
 * renewing frees its slot at most 30 s after its death. About a minute of wall time: the
 * backends run side by side.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/billing/accounts.js';
import type { BillingDeps } from '../../src/billing/billed-call.js';
import { SLOT_RENEW_MS, SLOT_TTL_MS, initialBillingState, withBilling } from '../../src/billing/billed-call.js';
import { createIdFactory } from '../../src/billing/ids.js';
import { isServiceError } from '../../src/errors.js';
import type { StoreConfig } from '../../src/store/open.js';
import { openStores } from '../../src/store/open.js';
import type { Account, Stores } from '../../src/store/types.js';
import { DATABASE_URL, REDIS_URL, deletePrefix, dropSchema, requireServer, testPrefix, testSchema } from './backends.js';

const SUITE = 'slot lease';
const hasPg = requireServer('DATABASE_URL', DATABASE_URL, `${SUITE} (PostgreSQL)`);
const hasRedis = requireServer('REDIS_URL', REDIS_URL, `${SUITE} (Redis)`);

const sleepUntil = (at: number): Promise<void> => new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));

interface Backend {
  name: string;
  config: StoreConfig;
  cleanup(): Promise<void>;
}

function backends(): Backend[] {
  const out: Backend[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'pith-lease-'));
  out.push({
    name: 'sqlite',
    config: { dataDir: dir, databaseUrl: null, redisUrl: null },
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  });
  if (hasPg && DATABASE_URL) {
    const pgUrl = DATABASE_URL;
    const schema = testSchema();
    out.push({
      name: 'postgres',
      config: { dataDir: dir, databaseUrl: `${DATABASE_URL}?schema=${schema}`, redisUrl: null },
      cleanup: () => dropSchema(pgUrl, schema),
    });
    if (hasRedis && REDIS_URL) {
      const redisUrl = REDIS_URL;
      const schema2 = testSchema();
      const prefix = testPrefix();
      out.push({
        name: 'postgres+redis',
        config: {
          dataDir: dir,
          databaseUrl: `${DATABASE_URL}?schema=${schema2}`,
          redisUrl: `${REDIS_URL}?prefix=${encodeURIComponent(prefix)}`,
        },
        cleanup: async () => {
          await dropSchema(pgUrl, schema2);
          await deletePrefix(redisUrl, prefix);
        },
      });
    }
  }
  return out;
}

/** A child process that takes a slot through withBilling (so its lease is renewed) and works forever. */
function spawnHolder(config: StoreConfig, accountId: string): Promise<{ takenAt: number; kill(): Promise<number> }> {
  const src = (p: string): string => JSON.stringify(new URL(`../../src/${p}`, import.meta.url).pathname);
  const script = `
    import { randomBytes } from 'node:crypto';
    import { openStores } from ${src('store/open.ts')};
    import { initialBillingState, withBilling } from ${src('billing/billed-call.ts')};
    import { createIdFactory } from ${src('billing/ids.ts')};
    const config = JSON.parse(process.argv[1]);
    const stores = await openStores(config);
    const account = await stores.accounts.getAccount(process.argv[2]);
    const deps = { stores, now: Date.now, newId: createIdFactory(randomBytes) };
    await withBilling(deps, { account, operation: 'read', cost: 0, state: initialBillingState(Date.now()) }, async () => {
      process.stdout.write('held ' + Date.now() + '\\n');
      // a live process doing work (the lease timer alone never keeps a process up)
      await new Promise(() => setInterval(() => {}, 1000));
    });
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, JSON.stringify(config), accountId], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => {
      const takenAt = Number(/held (\d+)/.exec(d.toString())?.[1]);
      resolve({
        takenAt,
        kill: async () => {
          if (child.exitCode !== null || child.signalCode !== null) throw new Error(`holder died on its own (${child.exitCode})`);
          const exited = new Promise((r) => child.once('exit', r));
          child.kill('SIGKILL');
          await exited;
          return Date.now();
        },
      });
    });
    child.once('exit', (code) => reject(new Error(`holder exited early with ${code}`)));
  });
}

describe(SUITE, () => {
  const all = backends();
  afterAll(async () => {
    for (const b of all) await b.cleanup().catch(() => undefined);
  });

  it.concurrent.each(all.map((b) => [b.name, b] as const))(
    '%s: a 45 s call keeps its slot (third call refused at 35 s); a SIGKILLed holder frees by 30 s after death',
    { timeout: 150_000 },
    async (_name, backend) => {
      expect(SLOT_TTL_MS).toBe(30_000);
      expect(SLOT_RENEW_MS).toBe(10_000);
      const stores: Stores = await openStores(backend.config);
      try {
        const admin = { stores, now: Date.now, randomBytes };
        const busy = (await createAccount(admin, { plan: 'free' })).account;
        const crashed = (await createAccount(admin, { plan: 'free' })).account;
        const deps: BillingDeps = { stores, now: Date.now, newId: createIdFactory(randomBytes) };
        const call = (account: Account, work: () => Promise<void>): Promise<void> =>
          withBilling(deps, { account, operation: 'read', cost: 0, state: initialBillingState(Date.now()) }, work);

        // the crashing holder starts first (its process takes a second or two to boot)
        const holder = await spawnHolder(backend.config, crashed.id);
        const start = Date.now();
        const longCalls = [call(busy, () => sleepUntil(start + 45_000)), call(busy, () => sleepUntil(start + 45_000))];

        // the holder renews at +10 s and +20 s, then dies at +25 s
        await sleepUntil(holder.takenAt + 25_000);
        const diedAt = await holder.kill();

        // 35 s into the long calls: both slots are still held, so a third call is refused
        await sleepUntil(start + 35_000);
        const third = await call(busy, async () => {}).catch((err: unknown) => err);
        expect(isServiceError(third) && third.code).toBe('CONCURRENT_LIMIT');
        expect(isServiceError(third) && third.fields).toMatchObject({ in_flight: 2, limit: 2 });
        // the dead holder's lease outlived its first 30 s thanks to its renewals
        expect(Date.now()).toBeGreaterThan(holder.takenAt + SLOT_TTL_MS);
        expect(await stores.slots.inFlight(crashed.id, Date.now())).toBe(1);

        await Promise.all(longCalls);
        expect(await stores.slots.inFlight(busy.id, Date.now())).toBe(0);

        // at most 30 s after its death the dead holder's slot is free
        await sleepUntil(diedAt + SLOT_TTL_MS + 100);
        expect(await stores.slots.inFlight(crashed.id, Date.now())).toBe(0);
        await call(crashed, async () => {});
      } finally {
        await stores.close();
      }
    },
  );
});
