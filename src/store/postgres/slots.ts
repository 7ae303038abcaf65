import type { SlotAcquireResult, SlotStore } from '../types.js';
import type { PgPool } from './db.js';
import { guard, num, queryRows } from './db.js';

/**
 * Concurrency slots in PostgreSQL, used when Redis is not configured. One call of
 * pith_acquire_slot (one transaction) holds a per-account advisory lock (keyed by schema +
 * account, so test schemas do not contend), drops expired slots, counts and inserts:
 * parallel acquires on any number of instances never exceed the limit. A slot is live
 * while `now < expires_at`.
 */
export function postgresSlots(pool: PgPool, s: string, schema: string): SlotStore {
  return {
    acquire: ({ accountId, slotId, limit, nowMs, ttlMs }) =>
      guard(async (): Promise<SlotAcquireResult> => {
        const [row] = await queryRows<{ o_acquired: boolean; o_in_flight: string }>(
          pool,
          `SELECT * FROM ${s}.pith_acquire_slot($1, $2, $3, $4, $5, $6)`,
          [`pith:slots:${schema}:${accountId}`, accountId, slotId, limit, nowMs, nowMs + ttlMs],
          'pith_acquire_slot',
        );
        if (!row) throw new Error('pith_acquire_slot returned no row');
        return { acquired: row.o_acquired, inFlight: num(row.o_in_flight) };
      }),
    release: (accountId, slotId) =>
      guard(async () => {
        await pool.query(`DELETE FROM ${s}.slots WHERE account_id = $1 AND slot_id = $2`, [accountId, slotId]);
      }),
    renew: ({ accountId, slotId, nowMs, ttlMs }) =>
      guard(async () => {
        const res = await pool.query(`UPDATE ${s}.slots SET expires_at = $3 WHERE account_id = $1 AND slot_id = $2 AND expires_at > $4`, [
          accountId,
          slotId,
          nowMs + ttlMs,
          nowMs,
        ]);
        return res.rowCount === 1;
      }),
    inFlight: (accountId, nowMs) =>
      guard(async () => {
        const [row] = await queryRows<{ n: string }>(
          pool,
          `SELECT COUNT(*) AS n FROM ${s}.slots WHERE account_id = $1 AND expires_at > $2`,
          [accountId, nowMs],
        );
        return num(row?.n);
      }),
  };
}
