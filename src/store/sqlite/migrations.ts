import type Database from 'better-sqlite3';

/** Versioned schema migrations; each runs once, in order, inside a transaction. */
export const SQLITE_MIGRATIONS: ReadonlyArray<{ version: number; sql: string }> = [
  {
    version: 1,
    sql: `
      CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        name TEXT,
        plan TEXT NOT NULL,
        bought_balance INTEGER NOT NULL DEFAULT 0 CHECK (bought_balance >= 0),
        created_at TEXT NOT NULL
      );
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id),
        hash TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL,
        name TEXT,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      );
      CREATE INDEX api_keys_account ON api_keys(account_id);
      CREATE TABLE month_usage (
        account_id TEXT NOT NULL,
        period TEXT NOT NULL,
        plan_used INTEGER NOT NULL DEFAULT 0 CHECK (plan_used >= 0),
        PRIMARY KEY (account_id, period)
      );
      CREATE TABLE ledger (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        source TEXT NOT NULL,
        amount INTEGER NOT NULL,
        period TEXT NOT NULL,
        operation TEXT NOT NULL,
        charge_id TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX ledger_account ON ledger(account_id);
      CREATE INDEX ledger_charge ON ledger(charge_id);
      CREATE TABLE slots (
        account_id TEXT NOT NULL,
        slot_id TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        PRIMARY KEY (account_id, slot_id)
      );
      CREATE TABLE cache (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX cache_expiry ON cache(expires_at);
    `,
  },
  {
    // Charges are open until their call delivers (settled) or fails (refunded); a sweeper
    // refunds the ones a dead process left open. Idempotency keys live beside the ledger so
    // a settle and the answer it replays commit together.
    version: 2,
    sql: `
      ALTER TABLE ledger ADD COLUMN state TEXT;
      UPDATE ledger SET state = 'settled' WHERE kind = 'charge';
      CREATE INDEX ledger_open ON ledger(created_at) WHERE state = 'open';
      CREATE TABLE idempotency_keys (
        account_id TEXT NOT NULL,
        key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        claimed_at INTEGER NOT NULL,
        status INTEGER,
        headers TEXT,
        body TEXT,
        PRIMARY KEY (account_id, key)
      );
      CREATE INDEX idempotency_created ON idempotency_keys(created_at);
    `,
  },
];

export function migrate(db: Database.Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
  const applied = new Set((db.prepare('SELECT version FROM schema_migrations').all() as Array<{ version: number }>).map((r) => r.version));
  for (const m of SQLITE_MIGRATIONS) {
    if (applied.has(m.version)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(m.version, new Date().toISOString());
    }).immediate();
  }
}
