import { describe, expect, it } from 'vitest';
import { MemoryBudget, withLease } from '../../../src/fetch/memory-budget.js';

describe('MemoryBudget', () => {
  it('admits leases up to the capacity and refuses beyond it with SERVICE_UNAVAILABLE and retry_after', () => {
    const budget = new MemoryBudget(100);
    const a = budget.lease();
    a.use(60);
    const b = budget.lease();
    expect(() => b.use(50)).toThrow(expect.objectContaining({ code: 'SERVICE_UNAVAILABLE', fields: { retry_after: 1 } }));
    b.use(40);
    expect(budget.usedBytes).toBe(100);
    a.release();
    a.release(); // idempotent
    expect(budget.usedBytes).toBe(40);
    b.release();
    expect(budget.usedBytes).toBe(0);
  });

  it('a prepaid declared size is taken whole up front, and arriving bytes use it before taking more', () => {
    const budget = new MemoryBudget(100);
    const a = budget.lease();
    a.prepay(70);
    expect(() => budget.lease().prepay(40)).toThrow(expect.objectContaining({ code: 'SERVICE_UNAVAILABLE' }));
    a.use(50);
    a.use(20);
    expect(budget.usedBytes).toBe(70);
    a.use(10); // decoded beyond the declared size
    expect(budget.usedBytes).toBe(80);
    a.release();
    expect(budget.usedBytes).toBe(0);
  });

  it('withLease always releases, also when the work fails', async () => {
    const budget = new MemoryBudget(100);
    await expect(
      withLease(budget, async (lease) => {
        lease?.use(90);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(budget.usedBytes).toBe(0);
    expect(await withLease(undefined, async (lease) => lease)).toBeUndefined();
  });
});
