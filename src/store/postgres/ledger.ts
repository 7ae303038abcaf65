import type { PoolClient } from 'pg';
import type { CounterSums, OpenChargeRow } from '../ledger-check.js';
import { closingRefundId, compareCounters, toOpenCharge } from '../ledger-check.js';
import type { LedgerRow } from '../rows.js';
import { iso, toLedgerEntry } from '../rows.js';
import type {
  ChargeRequest,
  ChargeResult,
  CreditSource,
  LedgerStore,
  RefundRequest,
  RefundResult,
  SettleRequest,
  SettleResult,
} from '../types.js';
import type { PgPool } from './db.js';
import { guard, num, queryRows, transaction } from './db.js';
import { storeResponseSql } from './idempotency.js';

interface FnRow {
  o_source: CreditSource | null;
  o_plan_used: string;
  o_bought_balance: string;
}
interface Usage {
  planUsed: number;
  boughtBalance: number;
}

/**
 * Credits ledger and counters. A charge or refund is one transaction — one call of a
 * PL/pgSQL function (migrations.ts, version 2) — whose decisive step is a conditional upsert
 * or `UPDATE … WHERE balance >= amount`: PostgreSQL re-checks the condition on the newest
 * row version after waiting for the row lock, so instances racing for the last credit can
 * never overspend, and the lock is held for microseconds, not client round trips. Lock
 * order is month_usage → accounts (charge) and ledger(charge row) → one counter (refund),
 * so the two never deadlock.
 */
