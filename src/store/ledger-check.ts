import type { CreditSource, LedgerReport, OpenCharge, StoredResponse } from './types.js';

/**
 * The counter check of `pith ledger verify`, shared by the SQL backends: each backend reads
 * the sums its own SQL computes from the ledger rows and the counters it stores; this
 * compares them. A counter the ledger explains exactly never shows up.
 */
export interface CounterSums {
  /** Plan credits per account and month: charges − refunds of source `plan`. */
  planFromLedger: Array<{ account_id: string; period: string; total: number | string }>;
  planStored: Array<{ account_id: string; period: string; plan_used: number | string }>;
  /** Bought credits per account: purchases − charges + refunds of source `credit`. */
  boughtFromLedger: Array<{ account_id: string; total: number | string }>;
  boughtStored: Array<{ id: string; bought_balance: number | string }>;
}

export function compareCounters(sums: CounterSums, openCharges: OpenCharge[]): LedgerReport {
  const differences: LedgerReport['differences'] = [];
  const accounts = new Set<string>();
  const plan = new Map<string, { stored: number; fromLedger: number; accountId: string; period: string }>();
  const at = (accountId: string, period: string) => {
    const key = `${accountId}\u0000${period}`;
    let entry = plan.get(key);
    if (!entry) plan.set(key, (entry = { stored: 0, fromLedger: 0, accountId, period }));
    return entry;
  };
  for (const r of sums.planFromLedger) at(r.account_id, r.period).fromLedger = Number(r.total);
  for (const r of sums.planStored) at(r.account_id, r.period).stored = Number(r.plan_used);
  for (const e of plan.values()) {
    accounts.add(e.accountId);
    if (e.stored !== e.fromLedger)
      differences.push({ accountId: e.accountId, counter: `plan_used:${e.period}`, stored: e.stored, fromLedger: e.fromLedger });
  }
  const bought = new Map<string, number>(sums.boughtFromLedger.map((r) => [r.account_id, Number(r.total)]));
  for (const r of sums.boughtStored) {
    accounts.add(r.id);
    const fromLedger = bought.get(r.id) ?? 0;
    bought.delete(r.id);
    if (Number(r.bought_balance) !== fromLedger)
      differences.push({ accountId: r.id, counter: 'bought_balance', stored: Number(r.bought_balance), fromLedger });
  }
  // ledger rows of an account the accounts table does not know
  for (const [accountId, fromLedger] of bought) {
    accounts.add(accountId);
    if (fromLedger !== 0) differences.push({ accountId, counter: 'bought_balance', stored: 0, fromLedger });
  }
  return { accounts: accounts.size, differences, openCharges };
}

/** An open charge row as the SQL backends select it. */
export interface OpenChargeRow {
  id: string;
  account_id: string;
  amount: number | string;
  refunded: number | string;
  source: string;
  operation: string;
  created_at: string;
}

export const toOpenCharge = (r: OpenChargeRow): OpenCharge => ({
  chargeId: r.id,
  accountId: r.account_id,
  amount: Number(r.amount),
  refunded: Number(r.refunded),
  source: r.source as CreditSource,
  operation: r.operation,
  createdAt: r.created_at,
});

/** The refund row a settle writes for what the call did not deliver. */
export const closingRefundId = (chargeId: string): string => `${chargeId}:close`;

/** Idempotency rows keep their headers as JSON text. */
export interface IdempotencyRow {
  fingerprint: string;
  created_at: number | string;
  claimed_at: number | string;
  status: number | null;
  headers: string | null;
  body: string | null;
}

export const storedResponseOf = (row: IdempotencyRow): StoredResponse | null =>
  row.status === null
    ? null
    : { status: Number(row.status), headers: JSON.parse(row.headers ?? '{}') as Record<string, string>, body: row.body ?? '' };
