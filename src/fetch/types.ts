import type { Dispatcher } from 'undici';
import type { MemoryLease } from './memory-budget.js';

/** A DNS lookup in the shape of `dns.lookup` with `{all: true}`; injectable so tests can map names. */
export type LookupFn = (hostname: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;

/** What the fetcher hands to the converters: bytes already content-decoded (gzip/br/deflate). */
export interface FetchedDocument {
  /** Final URL after redirects, canonicalised. */
  url: string;
  /** HTTP status of the final response (2xx; error statuses become ServiceErrors). */
  status: number;
  /** Response headers, lower-case names. */
  headers: Record<string, string>;
  /** Media type from Content-Type without parameters, lower-case; null when absent. */
  contentType: string | null;
  /** Body bytes after content decoding; never more than the 10 MB cap. */
  body: Buffer;
}

export interface FetchOptions {
  signal?: AbortSignal;
  /** Extra request headers (e.g. Accept). Never credentials. */
  headers?: Record<string, string>;
  /** The call's share of the instance's body memory: the body's bytes count against it as they arrive. */
  memory?: MemoryLease;
  /**
   * Read at most this much of the page (default and maximum: the 10 MB cap). With it, a
   * longer page is cut there instead of TOO_LARGE (score reads only what it judges).
   */
  truncateAt?: number;
}

/** Fetches one public URL safely. Throws ServiceError with the spec's codes. */
export interface Fetcher {
  fetch(url: string, options?: FetchOptions): Promise<FetchedDocument>;
  /**
   * Side resources (robots.txt, llms.txt, sitemaps, probes) with their own deadline and the
   * same safety; statuses are returned, not mapped. Always present on `createFetcher`'s
   * fetcher (see ResourceFetcher); optional here so test fakes may omit it.
   */
  fetchResource?(url: string, options?: ResourceOptions): Promise<FetchedResource>;
  /** The guarded undici dispatcher (resolved addresses are checked on connect). */
  dispatcher?: Dispatcher;
}

/** Options for auxiliary resources (robots.txt, llms.txt, sitemaps, probes). */
export interface ResourceOptions {
  signal?: AbortSignal;
  /** Whole-request deadline including the body; default the page deadline (15 s). */
  timeoutMs?: number;
  /** Cap on raw and on decoded bytes; default 10 MB. */
  maxBytes?: number;
  /** When the cap is hit, return the first `maxBytes` bytes (truncated: true) instead of TOO_LARGE. */
  truncate?: boolean;
  /** Redirect hops to follow (each re-validated); 0 returns the 3xx itself. Default 5. */
  followRedirects?: number;
  /** Extra request headers (e.g. Accept). Credentials and hop-by-hop headers are dropped. */
  headers?: Record<string, string>;
  /** Default GET; HEAD for cheap existence probes (the body is then empty). */
  method?: 'GET' | 'HEAD';
  /** The call's share of the instance's body memory (see FetchOptions.memory). */
  memory?: MemoryLease;
  /** Check the resource's own robots.txt first (ROBOTS_BLOCKED): for hosts other than the page's. */
  obeyRobots?: boolean;
}

/** A resource fetched with the same safety as a page, but any status is returned as is. */
export interface FetchedResource {
  /** Final URL after the redirects followed, canonicalised. */
  url: string;
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** Media type without parameters, lower-case; null when absent. */
  contentType: string | null;
  /** Content-decoded body (also for error statuses). */
  body: Buffer;
  truncated: boolean;
}

/**
 * Safe side fetches for the sibling operations. No robots check, no status mapping;
 * network failures still throw ServiceError (INVALID_URL, URL_NOT_FOUND, TIMEOUT,
 * TLS_ERROR, TOO_LARGE, UPSTREAM_ERROR).
 */
export interface ResourceFetcher {
  fetchResource(url: string, options?: ResourceOptions): Promise<FetchedResource>;
}
