import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { openStores } from '../../src/store/open.js';
import { redisCache } from '../../src/store/redis/cache.js';
import type { RedisClient } from '../../src/store/redis/client.js';
import { openRedisStores } from '../../src/store/redis/index.js';
import { DATABASE_URL, REDIS_URL, deletePrefix, dropSchema, requireServer, testPrefix, testSchema } from './backends.js';
import { storeContract } from './contract.js';
import { T0, uid } from './contract-helpers.js';

const SUITE = 'redis store';
const enabled = requireServer('REDIS_URL', REDIS_URL, SUITE);

function withParam(url: string, name: string, value: string): string {
  const u = new URL(url);
  u.searchParams.set(name, value);
  return u.toString();
}

describe.skipIf(!enabled)(SUITE, () => {
  const redisUrl = REDIS_URL ?? '';
  const prefix = testPrefix();
  const dir = mkdtempSync(join(tmpdir(), 'pith-store-redis-'));
  const schema = testSchema();
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await deletePrefix(redisUrl, prefix);
    if (DATABASE_URL !== null) await dropSchema(DATABASE_URL, schema);
  });

  storeContract('sqlite+redis', () =>
    openStores({ dataDir: dir, databaseUrl: null, redisUrl: withParam(redisUrl, 'prefix', `${prefix}a:`) }),
  );

  describe.skipIf(DATABASE_URL === null)('with postgres', () => {
    storeContract('postgres+redis', () =>
      openStores({
        dataDir: dir,
        databaseUrl: withParam(DATABASE_URL ?? '', 'schema', schema),
        redisUrl: withParam(redisUrl, 'prefix', `${prefix}b:`),
      }),
    );
  });

  describe('redis specifics', () => {
    it('keeps every key under the prefix and lets idle slot sets expire on their own', async () => {
      const p = `${prefix}c:`;
      const stores = await openRedisStores({ url: redisUrl, prefix: p });
      const raw = new Redis(redisUrl);
      try {
        const acc = uid('acc');
        await stores.slots.acquire({ accountId: acc, slotId: 's1', limit: 2, nowMs: T0, ttlMs: 30_000 });
        await stores.cache.set('k', 'v', 3_600_000, T0);
        expect((await raw.keys(`${p}*`)).sort()).toEqual([`${p}cache:k`, `${p}slots:${acc}`]);
        const slotTtl = await raw.pttl(`${p}slots:${acc}`);
        expect(slotTtl).toBeGreaterThan(0);
        expect(slotTtl).toBeLessThanOrEqual(30_000);
        const cacheTtl = await raw.pttl(`${p}cache:k`);
        expect(cacheTtl).toBeGreaterThan(30_000);
        expect(cacheTtl).toBeLessThanOrEqual(3_600_000);
      } finally {
        raw.disconnect();
        await stores.close();
      }
    });

    it('reloads the acquire script after SCRIPT FLUSH (a Redis restart)', async () => {
      const stores = await openRedisStores({ url: redisUrl, prefix: `${prefix}d:` });
      const raw = new Redis(redisUrl);
      try {
        const acc = uid('acc');
        await stores.slots.acquire({ accountId: acc, slotId: 's1', limit: 2, nowMs: T0, ttlMs: 30_000 });
        await raw.script('FLUSH');
        expect(await stores.slots.acquire({ accountId: acc, slotId: 's2', limit: 2, nowMs: T0, ttlMs: 30_000 })).toEqual({
          acquired: true,
          inFlight: 2,
        });
      } finally {
        raw.disconnect();
        await stores.close();
      }
    });
  });
});

describe('redis cache writes on a full Redis', () => {
  const failing = (name: string, message: string): RedisClient => {
    const err = Object.assign(new Error(message), { name });
    return { set: async () => Promise.reject(err) } as unknown as RedisClient;
  };

  it('drops the entry when Redis refuses writes with OOM (noeviction), instead of failing the read', async () => {
    const cache = redisCache(failing('ReplyError', "OOM command not allowed when used memory > 'maxmemory'."), 'p:');
    await expect(cache.set('k', 'v', 1_000, T0)).resolves.toBeUndefined();
  });

  it('still reports a lost connection as SERVICE_UNAVAILABLE', async () => {
    const cache = redisCache(failing('Error', 'Connection is closed.'), 'p:');
    await expect(cache.set('k', 'v', 1_000, T0)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});
