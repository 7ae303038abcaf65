import pg from 'pg';
import type { Stores } from '../types.js';
import { postgresAccounts } from './accounts.js';
import { postgresCache } from './cache.js';
import { guard, unavailable } from './db.js';
import { postgresIdempotency } from './idempotency.js';
import { postgresLedger } from './ledger.js';
import { migratePostgres, quoteIdent } from './migrations.js';
import { postgresSlots } from './slots.js';

export interface PostgresStoreOptions {
  /** `postgres://user@host:port/db?sslmode=…`. */
  connectionString: string;
  /** Schema holding pith's tables; created when missing. Default `pith`. */
  schema?: string;
  /** Pool size per instance. Default 10. */
  maxConnections?: number;
  /** Errors of idle pooled connections (server restart); the pool replaces them. */
  onError?: (err: Error) => void;
}

export const DEFAULT_PG_SCHEMA = 'pith';

/**
 * Accounts, keys, ledger, month counters and bought balances in PostgreSQL — and slots and
 * cache, for deployments without Redis (open.ts picks). Migrations run at start, once
 * across instances. Unreachable server → SERVICE_UNAVAILABLE, at start and on every call.
 */
export async function openPostgresStores(options: PostgresStoreOptions): Promise<Stores> {
  const schema = options.schema ?? DEFAULT_PG_SCHEMA;
  const s = quoteIdent(schema);
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: 3_000,
    idleTimeoutMillis: 30_000,
    // A statement that waits this long is a stuck server or lock; fail the request (503).
    statement_timeout: 10_000,
    query_timeout: 12_000,
    application_name: 'pith',
  });
  pool.on('error', (err) => options.onError?.(err));
  try {
    const client = await pool.connect();
    let broken: Error | undefined;
    const onError = (err: Error): void => {
      broken ??= err; // a drop between two statements: the next one fails and start-up reports it
    };
    client.on('error', onError);
    try {
      await migratePostgres(client, schema);
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw unavailable(err);
  }
  let closed = false;
  return {
    accounts: postgresAccounts(pool, s),
    ledger: postgresLedger(pool, s, schema),
    idempotency: postgresIdempotency(pool, s),
    slots: postgresSlots(pool, s, schema),
    cache: postgresCache(pool, s),
    ping: () =>
      guard(async () => {
        await pool.query('SELECT 1');
      }),
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
