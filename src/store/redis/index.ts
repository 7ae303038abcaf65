import type { Stores } from '../types.js';
import { redisCache } from './cache.js';
import { createRedisClient, guard, unavailable } from './client.js';
import { redisSlots } from './slots.js';

export interface RedisStoreOptions {
  /** `redis://[:password@]host:port[/db]`. */
  url: string;
  /** Prefix of every key, so several deployments (or test runs) share one Redis. Default `pith:`. */
  prefix?: string;
  /** Connection errors while Redis is down; the client keeps reconnecting. */
  onError?: (err: Error) => void;
}

export const DEFAULT_REDIS_PREFIX = 'pith:';

/** The part of `Stores` Redis holds: slots and cache (accounts and ledger stay in SQL). */
export type RedisStores = Pick<Stores, 'slots' | 'cache' | 'ping' | 'close'>;

/** Connects (SERVICE_UNAVAILABLE when Redis cannot be reached) and returns slots + cache. */
export async function openRedisStores(options: RedisStoreOptions): Promise<RedisStores> {
  const prefix = options.prefix ?? DEFAULT_REDIS_PREFIX;
  const client = createRedisClient(options.url, options.onError);
  try {
    await client.connect();
  } catch (err) {
    client.disconnect();
    throw unavailable(err);
  }
  let closed = false;
  return {
    slots: redisSlots(client, prefix),
    cache: redisCache(client, prefix),
    ping: () =>
      guard(async () => {
        await client.ping();
      }),
    async close() {
      if (closed) return;
      closed = true;
      await client.quit().catch(() => client.disconnect());
    },
  };
}
