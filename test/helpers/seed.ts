import { utcPeriod } from '../../src/billing/period.js';
import { PLANS } from '../../src/billing/plans.js';
import type { PlanId } from '../../src/billing/plans.js';
import type { TestService } from './service.js';

/**
 * Uses up `used` plan credits of the account's current month in one bookkeeping charge,
 * instead of thousands of calls. Answers the charge id (a test may settle it to give the
 * credits back).
 */
export async function seedPlanUsage(
  svc: Pick<TestService, 'stores' | 'clock'>,
  accountId: string,
  plan: PlanId,
  used: number,
): Promise<string> {
  const chargeId = `chg_seed_${accountId}`;
  const res = await svc.stores.ledger.charge({
    chargeId,
    accountId,
    period: utcPeriod(svc.clock.now),
    amount: used,
    planLimit: PLANS[plan].monthlyCredits,
    allowBought: false,
    operation: 'seed',
    now: svc.clock.now,
  });
  if (!res.ok) throw new Error(`seeding ${used} plan credits of a ${plan} account failed`);
  return chargeId;
}
