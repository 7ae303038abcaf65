import type { IdempotencyRow } from '../ledger-check.js';
import { storedResponseOf } from '../ledger-check.js';
import type { IdempotencyClaim, IdempotencyStore } from '../types.js';
import type { PgPool } from './db.js';
import { guard, queryRows, transaction } from './db.js';

/** Stores a claimed key's answer: $1 account, $2 key, $3 status, $4 headers JSON, $5 body. */
export const storeResponseSql = (s: string): string =>
  `UPDATE ${s}.idempotency_keys SET status = $3, headers = $4, body = $5 WHERE account_id = $1 AND key = $2`;

/** Idempotency keys in PostgreSQL, shared by every instance; a claim is one short transaction. */
export function postgresIdempotency(pool: PgPool, s: string): IdempotencyStore {
  return {
    claim: (input) =>
      transaction(pool, async (c): Promise<{ commit: boolean; value: IdempotencyClaim }> => {
        const fresh = await c.query(
          `INSERT INTO ${s}.idempotency_keys (account_id, key, fingerprint, created_at, claimed_at)
           VALUES ($1, $2, $3, $4, $4) ON CONFLICT (account_id, key) DO NOTHING`,
          [input.accountId, input.key, input.fingerprint, input.now],
        );
        if (fresh.rowCount === 1) return { commit: true, value: { state: 'claimed' } };
        const [row] = await queryRows<IdempotencyRow>(
          c,
          `SELECT fingerprint, created_at, claimed_at, status, headers, body FROM ${s}.idempotency_keys
            WHERE account_id = $1 AND key = $2 FOR UPDATE`,
          [input.accountId, input.key],
        );
        if (!row || Number(row.created_at) <= input.now - input.expiresAfterMs) {
          // expired: the key starts over
          await c.query(
            `UPDATE ${s}.idempotency_keys SET fingerprint = $3, created_at = $4, claimed_at = $4, status = NULL, headers = NULL, body = NULL
              WHERE account_id = $1 AND key = $2`,
            [input.accountId, input.key, input.fingerprint, input.now],
          );
          return { commit: true, value: { state: 'claimed' } };
        }
        if (row.fingerprint !== input.fingerprint) return { commit: false, value: { state: 'mismatch' } };
        const response = storedResponseOf(row);
        if (response) return { commit: false, value: { state: 'done', response } };
        if (Number(row.claimed_at) > input.now - input.staleAfterMs) {
          return { commit: false, value: { state: 'in_progress', sinceMs: Number(row.claimed_at) } };
        }
        await c.query(`UPDATE ${s}.idempotency_keys SET claimed_at = $3 WHERE account_id = $1 AND key = $2`, [
          input.accountId,
          input.key,
          input.now,
        ]);
        return { commit: true, value: { state: 'claimed' } };
      }),
    complete: (input) =>
      guard(async () => {
        const r = input.response;
        await pool.query(storeResponseSql(s), [input.accountId, input.key, r.status, JSON.stringify(r.headers), r.body]);
      }),
    release: (input) =>
      guard(async () => {
        await pool.query(`DELETE FROM ${s}.idempotency_keys WHERE account_id = $1 AND key = $2 AND status IS NULL`, [
          input.accountId,
          input.key,
        ]);
      }),
    purgeExpired: (before) =>
      guard(async () => (await pool.query(`DELETE FROM ${s}.idempotency_keys WHERE created_at < $1`, [before])).rowCount ?? 0),
  };
}
