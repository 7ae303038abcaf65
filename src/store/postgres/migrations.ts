import type { PoolClient } from 'pg';

/**
 * Versioned schema migrations for PostgreSQL. `{s}` is replaced by the quoted schema name.
 * Each runs once, in order, in one transaction under an advisory lock, so several
 * instances starting together migrate exactly once.
 */
export const POSTGRES_MIGRATIONS: ReadonlyArray<{ version: number; sql: string }> = [
  {
    version: 1,
    sql: `
      CREATE TABLE {s}.accounts (
        id TEXT PRIMARY KEY,
        name TEXT,
        plan TEXT NOT NULL,
        bought_balance BIGINT NOT NULL DEFAULT 0 CHECK (bought_balance >= 0),
        created_at TEXT NOT NULL
      );
      CREATE TABLE {s}.api_keys (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES {s}.accounts(id),
        hash TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL,
        name TEXT,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      );
      CREATE INDEX api_keys_account ON {s}.api_keys(account_id);
      CREATE TABLE {s}.month_usage (
        account_id TEXT NOT NULL,
        period TEXT NOT NULL,
        plan_used BIGINT NOT NULL DEFAULT 0 CHECK (plan_used >= 0),
        PRIMARY KEY (account_id, period)
      );
      CREATE TABLE {s}.ledger (
        seq BIGSERIAL UNIQUE,
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('charge', 'refund', 'purchase')),
        source TEXT NOT NULL CHECK (source IN ('plan', 'credit')),
        amount BIGINT NOT NULL CHECK (amount > 0),
        period TEXT NOT NULL,
        operation TEXT NOT NULL,
        charge_id TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX ledger_account ON {s}.ledger(account_id, created_at, seq);
      CREATE INDEX ledger_charge ON {s}.ledger(charge_id);
      CREATE TABLE {s}.slots (
        account_id TEXT NOT NULL,
        slot_id TEXT NOT NULL,
        expires_at BIGINT NOT NULL,
        PRIMARY KEY (account_id, slot_id)
      );
      CREATE TABLE {s}.cache (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        expires_at BIGINT NOT NULL
      );
      CREATE INDEX cache_expiry ON {s}.cache(expires_at);
    `,
  },
];

/** Creates the schema when missing and applies every migration not yet applied. */
export async function migratePostgres(client: PoolClient, schema: string): Promise<number[]> {
  const s = quoteIdent(schema);
  const applied: number[] = [];
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`pith:migrate:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${s}.schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
    const done = new Set((await client.query<{ version: number }>(`SELECT version FROM ${s}.schema_migrations`)).rows.map((r) => r.version));
    for (const m of POSTGRES_MIGRATIONS) {
      if (done.has(m.version)) continue;
      await client.query(m.sql.replaceAll('{s}', s));
      await client.query(`INSERT INTO ${s}.schema_migrations (version) VALUES ($1)`, [m.version]);
      applied.push(m.version);
    }
    await client.query('COMMIT');
    return applied;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Schema names are plain lower-case identifiers; anything else is refused, not escaped. */
export function quoteIdent(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid PostgreSQL schema name "${schema}"`);
  return `"${schema}"`;
}
