import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ServiceError } from '../../errors.js';
import type {
  Account,
  AccountStore,
  CacheStore,
  ChargeRequest,
  ChargeResult,
  CreditSource,
  LedgerEntry,
  LedgerStore,
  RefundRequest,
  RefundResult,
  SlotStore,
  Stores,
} from '../types.js';
import type { AccountRow, KeyRow } from '../rows.js';
import { iso, toAccount, toKey } from '../rows.js';
import { GroupCommit } from './group-commit.js';
import { migrate } from './migrations.js';

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
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  migrate(db);
  const writes = new GroupCommit(db, toStoreError);
  return {
    accounts: sqliteAccounts(db),
    ledger: sqliteLedger(db, writes),
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

/** Maps driver failures (disk full, locked beyond busy_timeout, closed db) to SERVICE_UNAVAILABLE. */
function toStoreError(err: unknown): unknown {
  if (err instanceof ServiceError) return err;
  return new ServiceError('SERVICE_UNAVAILABLE', 'the SQLite store failed', {}, { cause: err });
}

function guard<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw toStoreError(err);
  }
}

function sqliteAccounts(db: Database.Database): AccountStore {
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
        insertAccount.run(id, name, plan, iso(now));
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
        updatePlan.run(plan, id);
        keyLookups.clear();
        const row = selectAccount.get(id) as AccountRow | undefined;
        return row ? toAccount(row) : null;
      });
    },
    async createKey({ id, accountId, hash, prefix, name, now }) {
      return guard(() => {
        insertKey.run(id, accountId, hash, prefix, name, iso(now));
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
        const revoked = revoke.run(iso(now), keyId, accountId).changes === 1;
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

function sqliteLedger(db: Database.Database, writes: GroupCommit): LedgerStore {
  const selectMonth = db.prepare('SELECT plan_used FROM month_usage WHERE account_id = ? AND period = ?');
  const selectBalance = db.prepare('SELECT bought_balance FROM accounts WHERE id = ?');
  const addPlanUsed = db.prepare('UPDATE month_usage SET plan_used = plan_used + ? WHERE account_id = ? AND period = ?');
  const addBalance = db.prepare('UPDATE accounts SET bought_balance = bought_balance + ? WHERE id = ?');
  const insertEntry = db.prepare(
    `INSERT INTO ledger (id, account_id, kind, source, amount, period, operation, charge_id, created_at)
     VALUES (@id, @account_id, @kind, @source, @amount, @period, @operation, @charge_id, @created_at)`,
  );
  const selectEntry = db.prepare('SELECT * FROM ledger WHERE id = ?');
  const refundedSum = db.prepare("SELECT COALESCE(SUM(amount), 0) AS total FROM ledger WHERE charge_id = ? AND kind = 'refund'");
  const selectEntries = db.prepare('SELECT * FROM ledger WHERE account_id = ? ORDER BY created_at, rowid');

  const usage = (accountId: string, period: string): { planUsed: number; boughtBalance: number } => {
    const month = selectMonth.get(accountId, period) as { plan_used: number } | undefined;
    const acc = selectBalance.get(accountId) as { bought_balance: number } | undefined;
    return { planUsed: month?.plan_used ?? 0, boughtBalance: acc?.bought_balance ?? 0 };
  };

  const upsertPlanUsed = db.prepare(
    `INSERT INTO month_usage (account_id, period, plan_used) VALUES (?, ?, ?)
     ON CONFLICT (account_id, period) DO UPDATE SET plan_used = plan_used + excluded.plan_used`,
  );

  // Few statements on purpose: this runs on every billable request (bench/server.ts).
  const chargeTx = db.transaction((req: ChargeRequest): ChargeResult => {
    const planUsed = (selectMonth.get(req.accountId, req.period) as { plan_used: number } | undefined)?.plan_used ?? 0;
    const boughtBalance = (selectBalance.get(req.accountId) as { bought_balance: number } | undefined)?.bought_balance ?? 0;
    let source: CreditSource;
    if (req.planLimit === null || planUsed + req.amount <= req.planLimit) source = 'plan';
    else if (req.allowBought && boughtBalance >= req.amount) source = 'credit';
    else return { ok: false, reason: 'insufficient', planUsed, boughtBalance };
    if (source === 'plan') upsertPlanUsed.run(req.accountId, req.period, req.amount);
    else addBalance.run(-req.amount, req.accountId);
    insertEntry.run({
      id: req.chargeId,
      account_id: req.accountId,
      kind: 'charge',
      source,
      amount: req.amount,
      period: req.period,
      operation: req.operation,
      charge_id: req.chargeId,
      created_at: iso(req.now),
    });
    return source === 'plan'
      ? { ok: true, source, planUsed: planUsed + req.amount, boughtBalance }
      : { ok: true, source, planUsed, boughtBalance: boughtBalance - req.amount };
  });

  const refundTx = db.transaction((req: RefundRequest): RefundResult => {
    const charge = selectEntry.get(req.chargeId) as LedgerRow | undefined;
    if (charge?.kind !== 'charge') return { applied: false, source: null, planUsed: 0, boughtBalance: 0 };
    const source = charge.source as CreditSource;
    const already = selectEntry.get(req.refundId) !== undefined;
    const refunded = (refundedSum.get(req.chargeId) as { total: number }).total;
    const amount = Math.min(req.amount, charge.amount - refunded);
    if (already || amount <= 0) return { applied: false, source, ...usage(charge.account_id, charge.period) };
    if (source === 'plan') addPlanUsed.run(-amount, charge.account_id, charge.period);
    else addBalance.run(amount, charge.account_id);
    insertEntry.run({
      id: req.refundId,
      account_id: charge.account_id,
      kind: 'refund',
      source,
      amount,
      period: charge.period,
      operation: charge.operation,
      charge_id: req.chargeId,
      created_at: iso(req.now),
    });
    return { applied: true, source, ...usage(charge.account_id, charge.period) };
  });

  const purchaseTx = db.transaction((input: { accountId: string; amount: number; reason: string; entryId: string; now: number }) => {
    addBalance.run(input.amount, input.accountId);
    const period = iso(input.now).slice(0, 7);
    insertEntry.run({
      id: input.entryId,
      account_id: input.accountId,
      kind: 'purchase',
      source: 'credit',
      amount: input.amount,
      period,
      operation: input.reason,
      charge_id: null,
      created_at: iso(input.now),
    });
    return (selectBalance.get(input.accountId) as { bought_balance: number }).bought_balance;
  });

  return {
    charge(req) {
      return writes.submit(() => chargeTx(req));
    },
    refund(req) {
      return writes.submit(() => refundTx(req));
    },
    async addBoughtCredits(input) {
      return guard(() => purchaseTx.immediate(input));
    },
    async getUsage(accountId, period) {
      return guard(() => usage(accountId, period));
    },
    async listEntries(accountId) {
      return guard(() =>
        (selectEntries.all(accountId) as LedgerRow[]).map(
          (r): LedgerEntry => ({
            id: r.id,
            accountId: r.account_id,
            kind: r.kind as LedgerEntry['kind'],
            source: r.source as CreditSource,
            amount: r.amount,
            period: r.period,
            operation: r.operation,
            chargeId: r.charge_id,
            createdAt: r.created_at,
          }),
        ),
      );
    },
  };
}

interface LedgerRow {
  id: string;
  account_id: string;
  kind: string;
  source: string;
  amount: number;
  period: string;
  operation: string;
  charge_id: string | null;
  created_at: string;
}

function sqliteSlots(db: Database.Database, writes: GroupCommit): SlotStore {
  const purge = db.prepare('DELETE FROM slots WHERE account_id = ? AND expires_at <= ?');
  const count = db.prepare('SELECT COUNT(*) AS n FROM slots WHERE account_id = ? AND expires_at > ?');
  const insert = db.prepare('INSERT OR REPLACE INTO slots (account_id, slot_id, expires_at) VALUES (?, ?, ?)');
  const remove = db.prepare('DELETE FROM slots WHERE account_id = ? AND slot_id = ?');
  const acquireTx = db.transaction((accountId: string, slotId: string, limit: number, nowMs: number, ttlMs: number) => {
    purge.run(accountId, nowMs);
    const n = (count.get(accountId, nowMs) as { n: number }).n;
    if (n >= limit) return { acquired: false, inFlight: n };
    insert.run(accountId, slotId, nowMs + ttlMs);
    return { acquired: true, inFlight: n + 1 };
  });
  return {
    acquire({ accountId, slotId, limit, nowMs, ttlMs }) {
      return writes.submit(() => acquireTx(accountId, slotId, limit, nowMs, ttlMs));
    },
    async release(accountId, slotId) {
      await writes.submit(() => remove.run(accountId, slotId));
    },
    async inFlight(accountId, nowMs) {
      return guard(() => (count.get(accountId, nowMs) as { n: number }).n);
    },
  };
}

function sqliteCache(db: Database.Database): CacheStore {
  const select = db.prepare('SELECT value FROM cache WHERE key = ? AND expires_at > ?');
  const upsert = db.prepare('INSERT OR REPLACE INTO cache (key, value, expires_at) VALUES (?, ?, ?)');
  const remove = db.prepare('DELETE FROM cache WHERE key = ?');
  const purgeExpired = db.prepare('DELETE FROM cache WHERE expires_at <= ?');
  let writes = 0;
  return {
    async get(key, nowMs) {
      return guard(() => (select.get(key, nowMs) as { value: string } | undefined)?.value ?? null);
    },
    async set(key, value, ttlMs, nowMs) {
      guard(() => {
        upsert.run(key, value, nowMs + ttlMs);
        // Expired rows are invisible to get(); sweep them now and then so the file stays bounded.
        if (++writes % 500 === 0) purgeExpired.run(nowMs);
      });
    },
    async delete(key) {
      guard(() => remove.run(key));
    },
  };
}
