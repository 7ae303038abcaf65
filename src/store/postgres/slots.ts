import type { SlotAcquireResult, SlotStore } from '../types.js';
import { guard, num, queryRows, transaction, type PgPool } from './db.js';

/**
 * Concurrency slots in PostgreSQL, used when Redis is not configured. One transaction per
 * acquire holds a per-account advisory lock (keyed by schema + account, so test schemas do
 * not contend), drops expired slots, counts and inserts: parallel acquires on any number of
 * instances never exceed the limit. A slot is live while `now < expires_at`.
 */
export function postgresSlots(pool: PgPool, s: string, schema: string): SlotStore {
  return {
    acquire: ({ accountId, slotId, limit, nowMs, ttlMs }) =>
      transaction<SlotAcquireResult>(pool, async (c) => {
        await c.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`pith:slots:${schema}:${accountId}`]);
        await c.query(`DELETE FROM ${s}.slots WHERE account_id = $1 AND expires_at <= $2`, [accountId, nowMs]);
        const [row] = await queryRows<{ n: string }>(c, `SELECT COUNT(*) AS n FROM ${s}.slots WHERE account_id = $1 AND slot_id <> $2`, [
          accountId,
          slotId,
        ]);
        const n = num(row?.n);
        if (n >= limit) return { commit: true, value: { acquired: false, inFlight: n } };
        await c.query(
          `INSERT INTO ${s}.slots (account_id, slot_id, expires_at) VALUES ($1, $2, $3)
           ON CONFLICT (account_id, slot_id) DO UPDATE SET expires_at = EXCLUDED.expires_at`,
          [accountId, slotId, nowMs + ttlMs],
        );
        return { commit: true, value: { acquired: true, inFlight: n + 1 } };
      }),
    release: (accountId, slotId) =>
      guard(async () => {
        await pool.query(`DELETE FROM ${s}.slots WHERE account_id = $1 AND slot_id = $2`, [accountId, slotId]);
      }),
    inFlight: (accountId, nowMs) =>
      guard(async () => {
        const [row] = await queryRows<{ n: string }>(pool, `SELECT COUNT(*) AS n FROM ${s}.slots WHERE account_id = $1 AND expires_at > $2`, [
          accountId,
          nowMs,
        ]);
        return num(row?.n);
      }),
  };
}
