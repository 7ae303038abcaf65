import type Database from 'better-sqlite3';
import type { LedgerRow } from '../rows.js';
import { iso, toLedgerEntry } from '../rows.js';
import type { ChargeRequest, ChargeResult, CreditSource, LedgerStore, RefundRequest, RefundResult } from '../types.js';
import { guard } from './db.js';
import type { GroupCommit } from './group-commit.js';

export function sqliteLedger(db: Database.Database, writes: GroupCommit): LedgerStore {
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
    const charge = selectEntry.get(req.chargeId) as LedgerRow<number> | undefined;
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
      return guard(() => (selectEntries.all(accountId) as LedgerRow[]).map(toLedgerEntry));
    },
  };
}
