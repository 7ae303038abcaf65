/**
 * Failure behaviour at the store boundary: an unreachable or vanished PostgreSQL/Redis is
 * SERVICE_UNAVAILABLE (never a raw driver error, never an address in the message), nothing
 * is charged meanwhile, and the clients reconnect on their own once the server is back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isServiceError } from '../../src/errors.js';
import { openStores } from '../../src/store/open.js';
import type { Stores } from '../../src/store/types.js';
import { DATABASE_URL, REDIS_URL, deletePrefix, dropSchema, testPrefix, testSchema } from './backends.js';
import { T0, uid } from './contract-helpers.js';
import { deadPort, eventually, startTcpProxy } from './tcp-proxy.js';

const dir = mkdtempSync(join(tmpdir(), 'pith-store-unavail-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function expectUnavailable(p: Promise<unknown>): Promise<void> {
  const err: unknown = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(isServiceError(err) && err.code).toBe('SERVICE_UNAVAILABLE');
  expect(isServiceError(err) && err.status).toBe(503);
  expect(String((err as Error).message)).not.toMatch(/127\.0\.0\.1|:\d{2,5}\b/);
}

/** `url` with its host:port replaced by 127.0.0.1:`port` (the proxy in front of it). */
function via(url: string, port: number, param?: [string, string]): string {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(port);
  if (param) u.searchParams.set(param[0], param[1]);
  return u.toString();
}

describe('stores that cannot be reached', () => {
  it('PostgreSQL down at start → SERVICE_UNAVAILABLE', async () => {
    const port = await deadPort();
    await expectUnavailable(openStores({ dataDir: dir, databaseUrl: `postgres://postgres@127.0.0.1:${port}/test`, redisUrl: null }));
  });

  it('Redis down at start → SERVICE_UNAVAILABLE, and the SQLite side is closed again', async () => {
    const port = await deadPort();
    await expectUnavailable(openStores({ dataDir: dir, databaseUrl: null, redisUrl: `redis://127.0.0.1:${port}` }));
  });

  it('rejects a store URL with the wrong scheme', async () => {
    await expect(openStores({ dataDir: dir, databaseUrl: 'mysql://x/y', redisUrl: null })).rejects.toThrow(/postgres/);
  });
});

describe.skipIf(DATABASE_URL === null)('PostgreSQL going away and coming back', () => {
  const schema = testSchema();
  afterAll(() => dropSchema(DATABASE_URL ?? '', schema));

  it('answers SERVICE_UNAVAILABLE while cut, charges nothing, then reconnects by itself', async () => {
    const target = new URL(DATABASE_URL ?? '');
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    let stores: Stores | null = null;
    try {
      stores = await openStores({ dataDir: dir, databaseUrl: via(DATABASE_URL ?? '', proxy.port, ['schema', schema]), redisUrl: null });
      const acc = uid('acc');
      await stores.accounts.createAccount({ id: acc, plan: 'starter', name: null, now: T0 });
      const charge = () =>
        stores!.ledger.charge({
          chargeId: uid('chg'),
          accountId: acc,
          period: '2026-11',
          amount: 1,
          planLimit: 10,
          allowBought: true,
          operation: 'read',
          now: T0,
        });
      expect((await charge()).ok).toBe(true);

      await proxy.cut();
      await expectUnavailable(stores.ping());
      await expectUnavailable(charge());
      await expectUnavailable(stores.slots.acquire({ accountId: acc, slotId: 's', limit: 1, nowMs: T0, ttlMs: 30_000 }));

      await proxy.restore();
      await eventually(() => stores!.ping());
      expect((await charge()).planUsed).toBe(2);
      expect(await stores.ledger.getUsage(acc, '2026-11')).toEqual({ planUsed: 2, boughtBalance: 0 });
    } finally {
      await stores?.close();
      await proxy.close();
    }
  });
});

describe.skipIf(REDIS_URL === null)('Redis going away and coming back', () => {
  const prefix = testPrefix();
  afterAll(() => deletePrefix(REDIS_URL ?? '', prefix));

  it('answers SERVICE_UNAVAILABLE while cut, then reconnects by itself', async () => {
    const target = new URL(REDIS_URL ?? '');
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 6379));
    const errors: string[] = [];
    let stores: Stores | null = null;
    try {
      stores = await openStores(
        { dataDir: dir, databaseUrl: null, redisUrl: via(REDIS_URL ?? '', proxy.port, ['prefix', prefix]) },
        { onError: (_err, store) => errors.push(store) },
      );
      const acc = uid('acc');
      const acquire = (slotId: string) => stores!.slots.acquire({ accountId: acc, slotId, limit: 2, nowMs: T0, ttlMs: 30_000 });
      expect((await acquire('a')).acquired).toBe(true);

      await proxy.cut();
      await expectUnavailable(stores.ping());
      await expectUnavailable(acquire('b'));
      await expectUnavailable(stores.cache.get('k', T0));

      await proxy.restore();
      await eventually(() => stores!.ping());
      expect(await acquire('b')).toEqual({ acquired: true, inFlight: 2 });
      expect(errors.every((s) => s === 'redis')).toBe(true);
    } finally {
      await stores?.close();
      await proxy.close();
    }
  });
});
