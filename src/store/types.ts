/**
 * Storage contracts. Every backend (sqlite/, later postgres/ and redis/) implements these
 * and must pass `test/store/contract.ts`. Policy (which pool to charge, limits) lives in
 * src/billing; stores only do atomic bookkeeping.
 */

export interface Account {
  id: string;
  name: string | null;
  /** A plan id of src/billing/plans.ts, kept as text: which plans exist is billing's business. */
  plan: string;
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
  createAccount(input: { id: string; plan: string; name: string | null; now: number }): Promise<Account>;
  getAccount(id: string): Promise<Account | null>;
  setPlan(id: string, plan: string): Promise<Account | null>;
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

/**
 * Closes an open charge: the call delivered `keep` credits' worth (the whole charge, or a
 * batch's delivered items) and the rest is refunded, in one transaction with the charge's
 * new state. `keep` 0 refunds everything. Closing a closed charge changes nothing.
 */
export interface SettleRequest {
  chargeId: string;
  keep: number;
  now: number;
  /** Stored in the same transaction: the answer an Idempotency-Key replays. */
  idempotent?: { accountId: string; key: string; response: StoredResponse };
}

export interface SettleResult {
  /** False when the charge was already closed (or unknown): nothing changed. */
  applied: boolean;
  /** Credits given back by this close. */
  refunded: number;
  source: CreditSource | null;
  planUsed: number;
  boughtBalance: number;
}

/** A charge the ledger still holds open: its call neither delivered nor was refunded yet. */
export interface OpenCharge {
  chargeId: string;
  accountId: string;
  amount: number;
  /** Credits already refunded from it (a batch's failed items). */
  refunded: number;
  source: CreditSource;
  operation: string;
  createdAt: string;
}

/** `pith ledger verify`: counters recomputed from the ledger, and what does not match. */
export interface LedgerReport {
  accounts: number;
  differences: Array<{
    accountId: string;
    /** `plan_used:2026-11` or `bought_balance`. */
    counter: string;
    stored: number;
    fromLedger: number;
  }>;
  openCharges: OpenCharge[];
}

export interface LedgerStore {
  /**
   * One transaction: plan credits of `period` when they cover the whole amount, else bought
   * credits (when allowed and sufficient), else nothing. Writes a ledger row when charged.
   */
  charge(req: ChargeRequest): Promise<ChargeResult>;
  /** Returns `amount` of a charge to the pool it came from, at most once per refundId, never more than charged. */
  refund(req: RefundRequest): Promise<RefundResult>;
  /**
   * Adds bought credits with a `purchase` ledger row. The entry id is the purchase's
   * idempotency id: a second call with the same id adds nothing (`applied: false`) and
   * answers the current balance.
   */
  addBoughtCredits(input: {
    accountId: string;
    amount: number;
    reason: string;
    entryId: string;
    now: number;
  }): Promise<{ balance: number; applied: boolean }>;
  getUsage(accountId: string, period: string): Promise<{ planUsed: number; boughtBalance: number }>;
  listEntries(accountId: string): Promise<LedgerEntry[]>;
  /** See SettleRequest. */
  settle(req: SettleRequest): Promise<SettleResult>;
  /**
   * Refunds in full every charge still open that was taken before `openedBefore` (ms), at
   * most `limit` of them, oldest first. One sweep at a time across instances: a sweep that
   * finds another one running returns at once. Returns the charges it closed.
   */
  sweepOpenCharges(input: { openedBefore: number; now: number; limit: number }): Promise<OpenCharge[]>;
  /** Recomputes every account's counters from the ledger rows and lists the open charges. */
  verify(): Promise<LedgerReport>;
}

/** An answer kept for an Idempotency-Key. */
export interface StoredResponse {
  status: number;
  /** The headers to replay (content type, billing headers), lower-case names. */
  headers: Record<string, string>;
  body: string;
}

export type IdempotencyClaim =
  /** The key is new (or its earlier claim went stale): this call runs it. */
  | { state: 'claimed' }
  /** Another call with the key is running. */
  | { state: 'in_progress'; sinceMs: number }
  /** The key finished: replay its answer. */
  | { state: 'done'; response: StoredResponse }
  /** The key was used with another request. */
  | { state: 'mismatch' };

/** Idempotency keys, per account, in the ledger's database (shared by every instance). */
export interface IdempotencyStore {
  /**
   * Claims `key` for a request whose fingerprint is `fingerprint`. A key older than
   * `expiresAfterMs` is forgotten; an unfinished claim older than `staleAfterMs` (its
   * instance died) may be claimed again.
   */
  claim(input: {
    accountId: string;
    key: string;
    fingerprint: string;
    now: number;
    expiresAfterMs: number;
    staleAfterMs: number;
  }): Promise<IdempotencyClaim>;
  /** Stores the answer of a claimed key (when it was not stored with its charge's settle). */
  complete(input: { accountId: string; key: string; response: StoredResponse; now: number }): Promise<void>;
  /** Forgets a claimed key whose call never ran or failed for a passing reason: a retry runs anew. */
  release(input: { accountId: string; key: string }): Promise<void>;
  /** Forgets keys created before `before` (ms). Returns how many. */
  purgeExpired(before: number): Promise<number>;
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
  idempotency: IdempotencyStore;
  slots: SlotStore;
  cache: CacheStore;
  /** Throws when a backing store cannot be reached (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
