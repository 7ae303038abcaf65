import type Database from 'better-sqlite3';

interface PendingWrite {
  run: () => unknown;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Group commit for the embedded store. Every write that arrives during one turn of the
 * event loop (charges, refunds, slot acquires and releases of all requests in flight) runs
 * in one IMMEDIATE transaction, each write inside its own savepoint.
 *
 * Why: a SQLite commit costs far more than the statements it commits. One charge alone is
 * ≈ 50 µs; ten in one transaction ≈ 13 µs each (bench/README.md § Server). Each write
 * stays atomic on its own: a write that throws rolls back only its savepoint and rejects
 * only its caller. Nothing is answered before its transaction has committed, so a caller
 * never sees a write that could still be lost to a failed commit.
 *
 * `run` must be a better-sqlite3 `db.transaction(...)` function (or a single statement):
 * called inside the batch transaction it becomes a savepoint.
 */
export class GroupCommit {
  private queue: PendingWrite[] = [];
  private scheduled = false;
  private readonly batch: Database.Transaction<(writes: PendingWrite[]) => Outcome[]>;

  constructor(
    db: Database.Database,
    /** Maps a driver error to what callers should see (SERVICE_UNAVAILABLE). */
    private readonly mapError: (err: unknown) => unknown,
  ) {
    this.batch = db.transaction((writes: PendingWrite[]) => {
      const outcomes: Outcome[] = [];
      for (const w of writes) {
        try {
          outcomes.push({ ok: true, value: w.run() });
        } catch (error) {
          // Some failures (disk full, I/O error) make SQLite roll back the whole transaction.
          // Then nothing of this batch stands, and running the rest would commit each of
          // them on its own: fail the batch instead.
          if (!db.inTransaction) throw error;
          outcomes.push({ ok: false, error });
        }
      }
      return outcomes;
    });
  }

  /** Queues `run` for the next commit and settles when that commit has happened. */
  submit<T>(run: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // setImmediate, not a microtask: the check phase runs after the poll phase has
        // handed over every request that arrived in this turn, so they share the commit.
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commits whatever is queued now; also called before the database closes. */
  flush(): void {
    this.scheduled = false;
    const writes = this.queue;
    if (writes.length === 0) return;
    this.queue = [];
    let outcomes: Outcome[];
    try {
      outcomes = this.batch.immediate(writes);
    } catch (err) {
      // BEGIN or COMMIT failed: nothing of this batch is durable, so every caller fails.
      const mapped = this.mapError(err);
      for (const w of writes) w.reject(mapped);
      return;
    }
    for (let i = 0; i < writes.length; i++) {
      const outcome = outcomes[i] as Outcome;
      const w = writes[i] as PendingWrite;
      if (outcome.ok) w.resolve(outcome.value);
      else w.reject(this.mapError(outcome.error));
    }
  }
}
