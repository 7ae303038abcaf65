import { performance } from 'node:perf_hooks';
import type { ConvertOptions } from '../convert/index.js';
import { convertDocument } from '../convert/index.js';
import type { DocumentMetadata, Warning } from '../convert/types.js';
import type { FetchedDocument, Fetcher } from '../fetch/types.js';
import type { CacheStore } from '../store/types.js';

/** Cache lifetime of every cached operation (spec: one hour). */
export const CACHE_TTL_SECONDS = 3600;

export interface ReadStats {
  raw_html_size_kb: number;
  markdown_size_kb: number;
  reduction_percent: number;
  extraction_time_ms: number;
}

/** The cacheable part of a read result (what the JSON response carries besides status/cache). */
export interface ReadResult {
  url: string;
  markdown: string;
  metadata: DocumentMetadata;
  stats: ReadStats;
  warnings: Warning[];
}

export interface ReadDeps {
  fetcher: Fetcher;
  cache: CacheStore;
  engineVersion: string;
  now: () => number;
  /** Converter options (e.g. the shared PDF worker pool). */
  convert?: ConvertOptions;
}

export interface ReadInput {
  /** Canonical request URL (validated by canonicalizeRequestUrl). */
  url: string;
  fresh: boolean;
  /** The request's abort signal, or a function that opens it when the work needs it. */
  signal?: AbortSignal | (() => AbortSignal);
}

export function openSignal(signal: ReadInput['signal']): AbortSignal | undefined {
  return typeof signal === 'function' ? signal() : signal;
}

/** Cache key: (operation, engine version, canonical request URL). */
export function cacheKey(operation: string, engineVersion: string, url: string): string {
  return `op:${operation}:${engineVersion}:${url}`;
}

/**
 * The one-hour cache around an operation: look up unless `fresh`, compute on a miss, and
 * always write what was computed. Shared by read, read-and-score, extract and map.
 */
export async function readThroughCache<T>(
  deps: { cache: CacheStore; now: () => number },
  key: string,
  fresh: boolean,
  compute: () => Promise<T>,
): Promise<{ result: T; cacheHit: boolean }> {
  if (!fresh) {
    const cached = await deps.cache.get(key, deps.now());
    if (cached !== null) return { result: JSON.parse(cached) as T, cacheHit: true };
  }
  const result = await compute();
  await deps.cache.set(key, JSON.stringify(result), CACHE_TTL_SECONDS * 1000, deps.now());
  return { result, cacheHit: false };
}

/** Reads one URL through the one-hour cache. `fresh` skips the lookup but still writes. */
export async function readPage(deps: ReadDeps, input: ReadInput): Promise<{ result: ReadResult; cacheHit: boolean }> {
  return readThroughCache(deps, cacheKey('read', deps.engineVersion, input.url), input.fresh, () =>
    fetchAndConvert(deps.fetcher, input.url, openSignal(input.signal), deps.convert),
  );
}

/** Fetch + convert without the cache; shared by read, batch items and the CLI. */
export async function fetchAndConvert(fetcher: Fetcher, url: string, signal?: AbortSignal, convert?: ConvertOptions): Promise<ReadResult> {
  const doc = await fetcher.fetch(url, signal ? { signal } : {});
  return convertFetched(doc, convert, signal);
}

/** Converts a fetched document into read's result; `extraction_time_ms` starts here. */
export async function convertFetched(doc: FetchedDocument, convert?: ConvertOptions, signal?: AbortSignal): Promise<ReadResult> {
  const started = performance.now();
  const input = { body: doc.body, contentType: doc.contentType, headers: doc.headers, url: doc.url, ...(signal ? { signal } : {}) };
  const converted = await convertDocument(input, convert);
  const extractionMs = Math.round(performance.now() - started);
  return {
    url: doc.url,
    markdown: converted.markdown,
    metadata: converted.metadata,
    stats: computeStats(doc.body.length, Buffer.byteLength(converted.markdown, 'utf8'), extractionMs),
    warnings: converted.warnings,
  };
}

const round = (value: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};

/** KB = 1024 bytes, 2 decimals; reduction 1 decimal, negative when the Markdown grew. */
export function computeStats(rawBytes: number, markdownBytes: number, extractionMs: number): ReadStats {
  return {
    raw_html_size_kb: round(rawBytes / 1024, 2),
    markdown_size_kb: round(markdownBytes / 1024, 2),
    reduction_percent: rawBytes === 0 ? 0 : round(100 * (1 - markdownBytes / rawBytes), 1),
    extraction_time_ms: extractionMs,
  };
}
