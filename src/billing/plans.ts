/** The plans of the spec's table (DESIGN §2): the one list, for billing, the API schemas and the CLI. */
export const PLAN_IDS = ['free', 'starter', 'growth', 'scale', 'enterprise'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

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

export function isPlanId(value: string): value is PlanId {
  return Object.hasOwn(PLANS, value);
}

/** The plan of an account; the store keeps the id as text, so an id the table lacks is a data error. */
export function planOf(account: { plan: string }): Plan {
  if (!isPlanId(account.plan)) throw new Error(`account has an unknown plan "${account.plan}"`);
  return PLANS[account.plan];
}
