import { afterEach } from 'vitest';
import { ServiceError } from '../../../src/errors.js';
import type { FetcherDeps, SafeFetcher } from '../../../src/fetch/fetcher.js';
import { createFetcher } from '../../../src/fetch/fetcher.js';
import type { Site, SiteHandler } from '../../helpers/site.js';
import { startSite } from '../../helpers/site.js';
import { memoryCache } from './helpers.js';

/**
 * Per-file kit for fetcher e2e tests: local sites and fetchers (loopback allowed) that are
 * closed after each test, plus `defer` for anything else a test starts.
 */
export function useFetchKit(): {
  site(handler: SiteHandler): Promise<Site>;
  fetcher(overrides?: Partial<FetcherDeps>): SafeFetcher;
  defer(cleanup: () => Promise<void>): void;
} {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()?.();
  });
  return {
    async site(handler) {
      const s = await startSite(handler);
      cleanups.push(() => s.close());
      return s;
    },
    fetcher(overrides = {}) {
      const f = createFetcher({
        allowPrivateTargets: ['127.0.0.1/32'],
        cache: memoryCache(),
        now: () => 0,
        logger: { warn: () => {} },
        ...overrides,
      });
      cleanups.push(() => f.close());
      return f;
    },
    defer(cleanup) {
      cleanups.push(cleanup);
    },
  };
}

/** The ServiceError a promise rejects with (anything else fails the test). */
export async function serviceErrorOf(p: Promise<unknown>): Promise<ServiceError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ServiceError) return err;
    throw err;
  }
  throw new Error('expected a ServiceError');
}
