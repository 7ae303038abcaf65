import type { Account, ApiKeyRecord, CreditSource, LedgerEntry } from './types.js';

/** Row shapes shared by the SQL backends (SQLite and PostgreSQL use the same column names). */
export interface AccountRow {
  id: string;
  name: string | null;
  plan: string;
  created_at: string;
}

export interface KeyRow {
  id: string;
  account_id: string;
  prefix: string;
  name: string | null;
  created_at: string;
  revoked_at: string | null;
}

export const toAccount = (r: AccountRow): Account => ({ id: r.id, name: r.name, plan: r.plan, createdAt: r.created_at });

export const toKey = (r: KeyRow): ApiKeyRecord => ({
  id: r.id,
  accountId: r.account_id,
  prefix: r.prefix,
  name: r.name,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

/** A ledger row; PostgreSQL returns its NUMERIC `amount` as a string, SQLite as a number. */
export interface LedgerRow<Amount extends number | string = number | string> {
  id: string;
  account_id: string;
  kind: string;
  source: string;
  amount: Amount;
  period: string;
  operation: string;
  charge_id: string | null;
  created_at: string;
}

export const toLedgerEntry = (r: LedgerRow): LedgerEntry => ({
  id: r.id,
  accountId: r.account_id,
  kind: r.kind as LedgerEntry['kind'],
  source: r.source as CreditSource,
  amount: Number(r.amount),
  period: r.period,
  operation: r.operation,
  chargeId: r.charge_id,
  createdAt: r.created_at,
});

/** Timestamps are stored as ISO-8601 UTC strings. */
export const iso = (ms: number): string => new Date(ms).toISOString();
