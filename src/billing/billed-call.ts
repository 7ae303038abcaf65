import { ServiceError } from '../errors.js';
import type { Account, CreditSource, RefundResult, StoredResponse, Stores } from '../store/types.js';
import { nextPeriodStart, utcPeriod } from './period.js';
import { planOf } from './plans.js';

/**
 * A slot's lease: it expires this long after it was taken or last renewed, so a holder that
 * died (SIGKILL, lost host) frees it by then at the latest.
 */
export const SLOT_TTL_MS = 30_000;
/**
 * A live holder renews its lease this often for as long as its work runs (a batch, a PDF, a
 * render may take minutes): two renewals may fail or run late before the lease lapses.
 */
export const SLOT_RENEW_MS = 10_000;

export interface BillingDeps {
  stores: Stores;
  now: () => number;
  newId: (prefix: string) => string;
  logger?: { error(obj: object, msg?: string): void };
  /** Lease timing (tests); default SLOT_TTL_MS / SLOT_RENEW_MS. */
  slotLease?: { ttlMs: number; renewEveryMs: number };
  /** Told about slots, charges and refunds as they happen (metrics); must not throw. */
  onEvent?: (event: BillingEvent) => void;
}

/** What `BillingDeps.onEvent` hears. Amounts are credits. */
export type BillingEvent =
  | { type: 'slot_acquired' | 'slot_released' | 'slot_refused'; operation: string }
  | { type: 'charged' | 'refunded'; operation: string; amount: number; source: CreditSource };

/**
 * What the response headers report. Owned by one request and updated as billing proceeds,
 * so an error response still tells the account's state at that moment.
 */
export interface BillingState {
  /** Monthly plan credits left; null = unlimited (header omitted). */
  planRemaining: number | null;
  /** ISO instant when plan credits reset. */
  resetAt: string;
  /** Pool the request is billed to; null when nothing is (still) charged. */
  billed: CreditSource | null;
  /** Bought-credit balance, reported only when billed to credits. */
  creditsRemaining: number | null;
  /** Headroom for more in-flight requests; null before a slot was tried. */
  concurrentRemaining: number | null;
  /** The call's charge while it is open: closed (settled) when the answer goes out, or refunded. */
  pending: PendingCharge | null;
  /** A refund is owed but the store could not take it yet; the sweeper will. */
  refundPending: boolean;
}

/** An open charge as the request that took it tracks it. */
export interface PendingCharge {
  chargeId: string;
  account: Account;
  operation: string;
  cost: number;
  /** Credits the call keeps at its settle: the cost, less what it gave back on the way (failed batch items). */
  keep: number;
}

export function initialBillingState(nowMs: number): BillingState {
  return {
    planRemaining: null,
    resetAt: nextPeriodStart(nowMs).toISOString(),
    billed: null,
    creditsRemaining: null,
    concurrentRemaining: null,
    pending: null,
    refundPending: false,
  };
}

export interface ChargeHandle {
  chargeId: string | null;
  source: CreditSource | null;
  /**
   * Returns `amount` of this call's charge now (a failed batch item); idempotent per `key`.
   * The call then keeps that much less at its settle, which squares it if this refund failed.
   */
  refund(amount: number, key: string): Promise<void>;
}

export interface BilledCallOptions {
  account: Account;
  operation: string;
  /** Credits for the call; 0 still takes a concurrency slot. */
  cost: number;
  state: BillingState;
}

function planRemaining(account: Account, planUsed: number): number | null {
  const limit = planOf(account).monthlyCredits;
  return limit === null ? null : Math.max(0, limit - planUsed);
}

/**
 * The billing order of DESIGN §4 around one unit of work: acquire a slot → charge → run →
 * on failure refund (exactly once) → release the slot (always). On success the charge is
 * left open in `state.pending`: the HTTP layer settles it when the answer goes out
 * (settleCall), so a call only counts as delivered once its answer is ready to send. A
 * charge nobody closes (a killed process) is refunded by the sweeper (./sweeper.ts).
 */
