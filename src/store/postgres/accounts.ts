import type { AccountRow, KeyRow } from '../rows.js';
import { iso, toAccount, toKey } from '../rows.js';
import type { AccountStore } from '../types.js';
import type { PgPool } from './db.js';
import { guard, queryRows } from './db.js';

/** Accounts and API keys; `s` is the quoted schema. Keys are looked up by SHA-256 hash only. */
export function postgresAccounts(pool: PgPool, s: string): AccountStore {
  const ACCOUNT_COLS = 'id, name, plan, created_at';
  return {
    createAccount: ({ id, plan, name, now }) =>
      guard(async () => {
        const [row] = await queryRows<AccountRow>(
          pool,
          `INSERT INTO ${s}.accounts (id, name, plan, created_at) VALUES ($1, $2, $3, $4) RETURNING ${ACCOUNT_COLS}`,
          [id, name, plan, iso(now)],
        );
        if (!row) throw new Error('insert returned no row');
        return toAccount(row);
      }),
    getAccount: (id) =>
      guard(async () => {
        const [row] = await queryRows<AccountRow>(pool, `SELECT ${ACCOUNT_COLS} FROM ${s}.accounts WHERE id = $1`, [id]);
        return row ? toAccount(row) : null;
      }),
    setPlan: (id, plan) =>
      guard(async () => {
        const [row] = await queryRows<AccountRow>(pool, `UPDATE ${s}.accounts SET plan = $2 WHERE id = $1 RETURNING ${ACCOUNT_COLS}`, [
          id,
          plan,
        ]);
        return row ? toAccount(row) : null;
      }),
    createKey: ({ id, accountId, hash, prefix, name, now }) =>
      guard(async () => {
        const [row] = await queryRows<KeyRow>(
          pool,
          `INSERT INTO ${s}.api_keys (id, account_id, hash, prefix, name, created_at) VALUES ($1, $2, $3, $4, $5, $6)
           RETURNING id, account_id, prefix, name, created_at, revoked_at`,
          [id, accountId, hash, prefix, name, iso(now)],
        );
        if (!row) throw new Error('insert returned no row');
        return toKey(row);
      }),
    findByKeyHash: (hash) =>
      guard(async () => {
        const [row] = await queryRows<AccountRow & { key_id: string }>(
          pool,
          `SELECT a.id, a.name, a.plan, a.created_at, k.id AS key_id
             FROM ${s}.api_keys k JOIN ${s}.accounts a ON a.id = k.account_id
            WHERE k.hash = $1 AND k.revoked_at IS NULL`,
          [hash],
          'pith_find_key',
        );
        return row ? { account: toAccount(row), keyId: row.key_id } : null;
      }),
    listKeys: (accountId) =>
      guard(async () =>
        (
          await queryRows<KeyRow>(
            pool,
            `SELECT id, account_id, prefix, name, created_at, revoked_at FROM ${s}.api_keys WHERE account_id = $1 ORDER BY created_at, id COLLATE "C"`,
            [accountId],
          )
        ).map(toKey),
      ),
    revokeKey: (accountId, keyId, now) =>
      guard(async () => {
        const res = await pool.query(`UPDATE ${s}.api_keys SET revoked_at = $3 WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL`, [
          keyId,
          accountId,
          iso(now),
        ]);
        return res.rowCount === 1;
      }),
  };
}
