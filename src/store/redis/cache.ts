import type { CacheStore } from '../types.js';
import type { RedisClient } from './client.js';
import { guard } from './client.js';

/**
 * Cache entries as plain strings `<expiresAtMs>:<value>` with a Redis TTL. Redis drops them
 * on its own clock; the stored expiry keeps `get` exact on the injected clock (tests, and
 * instances whose clocks differ a little from the Redis host).
 */
export function redisCache(client: RedisClient, prefix: string): CacheStore {
  const key = (k: string): string => `${prefix}cache:${k}`;
  return {
    get: (k, nowMs) =>
      guard(async () => {
        const raw = await client.get(key(k));
        if (raw === null) return null;
        const sep = raw.indexOf(':');
        const expiresAt = Number(raw.slice(0, sep));
        return sep > 0 && nowMs < expiresAt ? raw.slice(sep + 1) : null;
      }),
    set: (k, value, ttlMs, nowMs) =>
      guard(async () => {
        if (ttlMs <= 0) {
          await client.del(key(k));
          return;
        }
        try {
          await client.set(key(k), `${nowMs + ttlMs}:${value}`, 'PX', Math.ceil(ttlMs));
        } catch (err) {
          // A full Redis under `noeviction` refuses writes: a cache entry is not worth failing
          // a paid read for. Everything else (connection loss) is SERVICE_UNAVAILABLE.
          if (err instanceof Error && err.name === 'ReplyError' && err.message.startsWith('OOM')) return;
          throw err;
        }
      }),
    delete: (k) =>
      guard(async () => {
        await client.del(key(k));
      }),
  };
}
