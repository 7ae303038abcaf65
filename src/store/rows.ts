import type { Account, ApiKeyRecord, PlanId } from './types.js';

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

export const toAccount = (r: AccountRow): Account => ({ id: r.id, name: r.name, plan: r.plan as PlanId, createdAt: r.created_at });

export const toKey = (r: KeyRow): ApiKeyRecord => ({
  id: r.id,
  accountId: r.account_id,
  prefix: r.prefix,
  name: r.name,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

/** Timestamps are stored as ISO-8601 UTC strings. */
export const iso = (ms: number): string => new Date(ms).toISOString();
