import type { PlanId } from '../store/types.js';

export interface Plan {
  id: PlanId;
  label: string;
  /** Monthly plan credits; null = unlimited (Enterprise). */
  monthlyCredits: number | null;
  /** Requests in flight at once, per account. */
  concurrency: number;
  /** Paid plans are soft-capped (spill to bought credits) and may buy packs. */
  paid: boolean;
}

/** The spec's plan table. */
export const PLANS: Readonly<Record<PlanId, Plan>> = {
  free: { id: 'free', label: 'Free', monthlyCredits: 1_000, concurrency: 2, paid: false },
  starter: { id: 'starter', label: 'Starter', monthlyCredits: 10_000, concurrency: 5, paid: true },
  growth: { id: 'growth', label: 'Growth', monthlyCredits: 100_000, concurrency: 20, paid: true },
  scale: { id: 'scale', label: 'Scale', monthlyCredits: 500_000, concurrency: 50, paid: true },
  enterprise: { id: 'enterprise', label: 'Enterprise', monthlyCredits: null, concurrency: 100, paid: true },
};

export const CREDIT_PACKS = {
  S: { credits: 500, priceUsd: 5 },
  M: { credits: 2_200, priceUsd: 20 },
  L: { credits: 6_000, priceUsd: 50 },
  XL: { credits: 28_000, priceUsd: 200 },
} as const;

export type CreditPackId = keyof typeof CREDIT_PACKS;

export function isCreditPackId(value: unknown): value is CreditPackId {
  return typeof value === 'string' && Object.hasOwn(CREDIT_PACKS, value);
}
