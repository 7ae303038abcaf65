import type { CacheStore } from '../store/types.js';

/** A process-local cache for the local engine (robots.txt answers during one CLI run). */
export function createMemoryCache(): CacheStore {
  const entries = new Map<string, { value: string; expiresAt: number }>();
  return {
    async get(key, nowMs) {
      const entry = entries.get(key);
      if (!entry) return null;
      if (entry.expiresAt <= nowMs) {
        entries.delete(key);
        return null;
      }
      return entry.value;
    },
    async set(key, value, ttlMs, nowMs) {
      entries.set(key, { value, expiresAt: nowMs + ttlMs });
    },
    async delete(key) {
      entries.delete(key);
    },
  };
}
