import { ServiceError } from '../errors.js';
import type { CacheStore } from '../store/types.js';
import type { RobotsPolicy } from './robots.js';
import { isAllowedByRobots, parseRobots, ROBOTS_MAX_BYTES } from './robots.js';
import type { FetchedResource, ResourceOptions } from './types.js';

/** robots.txt answers are kept this long per origin (DESIGN §5). */
export const ROBOTS_CACHE_TTL_MS = 60 * 60 * 1000;
/** RFC 9309 §2.3.1.2: follow at least five redirects. */
const ROBOTS_MAX_REDIRECTS = 5;
/** Parsed robots policies kept in memory per gate. */
const PARSED_MEMO_SIZE = 256;

export interface RobotsGateDeps {
  cache: CacheStore;
  now: () => number;
  timeoutMs: number;
  fetchResource: (url: string, opts: ResourceOptions) => Promise<FetchedResource>;
  logger?: { warn(obj: object, msg?: string): void };
}

export interface RobotsGate {
  /** Throws ROBOTS_BLOCKED when robots.txt of the URL's origin disallows it for PithBot. */
  check(url: URL, signal: AbortSignal): Promise<void>;
  /** The policy for an origin (cached 1 h). */
  policyFor(origin: string, signal: AbortSignal): Promise<RobotsPolicy>;
}

export function robotsCacheKey(origin: string): string {
  return `robots:${origin}`;
}

export function createRobotsGate(deps: RobotsGateDeps): RobotsGate {
  // parsed form of the last cached text per origin, so a big robots.txt is not re-parsed
  // from JSON on every read (bounded; the CacheStore stays the source of truth)
  const parsed = new Map<string, { text: string; policy: RobotsPolicy }>();
  const remember = (origin: string, text: string, policy: RobotsPolicy): RobotsPolicy => {
    if (parsed.size >= PARSED_MEMO_SIZE) parsed.delete(parsed.keys().next().value as string);
    parsed.set(origin, { text, policy });
    return policy;
  };

  async function policyFor(origin: string, signal: AbortSignal): Promise<RobotsPolicy> {
    const key = robotsCacheKey(origin);
    try {
      const cached = await deps.cache.get(key, deps.now());
      if (cached !== null) {
        const memo = parsed.get(origin);
        return memo && memo.text === cached ? memo.policy : remember(origin, cached, JSON.parse(cached) as RobotsPolicy);
      }
    } catch (err) {
      deps.logger?.warn({ err, origin }, 'robots cache read failed; fetching robots.txt');
    }
    return untilAborted(sharedFetch(origin), signal);
  }

  // one robots.txt request per origin at a time, however many reads wait for it; it runs
  // on its own 5 s bound, so one caller giving up does not fail the others
  const inflight = new Map<string, Promise<RobotsPolicy>>();
  function sharedFetch(origin: string): Promise<RobotsPolicy> {
    const running = inflight.get(origin);
    if (running) return running;
    const p = (async () => {
      const policy = await fetchPolicy(origin);
      try {
        await deps.cache.set(robotsCacheKey(origin), JSON.stringify(policy), ROBOTS_CACHE_TTL_MS, deps.now());
      } catch (err) {
        deps.logger?.warn({ err, origin }, 'robots cache write failed');
      }
      return policy;
    })();
    inflight.set(origin, p);
    p.finally(() => inflight.delete(origin)).catch(() => {});
    return p;
  }

  /**
   * RFC 9309 §2.3.1: 2xx → parse; 3xx left after the redirects and 4xx → "unavailable",
   * allow all; 5xx, 429, time-out or a broken connection → "unreachable", disallow all.
   * A host that does not resolve, refuses connections, fails TLS or is not public fails
   * the read with that error instead (the page would fail the same way).
   */
  async function fetchPolicy(origin: string): Promise<RobotsPolicy> {
    let res: FetchedResource;
    try {
      res = await deps.fetchResource(`${origin}/robots.txt`, {
        timeoutMs: deps.timeoutMs,
        maxBytes: ROBOTS_MAX_BYTES,
        truncate: true,
        followRedirects: ROBOTS_MAX_REDIRECTS,
        headers: { accept: 'text/plain, */*;q=0.5' },
      });
    } catch (err) {
      if (err instanceof ServiceError && ['URL_NOT_FOUND', 'TLS_ERROR', 'INVALID_URL'].includes(err.code)) throw err;
      return { kind: 'disallow-all' };
    }
    if (res.status >= 200 && res.status < 300) return parseRobots(res.body.toString('utf8'));
    if (res.status === 429 || res.status >= 500) return { kind: 'disallow-all' };
    return { kind: 'allow-all' };
  }

  return {
    policyFor,
    async check(url, signal) {
      if (url.pathname === '/robots.txt') return;
      const policy = await policyFor(url.origin, signal);
      if (!isAllowedByRobots(policy, url.pathname + url.search)) {
        throw new ServiceError('ROBOTS_BLOCKED', `robots.txt of ${url.origin} disallows this URL for PithBot`);
      }
    },
  };
}

/** Waits for `p`, or rejects with the signal's reason as soon as it aborts. */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
