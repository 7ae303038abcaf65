/**
 * Storage contracts. Every backend (sqlite/, later postgres/ and redis/) implements these
 * and must pass `test/store/contract.ts`. Policy (which pool to charge, limits) lives in
 * src/billing; stores only do atomic bookkeeping.
 */

export const PLAN_IDS = ['free', 'starter', 'growth', 'scale', 'enterprise'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export interface Account {
  id: string;
  name: string | null;
  plan: PlanId;
  createdAt: string;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  /** Display prefix (`pk_` + first chars); the key itself is never stored. */
  prefix: string;
  name: string | null;
  createdAt: string;
  revokedAt: string | null;
}

export interface AccountStore {
  createAccount(input: { id: string; plan: PlanId; name: string | null; now: number }): Promise<Account>;
  getAccount(id: string): Promise<Account | null>;
  setPlan(id: string, plan: PlanId): Promise<Account | null>;
  createKey(input: {
    id: string;
    accountId: string;
    hash: string;
    prefix: string;
    name: string | null;
    now: number;
  }): Promise<ApiKeyRecord>;
  /** The account of a key that exists and is not revoked. */
  findByKeyHash(hash: string): Promise<{ account: Account; keyId: string } | null>;
  listKeys(accountId: string): Promise<ApiKeyRecord[]>;
  /** True when the key existed on that account and was active. */
  revokeKey(accountId: string, keyId: string, now: number): Promise<boolean>;
}

export type CreditSource = 'plan' | 'credit';

export interface ChargeRequest {
  chargeId: string;
  accountId: string;
  /** UTC month, `YYYY-MM`. */
  period: string;
  amount: number;
  /** Monthly plan credits; null = unlimited. */
  planLimit: number | null;
  /** Whether bought credits may be spent when plan credits do not cover `amount`. */
  allowBought: boolean;
  operation: string;
  now: number;
}

export type ChargeResult =
  | { ok: true; source: CreditSource; planUsed: number; boughtBalance: number }
  | { ok: false; reason: 'insufficient'; planUsed: number; boughtBalance: number };

export interface RefundRequest {
  /** Unique per refund; a second refund with the same id does nothing. */
  refundId: string;
  chargeId: string;
  amount: number;
  now: number;
}

export interface RefundResult {
  /** False when this refundId was already applied or the charge is unknown/fully refunded. */
  applied: boolean;
  source: CreditSource | null;
  planUsed: number;
  boughtBalance: number;
}

export interface LedgerEntry {
  id: string;
  accountId: string;
  kind: 'charge' | 'refund' | 'purchase';
  source: CreditSource;
  amount: number;
  period: string;
  operation: string;
  chargeId: string | null;
  createdAt: string;
}

export interface LedgerStore {
  /**
   * One transaction: plan credits of `period` when they cover the whole amount, else bought
   * credits (when allowed and sufficient), else nothing. Writes a ledger row when charged.
   */
  charge(req: ChargeRequest): Promise<ChargeResult>;
  /** Returns `amount` of a charge to the pool it came from, at most once per refundId, never more than charged. */
  refund(req: RefundRequest): Promise<RefundResult>;
  addBoughtCredits(input: { accountId: string; amount: number; reason: string; entryId: string; now: number }): Promise<number>;
  getUsage(accountId: string, period: string): Promise<{ planUsed: number; boughtBalance: number }>;
  listEntries(accountId: string): Promise<LedgerEntry[]>;
}

export interface SlotAcquireResult {
  acquired: boolean;
  /** In-flight count after the attempt (including the new slot when acquired). */
  inFlight: number;
}

export interface SlotStore {
  /** Atomically: drop expired slots, count, add when under `limit`. */
  acquire(input: { accountId: string; slotId: string; limit: number; nowMs: number; ttlMs: number }): Promise<SlotAcquireResult>;
  release(accountId: string, slotId: string): Promise<void>;
  /**
   * Extends a live slot's lease to `nowMs + ttlMs` (its holder is still working). False when
   * the slot is gone or already expired at `nowMs`: a dead lease is never revived, since its
   * place may have been given to another call.
   */
  renew(input: { accountId: string; slotId: string; nowMs: number; ttlMs: number }): Promise<boolean>;
  inFlight(accountId: string, nowMs: number): Promise<number>;
}

export interface CacheStore {
  get(key: string, nowMs: number): Promise<string | null>;
  set(key: string, value: string, ttlMs: number, nowMs: number): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface Stores {
  accounts: AccountStore;
  ledger: LedgerStore;
  slots: SlotStore;
  cache: CacheStore;
  /** Throws when a backing store cannot be reached (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
