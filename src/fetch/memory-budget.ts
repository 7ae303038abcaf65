import { ServiceError } from '../errors.js';

/**
 * One instance-wide budget for the bytes of fetched bodies held in memory: counted while a
 * body streams in and held until the call is done with it (converted, parsed). Without it,
 * 100 concurrent reads of a 10 MB page hold 1 GB of bodies before the first one converts.
 * A call that would overrun the budget is refused at once with SERVICE_UNAVAILABLE
 * (refunded, `retry_after`), while the calls already admitted finish normally.
 */
export class MemoryBudget {
  private used = 0;

  constructor(readonly capacityBytes: number) {}

  /** Bytes held by every open lease. */
  get usedBytes(): number {
    return this.used;
  }

  /** A holder for one call's bodies; release it when the call no longer needs them. */
  lease(): MemoryLease {
    return new MemoryLease(this);
  }

  /** @internal */
  grab(bytes: number): boolean {
    if (this.used + bytes > this.capacityBytes) return false;
    this.used += bytes;
    return true;
  }

  /** @internal */
  giveBack(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }
}

export class MemoryLease {
  private held = 0;
  /** Bytes taken ahead (a declared Content-Length) that arriving chunks use up first. */
  private prepaid = 0;

  constructor(private readonly budget: MemoryBudget) {}

  get heldBytes(): number {
    return this.held;
  }

  /**
   * Takes a body's declared size before any byte of it is read, all or nothing. Under a
   * burst, calls are then admitted or refused whole as their headers arrive, instead of
   * every body taking a slice of the budget and all of them failing half-read.
   */
  prepay(bytes: number): void {
    this.take(bytes);
    this.prepaid += bytes;
  }

  /** Counts `bytes` that arrived: from what was prepaid first, then from the budget. */
  use(bytes: number): void {
    const fromPrepaid = Math.min(bytes, this.prepaid);
    this.prepaid -= fromPrepaid;
    if (bytes > fromPrepaid) this.take(bytes - fromPrepaid);
  }

  /** Adds `bytes` to this call's share, or throws SERVICE_UNAVAILABLE when the budget is spent. */
  take(bytes: number): void {
    if (!this.budget.grab(bytes)) {
      throw new ServiceError(
        'SERVICE_UNAVAILABLE',
        `the service is busy: page bodies in memory would exceed ${Math.round(this.budget.capacityBytes / 1048576)} MB; retry shortly`,
        { retry_after: 1 },
      );
    }
    this.held += bytes;
  }

  /** Returns everything this call held; idempotent. */
  release(): void {
    this.budget.giveBack(this.held);
    this.held = 0;
    this.prepaid = 0;
  }
}

/** Runs `work` with a lease of `budget` (none when there is no budget) and always releases it. */
export async function withLease<T>(budget: MemoryBudget | undefined, work: (lease: MemoryLease | undefined) => Promise<T>): Promise<T> {
  const lease = budget?.lease();
  try {
    return await work(lease);
  } finally {
    lease?.release();
  }
}
