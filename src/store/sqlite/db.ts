import type Database from 'better-sqlite3';
import { ServiceError } from '../../errors.js';

/** Maps driver failures (disk full, locked beyond busy_timeout, closed db) to SERVICE_UNAVAILABLE. */
export function toStoreError(err: unknown): unknown {
  if (err instanceof ServiceError) return err;
  return new ServiceError('SERVICE_UNAVAILABLE', 'the SQLite store failed', {}, { cause: err });
}

export function guard<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw toStoreError(err);
  }
}

/**
 * Runs `fn` with `synchronous = FULL`, so its commit is on disk before it returns (an
 * fsync, ~0.5 ms here). For the writes a power loss must not undo: a purchase, a new
 * account or key, a plan change, a revocation. The hot path (slots, charges, settles,
 * refunds, cache) commits with NORMAL: in WAL mode a power loss can then only drop the
 * last commits, and every one of those rollbacks leaves the customer no worse off (a
 * charge or settle undone is a call not billed, a refund undone leaves its charge open
 * for the sweeper) — see docs/decisions.md "Durability of the embedded store".
 */
export function durably<T>(db: Database.Database, fn: () => T): T {
  db.pragma('synchronous = FULL');
  try {
    return fn();
  } finally {
    db.pragma('synchronous = NORMAL');
  }
}
