import type Database from 'better-sqlite3';
import type { IdempotencyRow } from '../ledger-check.js';
import { storedResponseOf } from '../ledger-check.js';
import type { IdempotencyClaim, IdempotencyStore, StoredResponse } from '../types.js';
import { guard } from './db.js';
import type { GroupCommit } from './group-commit.js';

/** The idempotency store, plus the statement the ledger's settle runs inside its own transaction. */
export interface SqliteIdempotency extends IdempotencyStore {
  store(accountId: string, key: string, response: StoredResponse): void;
}

export function sqliteIdempotency(db: Database.Database, writes: GroupCommit): SqliteIdempotency {
  const select = db.prepare(
    'SELECT fingerprint, created_at, claimed_at, status, headers, body FROM idempotency_keys WHERE account_id = ? AND key = ?',
  );
  const upsert = db.prepare(
    `INSERT OR REPLACE INTO idempotency_keys (account_id, key, fingerprint, created_at, claimed_at, status, headers, body)
     VALUES (?, ?, ?, ?, ?, NULL, NULL, NULL)`,
  );
  const reclaim = db.prepare('UPDATE idempotency_keys SET claimed_at = ? WHERE account_id = ? AND key = ?');
  const save = db.prepare('UPDATE idempotency_keys SET status = ?, headers = ?, body = ? WHERE account_id = ? AND key = ?');
  const purge = db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?');
  const remove = db.prepare('DELETE FROM idempotency_keys WHERE account_id = ? AND key = ? AND status IS NULL');

  const claimTx = db.transaction((input: Parameters<IdempotencyStore['claim']>[0]): IdempotencyClaim => {
    const row = select.get(input.accountId, input.key) as IdempotencyRow | undefined;
    if (row && Number(row.created_at) > input.now - input.expiresAfterMs) {
      if (row.fingerprint !== input.fingerprint) return { state: 'mismatch' };
      const response = storedResponseOf(row);
      if (response) return { state: 'done', response };
      if (Number(row.claimed_at) > input.now - input.staleAfterMs) return { state: 'in_progress', sinceMs: Number(row.claimed_at) };
      reclaim.run(input.now, input.accountId, input.key);
      return { state: 'claimed' };
    }
    upsert.run(input.accountId, input.key, input.fingerprint, input.now, input.now);
    return { state: 'claimed' };
  });
  const store = (accountId: string, key: string, response: StoredResponse): void => {
    save.run(response.status, JSON.stringify(response.headers), response.body, accountId, key);
  };
  return {
    store,
    claim: (input) => writes.submit(() => claimTx(input)),
    async complete(input) {
      await writes.submit(() => store(input.accountId, input.key, input.response));
    },
    async release(input) {
      await writes.submit(() => remove.run(input.accountId, input.key));
    },
    async purgeExpired(before) {
      return guard(() => purge.run(before).changes);
    },
  };
}
