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
