/**
 * Which server-backed stores this test run can use. Locally, a missing DATABASE_URL or
 * REDIS_URL skips those suites with a printed reason; in CI (`CI` set) it fails instead.
 * Every run gets its own PostgreSQL schema and Redis key prefix and removes them after.
 */
import { randomBytes } from 'node:crypto';
import { describe, it } from 'vitest';
import pg from 'pg';
import { Redis } from 'ioredis';

export const DATABASE_URL = process.env.DATABASE_URL?.trim() || null;
export const REDIS_URL = process.env.REDIS_URL?.trim() || null;
const IN_CI = Boolean(process.env.CI) && process.env.CI !== 'false';

/** Prints why a suite is skipped, or registers a failing test when CI lacks the server. */
export function requireServer(envName: 'DATABASE_URL' | 'REDIS_URL', value: string | null, suite: string): boolean {
  if (value !== null) return true;
  if (IN_CI) {
    describe(suite, () => {
      it(`needs ${envName} in CI`, () => {
        throw new Error(`${envName} is not set but CI is: the ${suite} suite must run in CI (.ci/run sets it)`);
      });
    });
  } else {
    console.warn(`[skip] ${suite}: ${envName} is not set (set it to run; CI=true makes this a failure)`);
  }
  return false;
}

export const runId = (): string => `${process.pid}_${randomBytes(4).toString('hex')}`;

export const testSchema = (): string => `pith_test_${runId()}`;
export const testPrefix = (): string => `pith-test:${runId()}:`;

export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

export async function deletePrefix(url: string, prefix: string): Promise<number> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}
