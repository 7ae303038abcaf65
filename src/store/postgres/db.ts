import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { ServiceError } from '../../errors.js';

/** The subset of a `pg.Pool` the stores use. */
export type PgPool = Pick<Pool, 'query' | 'connect' | 'end'>;

/**
 * Every driver failure leaves the store as SERVICE_UNAVAILABLE with the cause kept, like the
 * SQLite store: a refused connection, a restart, a pool time-out. Nothing was committed,
 * so nothing was charged; the pool reconnects on the next call.
 */
export function unavailable(err: unknown): ServiceError {
  if (err instanceof ServiceError) return err;
  return new ServiceError('SERVICE_UNAVAILABLE', 'the PostgreSQL store is unavailable', {}, { cause: err });
}

export async function guard<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw unavailable(err);
  }
}

/**
 * Rows of one query. A `name` makes it a prepared statement per connection (parsed and
 * planned once): used for the per-request hot path.
 */
export async function queryRows<R extends QueryResultRow>(
  db: Pick<Pool, 'query'> | PoolClient,
  sql: string,
  params: unknown[] = [],
  name?: string,
): Promise<R[]> {
  return (await db.query<R>(name === undefined ? { text: sql, values: params } : { name, text: sql, values: params })).rows;
}

/**
 * One transaction on one pooled connection (READ COMMITTED). `fn` returns `commit: false`
 * to roll back (e.g. a refused charge writes nothing). A connection that failed mid-way is
 * destroyed instead of going back to the pool.
 */
export async function transaction<T>(pool: PgPool, fn: (c: PoolClient) => Promise<{ commit: boolean; value: T }>): Promise<T> {
  return guard(async () => {
    const client = await pool.connect();
    let broken: Error | undefined;
    // A checked-out client whose connection drops between two queries emits 'error'; unheard,
    // that would crash the process (the pool only listens on idle clients). Keep it as the
    // reason to destroy the client; the next query fails and the caller answers 503.
    const onError = (err: Error): void => {
      broken ??= err;
    };
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const { commit, value } = await fn(client);
      await client.query(commit ? 'COMMIT' : 'ROLLBACK');
      return value;
    } catch (err) {
      broken = err instanceof Error ? err : new Error(String(err));
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  });
}

/** BIGINT arrives as a string; credits fit a JS number (< 2^53). */
export const num = (v: string | number | null | undefined): number => (v === null || v === undefined ? 0 : Number(v));
