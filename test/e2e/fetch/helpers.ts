import type { CacheStore } from '../../../src/store/types.js';

/** In-memory CacheStore for fetch tests (TTL honoured against the injected clock). */
export function memoryCache(): CacheStore & { entries: Map<string, { value: string; expires: number }> } {
  const entries = new Map<string, { value: string; expires: number }>();
  return {
    entries,
    async get(key, nowMs) {
      const e = entries.get(key);
      return e && e.expires > nowMs ? e.value : null;
    },
    async set(key, value, ttlMs, nowMs) {
      entries.set(key, { value, expires: nowMs + ttlMs });
    },
    async delete(key) {
      entries.delete(key);
    },
  };
}

/** Resolves a fixed map of names; anything else is NXDOMAIN. Records every call. */
export function mapLookup(map: Record<string, string | string[]>): {
  lookup: (host: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;
  calls: string[];
} {
  const calls: string[] = [];
  return {
    calls,
    lookup: async (host) => {
      calls.push(host);
      const v = map[host];
      if (v === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return (Array.isArray(v) ? v : [v]).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) as const);
    },
  };
}
