/**
 * Which server-backed stores this test run can use. Locally, a missing DATABASE_URL or
 * REDIS_URL skips those suites with a printed reason; in CI (`CI` set) it fails instead.
 * Every run gets its own PostgreSQL schema and Redis key prefix and removes them after.
 */
import { describe, it } from 'vitest';

export { deletePrefix, dropSchema, runId, testPrefix, testSchema } from './namespaces.js';

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
