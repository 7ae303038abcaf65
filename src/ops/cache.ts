import { setImmediate as setImmediatePromise } from 'node:timers/promises';
import type { CacheStore } from '../store/types.js';

/** Cache lifetime of every cached operation (spec: one hour). */
export const CACHE_TTL_SECONDS = 3600;

/**
 * Version of what a cache entry holds: the operation's domain result (camelCase, as ops
 * returns it; http/wire/ shapes it for the answer). Bump it whenever that shape changes, so
 * an entry written in an old shape is never read as the new one, even where ENGINE_VERSION
 * is pinned and stays the same across a deploy. 1 (unnamed in keys): the wire shape, before
 * issue 15.
 */
export const CACHE_FORMAT = 'd2';

/** Cache key: (operation, entry format, engine version, canonical request URL). */
export function cacheKey(operation: string, engineVersion: string, url: string): string {
  return `op:${operation}:${CACHE_FORMAT}:${engineVersion}:${url}`;
}

/**
 * The one-hour cache around an operation: look up unless `fresh`, compute on a miss, and
 * always write what was computed. Shared by read, read-and-score, extract and map.
 */
export async function readThroughCache<T>(
  deps: { cache: CacheStore; now: () => number },
  key: string,
  fresh: boolean,
  compute: () => Promise<T>,
): Promise<{ result: T; cacheHit: boolean }> {
  if (!fresh) {
    const cached = await deps.cache.get(key, deps.now());
    if (cached !== null) return { result: JSON.parse(cached) as T, cacheHit: true };
  }
  const result = await compute();
  await writeCache(deps, key, result);
  return { result, cacheHit: false };
}

/** A serialised result over this many characters is written in steps with a yield between them. */
const LARGE_ENTRY_CHARS = 1024 * 1024;

/**
 * Writes one cache entry. Serialising and storing a result of several MB each block the
 * event loop for tens of ms (an embedded SQLite write is synchronous): a big entry yields
 * before and after its store write, so other requests are served in between.
 */
export async function writeCache(deps: { cache: CacheStore; now: () => number }, key: string, value: unknown): Promise<void> {
  const text = JSON.stringify(value);
  const large = text.length > LARGE_ENTRY_CHARS;
  if (large) await setImmediatePromise();
  await deps.cache.set(key, text, CACHE_TTL_SECONDS * 1000, deps.now());
  if (large) await setImmediatePromise();
}
