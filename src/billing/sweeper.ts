import type { BillingEvent } from './billed-call.js';
import type { Stores } from '../store/types.js';

/**
 * How long a charge may stay open before it is refunded as undelivered. The longest call
 * is a batch: no item starts after 120 s, and one read then takes at most 15 s fetch +
 * 5 s queue + 10 s conversion (+ its render within the same 15 s), and a draining server
 * waits 20 s more: under 4 minutes. 15 minutes leaves a wide margin for clock skew between
 * instances and a stalled event loop.
 */
export const OPEN_CHARGE_TIMEOUT_MS = 15 * 60_000;
/** Every instance sweeps at start-up and then this often; one sweep at a time across instances. */
export const SWEEP_INTERVAL_MS = 60_000;
/** Charges closed per sweep transaction (a backlog is worked off over several sweeps). */
const SWEEP_BATCH = 500;
/** Idempotency keys are forgotten this long after their first use. */
const IDEMPOTENCY_KEEP_MS = 24 * 3600_000;

export interface SweeperDeps {
  stores: Stores;
  now: () => number;
  logger: { info(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
  onEvent?: (event: BillingEvent) => void;
  /** Override of OPEN_CHARGE_TIMEOUT_MS (tests, the chaos test). */
  openChargeTimeoutMs?: number;
}

/**
 * Refunds charges that no call will ever close: their process was killed, or their refund
 * failed against a store that was down. Also forgets expired idempotency keys. A failed
 * sweep is logged and tried again at the next interval, so an outage delays a refund but
 * never loses it.
 */
export async function sweepOnce(deps: SweeperDeps): Promise<number> {
  const now = deps.now();
  const timeout = deps.openChargeTimeoutMs ?? OPEN_CHARGE_TIMEOUT_MS;
  let closed = 0;
  for (;;) {
    const swept = await deps.stores.ledger.sweepOpenCharges({ openedBefore: now - timeout, now, limit: SWEEP_BATCH });
    closed += swept.length;
    for (const charge of swept) {
      const amount = charge.amount - charge.refunded;
      if (amount > 0) deps.onEvent?.({ type: 'refunded', operation: charge.operation, amount, source: charge.source });
    }
    if (swept.length > 0) deps.logger.info({ charges: swept.map((c) => c.chargeId) }, `refunded ${swept.length} charges left open`);
    if (swept.length < SWEEP_BATCH) break;
  }
  await deps.stores.idempotency.purgeExpired(now - IDEMPOTENCY_KEEP_MS);
  return closed;
}

/** Sweeps now and every SWEEP_INTERVAL_MS until stopped; never keeps the process alive. */
export function startSweeper(deps: SweeperDeps, intervalMs = SWEEP_INTERVAL_MS): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const tick = (): void => {
    running = sweepOnce(deps).catch((err: unknown) => deps.logger.error({ err }, 'sweep failed; retrying at the next interval'));
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
