import type { CacheStore } from '../types.js';
import type { PgPool } from './db.js';
import { guard, queryRows } from './db.js';

/** Writes between two sweeps of expired rows (get() never serves them anyway). */
const SWEEP_EVERY_WRITES = 500;

/** The read cache in PostgreSQL, used when Redis is not configured. Live while `now < expires_at`. */
export function postgresCache(pool: PgPool, s: string): CacheStore {
  let writes = 0;
  return {
    get: (key, nowMs) =>
      guard(async () => {
        const [row] = await queryRows<{ value: string }>(
          pool,
          `SELECT value FROM ${s}.cache WHERE key = $1 AND expires_at > $2`,
          [key, nowMs],
          'pith_cache_get',
        );
        return row?.value ?? null;
      }),
    set: (key, value, ttlMs, nowMs) =>
      guard(async () => {
        await pool.query(
          `INSERT INTO ${s}.cache (key, value, expires_at) VALUES ($1, $2, $3)
           ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at`,
          [key, value, nowMs + ttlMs],
        );
        if (++writes % SWEEP_EVERY_WRITES === 0) {
          await pool.query(`DELETE FROM ${s}.cache WHERE ctid IN (SELECT ctid FROM ${s}.cache WHERE expires_at <= $1 LIMIT 5000)`, [nowMs]);
        }
      }),
    delete: (key) =>
      guard(async () => {
        await pool.query(`DELETE FROM ${s}.cache WHERE key = $1`, [key]);
      }),
  };
}