export async function withBilling<T>(deps: BillingDeps, opts: BilledCallOptions, work: (charge: ChargeHandle) => Promise<T>): Promise<T> {
  const { stores } = deps;
  const { account, state } = opts;
  const plan = planOf(account);
  const lease = deps.slotLease ?? { ttlMs: SLOT_TTL_MS, renewEveryMs: SLOT_RENEW_MS };
  const slotId = deps.newId('slot');
  const slot = await stores.slots.acquire({
    accountId: account.id,
    slotId,
    limit: plan.concurrency,
    nowMs: deps.now(),
    ttlMs: lease.ttlMs,
  });
  if (!slot.acquired) {
    deps.onEvent?.({ type: 'slot_refused', operation: opts.operation });
    state.concurrentRemaining = 0;
    throw new ServiceError('CONCURRENT_LIMIT', `${slot.inFlight} requests in flight; limit ${plan.concurrency}`, {
      in_flight: slot.inFlight,
      limit: plan.concurrency,
      retry_after: 1,
    });
  }
  state.concurrentRemaining = Math.max(0, plan.concurrency - slot.inFlight);
  deps.onEvent?.({ type: 'slot_acquired', operation: opts.operation });
  const renewal = keepLeaseAlive(deps, { accountId: account.id, slotId, ...lease });
  try {
    const handle = await charge(deps, opts);
    try {
      return await work(handle);
    } catch (err) {
      throw (await refundCall(deps, state)) ? err : withRefundPending(err);
    }
  } finally {
    renewal.stop();
    await stores.slots.release(account.id, slotId).catch((err: unknown) => {
      // The 30 s expiry frees it anyway; log so an operator sees a flapping store.
      deps.logger?.error({ err, slotId }, 'slot release failed');
    });
    deps.onEvent?.({ type: 'slot_released', operation: opts.operation });
  }
}

/**
 * Renews the slot's lease every `renewEveryMs` while the work runs. A renewal that fails
 * (store hiccup) is retried at the next tick; one that finds the lease gone (it lapsed
 * while the process was stalled) is logged: the work goes on, but the account may briefly
 * have one call more in flight than its limit.
 */
