/** Shared bits of the store contract suite. */
import { randomUUID } from 'node:crypto';
import type { PlanId } from '../../src/billing/plans.js';
import type { Stores } from '../../src/store/types.js';

/** A fixed clock: 2026-11-23T12:00:00.000Z. Stores never read the real clock. */
export const T0 = Date.UTC(2026, 10, 23, 12, 0, 0);
export const iso = (ms: number): string => new Date(ms).toISOString();
export const uid = (prefix: string): string => `${prefix}_${randomUUID().replaceAll('-', '')}`;

export interface ContractContext {
  stores(): Stores;
  newAccount(plan?: PlanId): Promise<string>;
  /** A second instance over the same data, as another server process would open it. */
  openSecond(): Promise<Stores>;
  closeSecond(stores: Stores): Promise<void>;
}
