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
  {
    // One round trip per charge, refund and slot acquire: the per-account row lock is held
    // only while PostgreSQL runs the function, not across client round trips. Same logic
    // as before: conditional upsert / UPDATE … RETURNING re-checked on the locked row.
    version: 2,
    sql: `
      CREATE FUNCTION {s}.pith_charge(
        p_account TEXT, p_period TEXT, p_amount BIGINT, p_limit BIGINT, p_allow_bought BOOLEAN,
        p_charge_id TEXT, p_operation TEXT, p_created_at TEXT,
        OUT o_ok BOOLEAN, OUT o_source TEXT, OUT o_plan_used BIGINT, OUT o_bought_balance BIGINT)
      LANGUAGE plpgsql AS $fn$
      BEGIN
        o_ok := false;
        IF p_limit IS NULL OR p_amount <= p_limit THEN
          INSERT INTO {s}.month_usage AS m (account_id, period, plan_used) VALUES (p_account, p_period, p_amount)
          ON CONFLICT (account_id, period) DO UPDATE SET plan_used = m.plan_used + EXCLUDED.plan_used
            WHERE p_limit IS NULL OR m.plan_used + EXCLUDED.plan_used <= p_limit;
          IF FOUND THEN o_source := 'plan'; END IF;
        END IF;
        IF o_source IS NULL AND p_allow_bought THEN
          UPDATE {s}.accounts AS a SET bought_balance = a.bought_balance - p_amount
           WHERE a.id = p_account AND a.bought_balance >= p_amount;
          IF FOUND THEN o_source := 'credit'; END IF;
        END IF;
        IF o_source IS NOT NULL THEN
          INSERT INTO {s}.ledger (id, account_id, kind, source, amount, period, operation, charge_id, created_at)
          VALUES (p_charge_id, p_account, 'charge', o_source, p_amount, p_period, p_operation, p_charge_id, p_created_at);
          o_ok := true;
        END IF;
        o_plan_used := COALESCE((SELECT m.plan_used FROM {s}.month_usage m WHERE m.account_id = p_account AND m.period = p_period), 0);
        o_bought_balance := COALESCE((SELECT a.bought_balance FROM {s}.accounts a WHERE a.id = p_account), 0);
      END
      $fn$;

      CREATE FUNCTION {s}.pith_refund(
        p_refund_id TEXT, p_charge_id TEXT, p_amount BIGINT, p_created_at TEXT,
        OUT o_applied BOOLEAN, OUT o_source TEXT, OUT o_plan_used BIGINT, OUT o_bought_balance BIGINT)
      LANGUAGE plpgsql AS $fn$
      DECLARE
        chg {s}.ledger%ROWTYPE;
        v_amount BIGINT;
      BEGIN
        o_applied := false;
        -- Locking the charge row serialises every refund of this charge, across instances;
        -- the statements below take fresh snapshots and so see the refunds committed before.
        SELECT * INTO chg FROM {s}.ledger l WHERE l.id = p_charge_id AND l.kind = 'charge' FOR UPDATE;
        IF NOT FOUND THEN
          o_plan_used := 0;
          o_bought_balance := 0;
          RETURN;
        END IF;
        o_source := chg.source;
        IF NOT EXISTS (SELECT 1 FROM {s}.ledger l WHERE l.id = p_refund_id) THEN
          v_amount := LEAST(p_amount, chg.amount - COALESCE(
            (SELECT SUM(l.amount) FROM {s}.ledger l WHERE l.charge_id = p_charge_id AND l.kind = 'refund'), 0));
          IF v_amount > 0 THEN
            IF chg.source = 'plan' THEN
              UPDATE {s}.month_usage m SET plan_used = m.plan_used - v_amount
               WHERE m.account_id = chg.account_id AND m.period = chg.period;
            ELSE
              UPDATE {s}.accounts a SET bought_balance = a.bought_balance + v_amount WHERE a.id = chg.account_id;
            END IF;
            INSERT INTO {s}.ledger (id, account_id, kind, source, amount, period, operation, charge_id, created_at)
            VALUES (p_refund_id, chg.account_id, 'refund', chg.source, v_amount, chg.period, chg.operation, p_charge_id, p_created_at);
            o_applied := true;
          END IF;
        END IF;
        o_plan_used := COALESCE((SELECT m.plan_used FROM {s}.month_usage m WHERE m.account_id = chg.account_id AND m.period = chg.period), 0);
        o_bought_balance := COALESCE((SELECT a.bought_balance FROM {s}.accounts a WHERE a.id = chg.account_id), 0);
      END
      $fn$;

      CREATE FUNCTION {s}.pith_acquire_slot(
        p_lock TEXT, p_account TEXT, p_slot TEXT, p_limit BIGINT, p_now BIGINT, p_expires BIGINT,
        OUT o_acquired BOOLEAN, OUT o_in_flight BIGINT)
      LANGUAGE plpgsql AS $fn$
      BEGIN
        PERFORM pg_advisory_xact_lock(hashtextextended(p_lock, 0));
        DELETE FROM {s}.slots sl WHERE sl.account_id = p_account AND sl.expires_at <= p_now;
        SELECT COUNT(*) INTO o_in_flight FROM {s}.slots sl WHERE sl.account_id = p_account AND sl.slot_id <> p_slot;
        o_acquired := o_in_flight < p_limit;
        IF o_acquired THEN
          INSERT INTO {s}.slots AS sl (account_id, slot_id, expires_at) VALUES (p_account, p_slot, p_expires)
          ON CONFLICT (account_id, slot_id) DO UPDATE SET expires_at = EXCLUDED.expires_at;
          o_in_flight := o_in_flight + 1;
        END IF;
      END
      $fn$;
    `,
  },
  {
    // Charges are open until their call delivers (settled) or fails (refunded); a sweeper
    // refunds those a dead instance left open. A refund of a closed charge does nothing.
    // Idempotency keys live beside the ledger so a settle and the answer it replays
    // commit in one transaction.
    version: 3,
    sql: `
      ALTER TABLE {s}.ledger ADD COLUMN state TEXT CHECK (state IN ('open', 'settled', 'refunded'));
      UPDATE {s}.ledger SET state = 'settled' WHERE kind = 'charge';
      CREATE INDEX ledger_open ON {s}.ledger(created_at) WHERE state = 'open';

      CREATE OR REPLACE FUNCTION {s}.pith_charge(
        p_account TEXT, p_period TEXT, p_amount BIGINT, p_limit BIGINT, p_allow_bought BOOLEAN,
        p_charge_id TEXT, p_operation TEXT, p_created_at TEXT,
        OUT o_ok BOOLEAN, OUT o_source TEXT, OUT o_plan_used BIGINT, OUT o_bought_balance BIGINT)
      LANGUAGE plpgsql AS $fn$
      BEGIN
        o_ok := false;
        IF p_limit IS NULL OR p_amount <= p_limit THEN
          INSERT INTO {s}.month_usage AS m (account_id, period, plan_used) VALUES (p_account, p_period, p_amount)
          ON CONFLICT (account_id, period) DO UPDATE SET plan_used = m.plan_used + EXCLUDED.plan_used
            WHERE p_limit IS NULL OR m.plan_used + EXCLUDED.plan_used <= p_limit;
          IF FOUND THEN o_source := 'plan'; END IF;
        END IF;
        IF o_source IS NULL AND p_allow_bought THEN
          UPDATE {s}.accounts AS a SET bought_balance = a.bought_balance - p_amount
           WHERE a.id = p_account AND a.bought_balance >= p_amount;
          IF FOUND THEN o_source := 'credit'; END IF;
        END IF;
        IF o_source IS NOT NULL THEN
          INSERT INTO {s}.ledger (id, account_id, kind, source, amount, period, operation, charge_id, created_at, state)
          VALUES (p_charge_id, p_account, 'charge', o_source, p_amount, p_period, p_operation, p_charge_id, p_created_at, 'open');
          o_ok := true;
        END IF;
        o_plan_used := COALESCE((SELECT m.plan_used FROM {s}.month_usage m WHERE m.account_id = p_account AND m.period = p_period), 0);
        o_bought_balance := COALESCE((SELECT a.bought_balance FROM {s}.accounts a WHERE a.id = p_account), 0);
      END
      $fn$;

      -- Gives back up to p_amount of an open charge (locked by the caller). Returns what it gave.
      CREATE FUNCTION {s}.pith_give_back(chg {s}.ledger, p_refund_id TEXT, p_amount BIGINT, p_created_at TEXT)
      RETURNS BIGINT LANGUAGE plpgsql AS $fn$
      DECLARE
        v_amount BIGINT;
      BEGIN
        IF EXISTS (SELECT 1 FROM {s}.ledger l WHERE l.id = p_refund_id) THEN RETURN 0; END IF;
        v_amount := LEAST(p_amount, chg.amount - COALESCE(
          (SELECT SUM(l.amount) FROM {s}.ledger l WHERE l.charge_id = chg.id AND l.kind = 'refund'), 0));
        IF v_amount <= 0 THEN RETURN 0; END IF;
        IF chg.source = 'plan' THEN
          UPDATE {s}.month_usage m SET plan_used = m.plan_used - v_amount WHERE m.account_id = chg.account_id AND m.period = chg.period;
        ELSE
          UPDATE {s}.accounts a SET bought_balance = a.bought_balance + v_amount WHERE a.id = chg.account_id;
        END IF;
        INSERT INTO {s}.ledger (id, account_id, kind, source, amount, period, operation, charge_id, created_at)
        VALUES (p_refund_id, chg.account_id, 'refund', chg.source, v_amount, chg.period, chg.operation, chg.id, p_created_at);
        RETURN v_amount;
      END
      $fn$;

      CREATE OR REPLACE FUNCTION {s}.pith_refund(
        p_refund_id TEXT, p_charge_id TEXT, p_amount BIGINT, p_created_at TEXT,
        OUT o_applied BOOLEAN, OUT o_source TEXT, OUT o_plan_used BIGINT, OUT o_bought_balance BIGINT)
      LANGUAGE plpgsql AS $fn$
      DECLARE
        chg {s}.ledger%ROWTYPE;
      BEGIN
        o_applied := false;
        -- Locking the charge row serialises every refund and settle of this charge, across instances.
        SELECT * INTO chg FROM {s}.ledger l WHERE l.id = p_charge_id AND l.kind = 'charge' FOR UPDATE;
        IF NOT FOUND THEN
          o_plan_used := 0;
          o_bought_balance := 0;
          RETURN;
        END IF;
        o_source := chg.source;
        IF chg.state = 'open' THEN
          o_applied := {s}.pith_give_back(chg, p_refund_id, p_amount, p_created_at) > 0;
        END IF;
        o_plan_used := COALESCE((SELECT m.plan_used FROM {s}.month_usage m WHERE m.account_id = chg.account_id AND m.period = chg.period), 0);
        o_bought_balance := COALESCE((SELECT a.bought_balance FROM {s}.accounts a WHERE a.id = chg.account_id), 0);
      END
      $fn$;

      CREATE FUNCTION {s}.pith_settle(
        p_charge_id TEXT, p_keep BIGINT, p_refund_id TEXT, p_created_at TEXT,
        OUT o_applied BOOLEAN, OUT o_refunded BIGINT, OUT o_source TEXT, OUT o_plan_used BIGINT, OUT o_bought_balance BIGINT)
      LANGUAGE plpgsql AS $fn$
      DECLARE
        chg {s}.ledger%ROWTYPE;
        v_left BIGINT;
        v_kept BIGINT;
      BEGIN
        o_applied := false;
        o_refunded := 0;
        SELECT * INTO chg FROM {s}.ledger l WHERE l.id = p_charge_id AND l.kind = 'charge' FOR UPDATE;
        IF NOT FOUND THEN
          o_plan_used := 0;
          o_bought_balance := 0;
          RETURN;
        END IF;
        o_source := chg.source;
        IF chg.state = 'open' THEN
          v_left := chg.amount - COALESCE((SELECT SUM(l.amount) FROM {s}.ledger l WHERE l.charge_id = chg.id AND l.kind = 'refund'), 0);
          v_kept := LEAST(GREATEST(p_keep, 0), v_left);
          IF v_left - v_kept > 0 THEN
            o_refunded := {s}.pith_give_back(chg, p_refund_id, v_left - v_kept, p_created_at);
          END IF;
          UPDATE {s}.ledger l SET state = CASE WHEN v_kept > 0 THEN 'settled' ELSE 'refunded' END WHERE l.id = chg.id;
          o_applied := true;
        END IF;
        o_plan_used := COALESCE((SELECT m.plan_used FROM {s}.month_usage m WHERE m.account_id = chg.account_id AND m.period = chg.period), 0);
        o_bought_balance := COALESCE((SELECT a.bought_balance FROM {s}.accounts a WHERE a.id = chg.account_id), 0);
      END
      $fn$;

      CREATE TABLE {s}.idempotency_keys (
        account_id TEXT NOT NULL,
        key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        claimed_at BIGINT NOT NULL,
        status INTEGER,
        headers TEXT,
        body TEXT,
        PRIMARY KEY (account_id, key)
      );
      CREATE INDEX idempotency_created ON {s}.idempotency_keys(created_at);
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
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${s}.schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`,
    );
    const done = new Set(
      (await client.query<{ version: number }>(`SELECT version FROM ${s}.schema_migrations`)).rows.map((r) => r.version),
    );
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
