import type { PoolClient } from 'pg';
import type { ChargeRequest, ChargeResult, CreditSource, LedgerEntry, LedgerStore, RefundRequest, RefundResult } from '../types.js';
import { guard, num, queryRows, transaction, type PgPool } from './db.js';

interface LedgerRow {
  id: string;
  account_id: string;
  kind: LedgerEntry['kind'];
  source: CreditSource;
  amount: string;
  period: string;
  operation: string;
  charge_id: string | null;
  created_at: string;
}
interface Usage {
  planUsed: number;
  boughtBalance: number;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * Credits ledger and counters. A charge or refund is one READ COMMITTED transaction whose
 * decisive step is a conditional `UPDATE … RETURNING` (or upsert): PostgreSQL re-checks the
 * condition on the newest row version after waiting for the row lock, so instances racing
 * for the last credit can never overspend. Lock order is month_usage → accounts (charge) and
 * ledger(charge row) → one counter (refund), so the two never deadlock.
 */
export function postgresLedger(pool: PgPool, s: string): LedgerStore {
  const usage = async (db: PgPool | PoolClient, accountId: string, period: string): Promise<Usage> => {
    const [row] = await queryRows<{ plan_used: string | null; bought_balance: string | null }>(
      db,
      `SELECT (SELECT plan_used FROM ${s}.month_usage WHERE account_id = $1 AND period = $2) AS plan_used,
              (SELECT bought_balance FROM ${s}.accounts WHERE id = $1) AS bought_balance`,
      [accountId, period],
    );
    return { planUsed: num(row?.plan_used), boughtBalance: num(row?.bought_balance) };
  };

  /** Inserts one ledger row and reads the counters after it, in one round trip. */
  const record = async (c: PoolClient, e: Omit<LedgerRow, 'amount'> & { amount: number }): Promise<Usage> => {
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

  const takePlan = async (c: PoolClient, req: ChargeRequest): Promise<boolean> => {
    // The insert covers the first charge of a month; the conflict branch re-checks the limit
    // against the locked, newest row. No row back = the plan does not cover the amount.
    const rows = await queryRows(
      c,
      `INSERT INTO ${s}.month_usage AS m (account_id, period, plan_used)
       SELECT $1, $2, $3::bigint WHERE $4::bigint IS NULL OR $3::bigint <= $4::bigint
       ON CONFLICT (account_id, period) DO UPDATE SET plan_used = m.plan_used + EXCLUDED.plan_used
         WHERE $4::bigint IS NULL OR m.plan_used + EXCLUDED.plan_used <= $4::bigint
       RETURNING plan_used`,
      [req.accountId, req.period, req.amount, req.planLimit],
    );
    return rows.length === 1;
  };

  const takeBought = async (c: PoolClient, req: ChargeRequest): Promise<boolean> => {
    const rows = await queryRows(
      c,
      `UPDATE ${s}.accounts SET bought_balance = bought_balance - $2 WHERE id = $1 AND bought_balance >= $2 RETURNING bought_balance`,
      [req.accountId, req.amount],
    );
    return rows.length === 1;
  };

  const charge = (req: ChargeRequest): Promise<ChargeResult> =>
    transaction<ChargeResult>(pool, async (c) => {
      let source: CreditSource | null = null;
      if (await takePlan(c, req)) source = 'plan';
      else if (req.allowBought && (await takeBought(c, req))) source = 'credit';
      if (source === null) {
        const now = await usage(c, req.accountId, req.period);
        return { commit: false, value: { ok: false, reason: 'insufficient', ...now } };
      }
      const after = await record(c, {
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
      return { commit: true, value: { ok: true, source, ...after } };
    });

  const refund = (req: RefundRequest): Promise<RefundResult> =>
    transaction<RefundResult>(pool, async (c) => {
      // Locking the charge row serialises every refund of this charge, across instances.
      const [chg] = await queryRows<LedgerRow>(c, `SELECT * FROM ${s}.ledger WHERE id = $1 AND kind = 'charge' FOR UPDATE`, [
        req.chargeId,
      ]);
      if (!chg) return { commit: false, value: { applied: false, source: null, planUsed: 0, boughtBalance: 0 } };
      const [state] = await queryRows<{ already: boolean; refunded: string }>(
        c,
        `SELECT EXISTS (SELECT 1 FROM ${s}.ledger WHERE id = $1) AS already,
                COALESCE((SELECT SUM(amount) FROM ${s}.ledger WHERE charge_id = $2 AND kind = 'refund'), 0) AS refunded`,
        [req.refundId, req.chargeId],
      );
      const amount = Math.min(req.amount, num(chg.amount) - num(state?.refunded));
      if (state?.already || amount <= 0) {
        return { commit: false, value: { applied: false, source: chg.source, ...(await usage(c, chg.account_id, chg.period)) } };
      }
      if (chg.source === 'plan') {
        await c.query(`UPDATE ${s}.month_usage SET plan_used = plan_used - $3 WHERE account_id = $1 AND period = $2`, [
          chg.account_id,
          chg.period,
          amount,
        ]);
      } else {
        await c.query(`UPDATE ${s}.accounts SET bought_balance = bought_balance + $2 WHERE id = $1`, [chg.account_id, amount]);
      }
      const after = await record(c, {
        id: req.refundId,
        account_id: chg.account_id,
        kind: 'refund',
        source: chg.source,
        amount,
        period: chg.period,
        operation: chg.operation,
        charge_id: req.chargeId,
        created_at: iso(req.now),
      });
      return { commit: true, value: { applied: true, source: chg.source, ...after } };
    });

  return {
    charge,
    refund,
    addBoughtCredits: (input) =>
      transaction(pool, async (c) => {
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
        return { commit: true, value: after.boughtBalance };
      }),
    getUsage: (accountId, period) => guard(() => usage(pool, accountId, period)),
    listEntries: (accountId) =>
      guard(async () =>
        (await queryRows<LedgerRow>(pool, `SELECT * FROM ${s}.ledger WHERE account_id = $1 ORDER BY created_at, seq`, [accountId])).map(
          (r): LedgerEntry => ({
            id: r.id,
            accountId: r.account_id,
            kind: r.kind,
            source: r.source,
            amount: num(r.amount),
            period: r.period,
            operation: r.operation,
            chargeId: r.charge_id,
            createdAt: r.created_at,
          }),
        ),
      ),
  };
}
