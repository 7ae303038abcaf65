import { openPostgresStores, DEFAULT_PG_SCHEMA } from './postgres/index.js';
import type { RedisStores } from './redis/index.js';
import { openRedisStores, DEFAULT_REDIS_PREFIX } from './redis/index.js';
import { openSqliteStores } from './sqlite/index.js';
import type { Stores } from './types.js';

export interface StoreConfig {
  dataDir: string;
  /** `postgres://…[?schema=pith]`: accounts, keys, ledger, counters (and slots + cache without Redis). */
  databaseUrl: string | null;
  /** `redis://…[?prefix=pith:]`: slots and cache. */
  redisUrl: string | null;
}

export interface OpenStoresDeps {
  /** Background connection errors (a store restarting); requests see SERVICE_UNAVAILABLE meanwhile. */
  onError?: (err: Error, store: 'postgres' | 'redis') => void;
}

export type StoreBackends = { ledger: 'sqlite' | 'postgres'; slots: 'sqlite' | 'postgres' | 'redis' };

/** Which backend holds what, for the start-up log line. */
export function storeBackends(config: StoreConfig): StoreBackends {
  const ledger = config.databaseUrl !== null ? 'postgres' : 'sqlite';
  return { ledger, slots: config.redisUrl !== null ? 'redis' : ledger };
}

/**
 * Picks the storage backends from config:
 * - nothing set → SQLite under `dataDir` (zero-setup default, one instance);
 * - `DATABASE_URL` → PostgreSQL for everything;
 * - `REDIS_URL` as well → slots and cache move to Redis (many instances);
 * - `REDIS_URL` alone → SQLite for accounts and ledger, Redis for slots and cache.
 * Unreachable servers fail with SERVICE_UNAVAILABLE; nothing half-open is left behind.
 */
export async function openStores(config: StoreConfig, deps: OpenStoresDeps = {}): Promise<Stores> {
  const sql = config.databaseUrl !== null ? await openPostgres(config.databaseUrl, deps) : openSqliteStores(config.dataDir);
  let fast: RedisStores | null = null;
  if (config.redisUrl !== null) {
    try {
      fast = await openRedis(config.redisUrl, deps);
    } catch (err) {
      await sql.close().catch(() => undefined);
      throw err;
    }
  }
  if (fast === null) return sql;
  const redis = fast;
  return {
    accounts: sql.accounts,
    ledger: sql.ledger,
    idempotency: sql.idempotency,
    slots: redis.slots,
    cache: redis.cache,
    async ping() {
      await Promise.all([sql.ping(), redis.ping()]);
    },
    async close() {
      await Promise.allSettled([sql.close(), redis.close()]);
    },
  };
}

/** `?schema=` is pith's own parameter; everything else goes to `pg` unchanged (sslmode, …). */
function openPostgres(databaseUrl: string, deps: OpenStoresDeps): Promise<Stores> {
  const { url, value } = takeParam(databaseUrl, 'schema', ['postgres:', 'postgresql:']);
  return openPostgresStores({
    connectionString: url,
    schema: value ?? DEFAULT_PG_SCHEMA,
    onError: (err) => deps.onError?.(err, 'postgres'),
  });
}

/** `?prefix=` is pith's own parameter; everything else goes to ioredis unchanged. */
function openRedis(redisUrl: string, deps: OpenStoresDeps): Promise<RedisStores> {
  const { url, value } = takeParam(redisUrl, 'prefix', ['redis:', 'rediss:']);
  return openRedisStores({ url, prefix: value ?? DEFAULT_REDIS_PREFIX, onError: (err) => deps.onError?.(err, 'redis') });
}

function takeParam(raw: string, name: string, protocols: string[]): { url: string; value: string | null } {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new Error(`store URL is not a URL (expected ${protocols.join(' or ')}//…)`);
  }
  if (!protocols.includes(parsed.protocol))
    throw new Error(`store URL must start with ${protocols.join(' or ')}//, got ${parsed.protocol}//`);
  const value = parsed.searchParams.get(name);
  parsed.searchParams.delete(name);
  return { url: parsed.toString(), value: value === null || value === '' ? null : value };
}
