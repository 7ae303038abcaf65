import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Stores } from '../types.js';
import { sqliteAccounts } from './accounts.js';
import { sqliteCache } from './cache.js';
import { guard, toStoreError } from './db.js';
import { GroupCommit } from './group-commit.js';
import { sqliteIdempotency } from './idempotency.js';
import { sqliteLedger } from './ledger.js';
import { migrate } from './migrations.js';
import { sqliteSlots } from './slots.js';

/**
 * Embedded default: one SQLite file (WAL) under DATA_DIR. better-sqlite3 is synchronous;
 * the interfaces are async so every backend looks the same. Each charge, refund and slot
 * acquire or release is atomic on its own (a savepoint); the writes of one event-loop turn
 * share one IMMEDIATE transaction (group commit, ./group-commit.ts), which also serialises
 * writers across processes.
 */
export function openSqliteStores(dataDir: string): Stores {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, 'pith.sqlite'));
  db.pragma('journal_mode = WAL');
  // NORMAL for the hot path; the writes a power loss must not undo commit with FULL
  // (db.ts durably(): purchases, accounts, keys, plan changes)
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  migrate(db);
  const writes = new GroupCommit(db, toStoreError);
  const idempotency = sqliteIdempotency(db, writes);
  return {
    accounts: sqliteAccounts(db),
    ledger: sqliteLedger(db, writes, idempotency),
    idempotency,
    slots: sqliteSlots(db, writes),
    cache: sqliteCache(db),
    async ping() {
      guard(() => db.prepare('SELECT 1').get());
    },
    async close() {
      if (!db.open) return;
      writes.flush(); // queued writes commit before the file closes
      db.close();
    },
  };
}