function keepLeaseAlive(
  deps: BillingDeps,
  slot: { accountId: string; slotId: string; ttlMs: number; renewEveryMs: number },
): { stop(): void } {
  let running = false;
  let lost = false;
  const timer = setInterval(() => {
    if (running || lost) return;
    running = true;
    deps.stores.slots
      .renew({ accountId: slot.accountId, slotId: slot.slotId, nowMs: deps.now(), ttlMs: slot.ttlMs })
      .then((alive) => {
        if (alive) return;
        lost = true;
        deps.logger?.error({ slotId: slot.slotId }, 'slot lease lapsed before renewal; the call goes on without a slot');
      })
      .catch((err: unknown) => deps.logger?.error({ err, slotId: slot.slotId }, 'slot lease renewal failed; retrying at the next tick'))
      .finally(() => {
        running = false;
      });
  }, slot.renewEveryMs);
  // the lease never keeps a process alive on its own
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

async function charge(deps: BillingDeps, opts: BilledCallOptions): Promise<ChargeHandle> {
  const { stores } = deps;
  const { account, state, cost } = opts;
  const plan = planOf(account);
  const now = deps.now();
  const period = utcPeriod(now);
  state.resetAt = nextPeriodStart(now).toISOString();
  if (cost === 0) {
    const usage = await stores.ledger.getUsage(account.id, period);
    state.planRemaining = planRemaining(account, usage.planUsed);
    return { chargeId: null, source: null, refund: async () => {} };
  }
  const chargeId = deps.newId('chg');
  const result = await stores.ledger.charge({
    chargeId,
    accountId: account.id,
    period,
    amount: cost,
    planLimit: plan.monthlyCredits,
    allowBought: plan.paid,
    operation: opts.operation,
    now,
  });
  state.planRemaining = planRemaining(account, result.planUsed);
  if (!result.ok) {
    if (!plan.paid) {
      throw new ServiceError('RATE_LIMITED', `the ${plan.label} plan's ${plan.monthlyCredits} monthly credits are used up`, {
        retry_after: state.resetAt,
      });
    }
    throw new ServiceError(
      'PAYMENT_REQUIRED',
      `monthly plan credits are used up and ${result.boughtBalance} bought credits do not cover ${cost}`,
    );
  }
  state.billed = result.source;
  state.creditsRemaining = result.source === 'credit' ? result.boughtBalance : null;
  if (result.source !== null) deps.onEvent?.({ type: 'charged', operation: opts.operation, amount: cost, source: result.source });
  const pending: PendingCharge = { chargeId, account, operation: opts.operation, cost, keep: cost };
  state.pending = pending;
  let refundedSoFar = 0;
  const handle: ChargeHandle = {
    chargeId,
    source: result.source,
    async refund(amount, key) {
      pending.keep = Math.max(0, pending.keep - amount);
      const refunded = await refundWithRetry(deps, { refundId: `${chargeId}:${key}`, chargeId, amount, now: deps.now() });
      if (refunded?.applied && refunded.source !== null) {
        const back = Math.min(amount, cost - refundedSoFar);
        refundedSoFar += back;
        if (back > 0) deps.onEvent?.({ type: 'refunded', operation: opts.operation, amount: back, source: refunded.source });
      }
      if (refunded && refunded.source !== null) {
        state.planRemaining = planRemaining(account, refunded.planUsed);
        if (state.billed === 'credit') state.creditsRemaining = refunded.boughtBalance;
      }
    },
  };
  return handle;
}

/** How often a close (settle or refund) is tried at once before the sweeper is left to it. */
const CLOSE_ATTEMPTS = 3;

/**
 * Closes the call's open charge as delivered: it keeps `pending.keep` credits (the whole
 * cost, or a batch's delivered items) and gives back the rest, in one store transaction
 * that also stores the answer an Idempotency-Key replays. Throws when the store cannot take
 * it: the call must then not be delivered (the caller refunds and answers 503).
 */
export async function settleCall(
  deps: BillingDeps,
  state: BillingState,
  idempotent?: { key: string; response: StoredResponse },
): Promise<void> {
  const pending = state.pending;
  if (pending === null) return;
  const result = await deps.stores.ledger.settle({
    chargeId: pending.chargeId,
    keep: pending.keep,
    now: deps.now(),
    ...(idempotent ? { idempotent: { accountId: pending.account.id, key: idempotent.key, response: idempotent.response } } : {}),
  });
  state.pending = null;
  if (result.applied && result.refunded > 0 && result.source !== null) {
    deps.onEvent?.({ type: 'refunded', operation: pending.operation, amount: result.refunded, source: result.source });
  }
  if (result.source !== null) {
    state.planRemaining = planRemaining(pending.account, result.planUsed);
    if (state.billed === 'credit') state.creditsRemaining = result.boughtBalance;
  }
}

/**
 * Refunds the call's open charge in full (it failed, or its answer cannot be delivered).
 * Tried a few times at once; if the store still refuses, the charge stays open and the
 * sweeper refunds it later: returns false and marks `state.refundPending`.
 */
export async function refundCall(deps: BillingDeps, state: BillingState): Promise<boolean> {
  const pending = state.pending;
  if (pending === null) return true;
  let lastError: unknown;
  for (let attempt = 0; attempt < CLOSE_ATTEMPTS; attempt++) {
    try {
      const result = await deps.stores.ledger.settle({ chargeId: pending.chargeId, keep: 0, now: deps.now() });
      state.pending = null;
      if (result.applied && result.refunded > 0 && result.source !== null) {
        deps.onEvent?.({ type: 'refunded', operation: pending.operation, amount: result.refunded, source: result.source });
      }
      if (result.source !== null) state.planRemaining = planRemaining(pending.account, result.planUsed);
      state.billed = null;
      state.creditsRemaining = null;
      return true;
    } catch (err) {
      lastError = err;
    }
  }
  deps.logger?.error({ err: lastError, chargeId: pending.chargeId }, 'refund failed; the sweeper will refund the open charge');
  state.pending = null;
  state.refundPending = true;
  return false;
}

/** How long a charge may stay open before the sweeper refunds it (see ./sweeper.ts). */
export const REFUND_PENDING_NOTE = 'a credit was taken and could not be returned yet; it will be refunded automatically within 15 minutes';

/** The same error, telling the client that its refund is pending (it is never silently lost). */
export function withRefundPending(err: unknown): unknown {
  if (!(err instanceof ServiceError)) return err;
  return new ServiceError(err.code, `${err.message} (${REFUND_PENDING_NOTE})`, { ...err.fields, refund_pending: true }, { cause: err });
}

/** A refund must not be lost to a passing store hiccup: try a few times, then log loudly. */
async function refundWithRetry(
  deps: BillingDeps,
  req: { refundId: string; chargeId: string; amount: number; now: number },
): Promise<RefundResult | null> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await deps.stores.ledger.refund(req);
    } catch (err) {
      lastError = err;
    }
  }
  deps.logger?.error({ err: lastError, chargeId: req.chargeId, refundId: req.refundId }, 'refund failed; charge kept');
  return null;
}
