import type Database from 'better-sqlite3';
import type { CounterSums, OpenChargeRow } from '../ledger-check.js';
import { closingRefundId, compareCounters, toOpenCharge } from '../ledger-check.js';
import type { LedgerRow } from '../rows.js';
import { iso, toLedgerEntry } from '../rows.js';
import type {
  ChargeRequest,
  ChargeResult,
  CreditSource,
  LedgerStore,
  OpenCharge,
  RefundRequest,
  RefundResult,
  SettleRequest,
  SettleResult,
} from '../types.js';
import { durably, guard } from './db.js';
import type { GroupCommit } from './group-commit.js';
import type { SqliteIdempotency } from './idempotency.js';

type ChargeRow = LedgerRow<number> & { state: string | null };

export function sqliteLedger(db: Database.Database, writes: GroupCommit, keys: SqliteIdempotency): LedgerStore {
  const selectMonth = db.prepare('SELECT plan_used FROM month_usage WHERE account_id = ? AND period = ?');
  const selectBalance = db.prepare('SELECT bought_balance FROM accounts WHERE id = ?');
  const addPlanUsed = db.prepare('UPDATE month_usage SET plan_used = plan_used + ? WHERE account_id = ? AND period = ?');
  const addBalance = db.prepare('UPDATE accounts SET bought_balance = bought_balance + ? WHERE id = ?');
  const insertEntry = db.prepare(
    `INSERT INTO ledger (id, account_id, kind, source, amount, period, operation, charge_id, created_at, state)
     VALUES (@id, @account_id, @kind, @source, @amount, @period, @operation, @charge_id, @created_at, @state)`,
  );
  const setState = db.prepare('UPDATE ledger SET state = ? WHERE id = ?');
  const selectOpen = db.prepare(
    `SELECT l.id, l.account_id, l.amount, l.source, l.operation, l.created_at,
            COALESCE((SELECT SUM(r.amount) FROM ledger r WHERE r.charge_id = l.id AND r.kind = 'refund'), 0) AS refunded
       FROM ledger l WHERE l.state = 'open' AND l.created_at < ? ORDER BY l.created_at LIMIT ?`,
  );
  const planFromLedger = db.prepare(
    `SELECT account_id, period, SUM(CASE kind WHEN 'charge' THEN amount ELSE -amount END) AS total
       FROM ledger WHERE source = 'plan' AND kind IN ('charge', 'refund') GROUP BY account_id, period`,
  );
  const planStored = db.prepare('SELECT account_id, period, plan_used FROM month_usage');
  const boughtFromLedger = db.prepare(
    `SELECT account_id, SUM(CASE kind WHEN 'charge' THEN -amount ELSE amount END) AS total
       FROM ledger WHERE source = 'credit' GROUP BY account_id`,
  );
  const boughtStored = db.prepare('SELECT id, bought_balance FROM accounts');
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
      state: 'open',
    });
    return source === 'plan'
      ? { ok: true, source, planUsed: planUsed + req.amount, boughtBalance }
      : { ok: true, source, planUsed, boughtBalance: boughtBalance - req.amount };
  });

  /** Returns `amount` of an open charge to its pool with a refund row; the caller checked it is due. */
  const giveBack = (charge: ChargeRow, refundId: string, amount: number, now: number): void => {
    if (charge.source === 'plan') addPlanUsed.run(-amount, charge.account_id, charge.period);
    else addBalance.run(amount, charge.account_id);
    insertEntry.run({
      id: refundId,
      account_id: charge.account_id,
      kind: 'refund',
      source: charge.source,
      amount,
      period: charge.period,
      operation: charge.operation,
      charge_id: charge.id,
      created_at: iso(now),
      state: null,
    });
  };

  const refundTx = db.transaction((req: RefundRequest): RefundResult => {
    const charge = selectEntry.get(req.chargeId) as ChargeRow | undefined;
    if (charge?.kind !== 'charge') return { applied: false, source: null, planUsed: 0, boughtBalance: 0 };
    const source = charge.source as CreditSource;
    const already = selectEntry.get(req.refundId) !== undefined;
    const refunded = (refundedSum.get(req.chargeId) as { total: number }).total;
    const amount = Math.min(req.amount, charge.amount - refunded);
    // a closed charge is final: its settle already gave back what was not delivered
    if (already || amount <= 0 || charge.state !== 'open') return { applied: false, source, ...usage(charge.account_id, charge.period) };
    giveBack(charge, req.refundId, amount, req.now);
    return { applied: true, source, ...usage(charge.account_id, charge.period) };
  });

  const settleTx = db.transaction((req: SettleRequest): SettleResult => {
    const charge = selectEntry.get(req.chargeId) as ChargeRow | undefined;
    if (charge?.kind !== 'charge') return { applied: false, refunded: 0, source: null, planUsed: 0, boughtBalance: 0 };
    const source = charge.source as CreditSource;
    if (charge.state !== 'open') return { applied: false, refunded: 0, source, ...usage(charge.account_id, charge.period) };
    const alreadyRefunded = (refundedSum.get(req.chargeId) as { total: number }).total;
    const kept = Math.min(Math.max(0, req.keep), charge.amount - alreadyRefunded);
    const remainder = charge.amount - alreadyRefunded - kept;
    if (remainder > 0) giveBack(charge, closingRefundId(charge.id), remainder, req.now);
    setState.run(kept > 0 ? 'settled' : 'refunded', charge.id);
    if (req.idempotent) keys.store(req.idempotent.accountId, req.idempotent.key, req.idempotent.response);
    return { applied: true, refunded: remainder, source, ...usage(charge.account_id, charge.period) };
  });

  const sweepTx = db.transaction((input: { openedBefore: number; now: number; limit: number }): OpenCharge[] => {
    const open = (selectOpen.all(iso(input.openedBefore), input.limit) as OpenChargeRow[]).map(toOpenCharge);
    for (const charge of open) settleTx({ chargeId: charge.chargeId, keep: 0, now: input.now });
    return open;
  });

  const purchaseTx = db.transaction((input: { accountId: string; amount: number; reason: string; entryId: string; now: number }) => {
    const balance = (): number => (selectBalance.get(input.accountId) as { bought_balance: number }).bought_balance;
    if (selectEntry.get(input.entryId) !== undefined) return { balance: balance(), applied: false };
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
      state: null,
    });
    return { balance: balance(), applied: true };
  });

  return {
    charge(req) {
      return writes.submit(() => chargeTx(req));
    },
    refund(req) {
      return writes.submit(() => refundTx(req));
    },
    async addBoughtCredits(input) {
      return guard(() => durably(db, () => purchaseTx.immediate(input)));
    },
    async getUsage(accountId, period) {
      return guard(() => usage(accountId, period));
    },
    async listEntries(accountId) {
      return guard(() => (selectEntries.all(accountId) as LedgerRow[]).map(toLedgerEntry));
    },
    settle(req) {
      return writes.submit(() => settleTx(req));
    },
    // the sweep's write transaction is SQLite's one writer lock: one sweep at a time across processes
    sweepOpenCharges(input) {
      return writes.submit(() => sweepTx(input));
    },
    async verify() {
      return guard(() =>
        db.transaction(() => {
          const sums: CounterSums = {
            planFromLedger: planFromLedger.all() as CounterSums['planFromLedger'],
            planStored: planStored.all() as CounterSums['planStored'],
            boughtFromLedger: boughtFromLedger.all() as CounterSums['boughtFromLedger'],
            boughtStored: boughtStored.all() as CounterSums['boughtStored'],
          };
          const open = (selectOpen.all('9999', Number.MAX_SAFE_INTEGER) as OpenChargeRow[]).map(toOpenCharge);
          return compareCounters(sums, open);
        })(),
      );
    },
  };
}
