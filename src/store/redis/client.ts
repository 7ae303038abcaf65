import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { ServiceError } from '../../errors.js';

/** The subset of an ioredis client the stores use. */
export type RedisClient = Pick<Redis, 'evalsha' | 'eval' | 'zrem' | 'zcount' | 'get' | 'set' | 'del' | 'ping'>;

export function unavailable(err: unknown): ServiceError {
  if (err instanceof ServiceError) return err;
  return new ServiceError('SERVICE_UNAVAILABLE', 'the Redis store is unavailable', {}, { cause: err });
}

export async function guard<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw unavailable(err);
  }
}

/**
 * A client that fails fast instead of queueing while Redis is down (so a request answers 503
 * at once, with nothing charged) and reconnects in the background forever.
 */
export function createRedisClient(url: string, onError?: (err: Error) => void): Redis {
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 3_000,
    commandTimeout: 5_000,
    retryStrategy: (times) => Math.min(times * 100, 2_000),
  });
  // Without a listener ioredis prints every reconnect failure; route them to the logger.
  client.on('error', (err: Error) => onError?.(err));
  return client;
}

/** A Lua script run by SHA, loaded again transparently after a Redis restart (NOSCRIPT). */
export function luaScript(source: string): (client: RedisClient, keys: string[], args: Array<string | number>) => Promise<unknown> {
  const sha = createHash('sha1').update(source).digest('hex');
  return async (client, keys, args) => {
    try {
      return await client.evalsha(sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (err instanceof Error && err.message.startsWith('NOSCRIPT')) return client.eval(source, keys.length, ...keys, ...args);
      throw err;
    }
  };
}