export function postgresLedger(pool: PgPool, s: string, schema: string): LedgerStore {
  const usage = async (db: PgPool | PoolClient, accountId: string, period: string): Promise<Usage> => {
    const [row] = await queryRows<{ plan_used: string | null; bought_balance: string | null }>(
      db,
      `SELECT (SELECT plan_used FROM ${s}.month_usage WHERE account_id = $1 AND period = $2) AS plan_used,
              (SELECT bought_balance FROM ${s}.accounts WHERE id = $1) AS bought_balance`,
      [accountId, period],
      'pith_usage',
    );
    return { planUsed: num(row?.plan_used), boughtBalance: num(row?.bought_balance) };
  };

  /** Inserts one ledger row and reads the counters after it, in one round trip. */
  const record = async (c: PoolClient, e: LedgerRow): Promise<Usage> => {
    const [row] = await queryRows<{ plan_used: string | null; bought_balance: string | null }>(
      c,
      `WITH entry AS (
         INSERT INTO ${s}.ledger (id, account_id, kind, source, amount, period, operation, charge_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       )
       SELECT (SELECT plan_used FROM ${s}.month_usage WHERE account_id = $2 AND period = $6) AS plan_used,
              (SELECT bought_balance FROM ${s}.accounts WHERE id = $2) AS bought_balance`,
      [e.id, e.account_id, e.kind, e.source, e.amount, e.period, e.operation, e.charge_id, e.created_at],
    );
    return { planUsed: num(row?.plan_used), boughtBalance: num(row?.bought_balance) };
  };

  // pith_charge / pith_refund (migration 2) run the whole transaction server-side.
  const charge = (req: ChargeRequest): Promise<ChargeResult> =>
    guard(async () => {
      const [row] = await queryRows<FnRow & { o_ok: boolean }>(
        pool,
        `SELECT * FROM ${s}.pith_charge($1, $2, $3, $4, $5, $6, $7, $8)`,
        [req.accountId, req.period, req.amount, req.planLimit, req.allowBought, req.chargeId, req.operation, iso(req.now)],
        'pith_charge',
      );
      if (!row) throw new Error('pith_charge returned no row');
      const usage = { planUsed: num(row.o_plan_used), boughtBalance: num(row.o_bought_balance) };
      return row.o_ok && row.o_source !== null
        ? { ok: true, source: row.o_source, ...usage }
        : { ok: false, reason: 'insufficient', ...usage };
    });

  const refund = (req: RefundRequest): Promise<RefundResult> =>
    guard(async () => {
      const [row] = await queryRows<FnRow & { o_applied: boolean }>(
        pool,
        `SELECT * FROM ${s}.pith_refund($1, $2, $3, $4)`,
        [req.refundId, req.chargeId, req.amount, iso(req.now)],
        'pith_refund',
      );
      if (!row) throw new Error('pith_refund returned no row');
      return { applied: row.o_applied, source: row.o_source, planUsed: num(row.o_plan_used), boughtBalance: num(row.o_bought_balance) };
    });

  type SettleRow = FnRow & { o_applied: boolean; o_refunded: string };
  const settleSql = `SELECT * FROM ${s}.pith_settle($1, $2, $3, $4)`;
  const toSettle = (row: SettleRow | undefined): SettleResult => {
    if (!row) throw new Error('pith_settle returned no row');
    return {
      applied: row.o_applied,
      refunded: num(row.o_refunded),
      source: row.o_source,
      planUsed: num(row.o_plan_used),
      boughtBalance: num(row.o_bought_balance),
    };
  };
  const settle = (req: SettleRequest): Promise<SettleResult> => {
    const params = [req.chargeId, req.keep, closingRefundId(req.chargeId), iso(req.now)];
    const idem = req.idempotent;
    if (!idem) return guard(async () => toSettle((await queryRows<SettleRow>(pool, settleSql, params, 'pith_settle'))[0]));
    // the answer an Idempotency-Key replays commits with the settle, or neither does
    return transaction(pool, async (c) => {
      const result = toSettle((await queryRows<SettleRow>(c, settleSql, params))[0]);
      const r = idem.response;
      await c.query(storeResponseSql(s), [idem.accountId, idem.key, r.status, JSON.stringify(r.headers), r.body]);
      return { commit: true, value: result };
    });
  };

  const openChargesSql = `SELECT l.id, l.account_id, l.amount, l.source, l.operation, l.created_at,
            COALESCE((SELECT SUM(r.amount) FROM ${s}.ledger r WHERE r.charge_id = l.id AND r.kind = 'refund'), 0) AS refunded
       FROM ${s}.ledger l WHERE l.state = 'open' AND l.created_at < $1 ORDER BY l.created_at LIMIT $2`;

  return {
    charge,
    refund,
    settle,
    // One sweep at a time across instances: the advisory lock is tried, never waited for.
    sweepOpenCharges: (input) =>
      transaction(pool, async (c) => {
        const [lock] = await queryRows<{ ok: boolean }>(c, 'SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS ok', [
          `pith:sweep:${schema}`,
        ]);
        if (!lock?.ok) return { commit: false, value: [] };
        const open = (
          await queryRows<OpenChargeRow>(c, `${openChargesSql} FOR UPDATE OF l SKIP LOCKED`, [iso(input.openedBefore), input.limit])
        ).map(toOpenCharge);
        for (const charge of open) await c.query(settleSql, [charge.chargeId, 0, closingRefundId(charge.chargeId), iso(input.now)]);
        return { commit: true, value: open };
      }),
    verify: () =>
      transaction(pool, async (c) => {
        // one snapshot for every query below
        await c.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
        const sums: CounterSums = {
          planFromLedger: await queryRows(
            c,
            `SELECT account_id, period, SUM(CASE kind WHEN 'charge' THEN amount ELSE -amount END) AS total
               FROM ${s}.ledger WHERE source = 'plan' AND kind IN ('charge', 'refund') GROUP BY account_id, period`,
          ),
          planStored: await queryRows(c, `SELECT account_id, period, plan_used FROM ${s}.month_usage`),
          boughtFromLedger: await queryRows(
            c,
            `SELECT account_id, SUM(CASE kind WHEN 'charge' THEN -amount ELSE amount END) AS total
               FROM ${s}.ledger WHERE source = 'credit' GROUP BY account_id`,
          ),
          boughtStored: await queryRows(c, `SELECT id, bought_balance FROM ${s}.accounts`),
        };
        const open = (await queryRows<OpenChargeRow>(c, openChargesSql, ['9999', Number.MAX_SAFE_INTEGER])).map(toOpenCharge);
        return { commit: false, value: compareCounters(sums, open) };
      }),
    addBoughtCredits: (input) =>
      transaction<{ balance: number; applied: boolean }>(pool, async (c) => {
        // the account row lock serialises purchases of one account; a known entry id adds nothing
        const [acc] = await queryRows<{ bought_balance: string }>(c, `SELECT bought_balance FROM ${s}.accounts WHERE id = $1 FOR UPDATE`, [
          input.accountId,
        ]);
        const [known] = await queryRows<{ id: string }>(c, `SELECT id FROM ${s}.ledger WHERE id = $1`, [input.entryId]);
        if (known) return { commit: false, value: { balance: num(acc?.bought_balance), applied: false } };
        await c.query(`UPDATE ${s}.accounts SET bought_balance = bought_balance + $2 WHERE id = $1`, [input.accountId, input.amount]);
        const after = await record(c, {
          id: input.entryId,
          account_id: input.accountId,
          kind: 'purchase',
          source: 'credit',
          amount: input.amount,
          period: iso(input.now).slice(0, 7),
          operation: input.reason,
          charge_id: null,
          created_at: iso(input.now),
        });
        return { commit: true, value: { balance: after.boughtBalance, applied: true } };
      }),
    getUsage: (accountId, period) => guard(() => usage(pool, accountId, period)),
    listEntries: (accountId) =>
      guard(async () =>
        (await queryRows<LedgerRow>(pool, `SELECT * FROM ${s}.ledger WHERE account_id = $1 ORDER BY created_at, seq`, [accountId])).map(
          toLedgerEntry,
        ),
      ),
  };
}
