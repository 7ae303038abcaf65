import type { Dispatcher } from 'undici';

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
}

/** Fetches one public URL safely. Throws ServiceError with the spec's codes. */
export interface Fetcher {
  fetch(url: string, options?: FetchOptions): Promise<FetchedDocument>;
  /** Fetches robots.txt-style side resources (probes) with their own bound; same safety. */
  dispatcher?: Dispatcher;
}
