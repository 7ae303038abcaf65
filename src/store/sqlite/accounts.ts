import type Database from 'better-sqlite3';
import type { AccountRow, KeyRow } from '../rows.js';
import { iso, toAccount, toKey } from '../rows.js';
import type { Account, AccountStore } from '../types.js';
import { durably, guard } from './db.js';

export function sqliteAccounts(db: Database.Database): AccountStore {
  const insertAccount = db.prepare('INSERT INTO accounts (id, name, plan, created_at) VALUES (?, ?, ?, ?)');
  const selectAccount = db.prepare('SELECT id, name, plan, created_at FROM accounts WHERE id = ?');
  const updatePlan = db.prepare('UPDATE accounts SET plan = ? WHERE id = ?');
  const insertKey = db.prepare('INSERT INTO api_keys (id, account_id, hash, prefix, name, created_at) VALUES (?, ?, ?, ?, ?, ?)');
  const selectByHash = db.prepare(
    `SELECT a.id, a.name, a.plan, a.created_at, k.id AS key_id
       FROM api_keys k JOIN accounts a ON a.id = k.account_id
      WHERE k.hash = ? AND k.revoked_at IS NULL`,
  );
  const selectKeys = db.prepare(
    'SELECT id, account_id, prefix, name, created_at, revoked_at FROM api_keys WHERE account_id = ? ORDER BY created_at, id',
  );
  const revoke = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at IS NULL');
  const keyLookups = new KeyLookupCache(db);
  return {
    async createAccount({ id, plan, name, now }) {
      return guard(() => {
        durably(db, () => insertAccount.run(id, name, plan, iso(now)));
        return toAccount(selectAccount.get(id) as AccountRow);
      });
    },
    async getAccount(id) {
      return guard(() => {
        const row = selectAccount.get(id) as AccountRow | undefined;
        return row ? toAccount(row) : null;
      });
    },
    async setPlan(id, plan) {
      return guard(() => {
        durably(db, () => updatePlan.run(plan, id));
        keyLookups.clear();
        const row = selectAccount.get(id) as AccountRow | undefined;
        return row ? toAccount(row) : null;
      });
    },
    async createKey({ id, accountId, hash, prefix, name, now }) {
      return guard(() => {
        durably(db, () => insertKey.run(id, accountId, hash, prefix, name, iso(now)));
        return toKey({ id, account_id: accountId, prefix, name, created_at: iso(now), revoked_at: null });
      });
    },
    async findByKeyHash(hash) {
      return guard(() => {
        const known = keyLookups.get(hash);
        if (known) return known;
        const row = selectByHash.get(hash) as (AccountRow & { key_id: string }) | undefined;
        if (!row) return null; // unknown keys are not remembered: a new key works at once
        return keyLookups.set(hash, { account: Object.freeze(toAccount(row)), keyId: row.key_id });
      });
    },
    async listKeys(accountId) {
      return guard(() => (selectKeys.all(accountId) as KeyRow[]).map(toKey));
    },
    async revokeKey(accountId, keyId, now) {
      return guard(() => {
        const revoked = durably(db, () => revoke.run(iso(now), keyId, accountId).changes === 1);
        keyLookups.clear();
        return revoked;
      });
    },
  };
}

type KeyLookup = { account: Account; keyId: string };

/**
 * API key → account, remembered while the database is unchanged by anyone else. Every
 * authenticated request looks its key up, and under load that read cost more than the
 * charge (bench/README.md § Server). `PRAGMA data_version` changes whenever another
 * connection (the CLI, another process) commits, which empties this cache; this store's
 * own plan changes and revocations empty it directly. The version is read once per
 * event-loop turn, so a revoked key or a changed plan is seen from the next turn on: by
 * any request sent after the change was committed.
 */
class KeyLookupCache {
  private static readonly MAX_ENTRIES = 10_000;
  private readonly dataVersion: Database.Statement;
  private seenVersion: unknown = null;
  private checkedThisTurn = false;
  private readonly entries = new Map<string, KeyLookup>();

  constructor(db: Database.Database) {
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
  }

  get(hash: string): KeyLookup | undefined {
    if (!this.checkedThisTurn) {
      // Once per event-loop turn: the pragma costs about what the lookup does, and a commit
      // elsewhere that precedes a request's arrival precedes the turn that reads it.
      this.checkedThisTurn = true;
      setImmediate(() => {
        this.checkedThisTurn = false;
      });
      const version = this.dataVersion.get();
      if (version !== this.seenVersion) {
        this.entries.clear();
        this.seenVersion = version;
        return undefined;
      }
    }
    return this.entries.get(hash);
  }

  set(hash: string, lookup: KeyLookup): KeyLookup {
    if (this.entries.size >= KeyLookupCache.MAX_ENTRIES) this.entries.clear();
    this.entries.set(hash, lookup);
    return lookup;
  }

  clear(): void {
    this.entries.clear();
  }
}
