import type { ErrorCode } from '../errors.js';
import { isServiceError } from '../errors.js';
import { canonicalizeRequestUrl } from '../fetch/url.js';
import type { RenderMode } from '../render/types.js';
import type { ReadDeps, ReadResult } from './read.js';
import type { ReadOptions } from './read-options.js';
import { readPage } from './read.js';
import { routeFragment } from './rendering.js';

/** Most URLs one batch call takes (spec: 1..100). */
export const MAX_BATCH_URLS = 100;

/**
 * A batch starts no item after this long. Items already started finish within their own
 * read deadline, so a batch answers within about this plus one read; the rest are
 * `ok: false` with TIMEOUT and refunded. Without it, 100 slow items would hold the slot
 * for up to 100 / parallelism × (15 s fetch + conversion).
 */
export const BATCH_TIME_LIMIT_MS = 120_000;

/**
 * The Markdown one batch answer carries at most, in characters. Items read once the answer
 * holds this much are `ok: false` with TOO_LARGE (refunded): 100 duplicates of a huge page
 * would otherwise build a JSON answer beyond V8's string limit after the charge. This also
 * bounds what a batch keeps in memory between its reads and its answer.
 */
export const BATCH_MAX_MARKDOWN_CHARS = 50 * 1024 * 1024;

export type BatchItem =
  | { ok: true; result: ReadResult; cacheHit: boolean }
  | { ok: false; url: string; error: { code: ErrorCode; message: string } };

export interface BatchInput {
  urls: readonly string[];
  /** Items read at the same time (config BATCH_PARALLELISM). */
  parallelism: number;
  allowPrivateTargets: readonly string[];
  /** `render` for every item; default "auto". */
  render?: RenderMode;
  /** How to read every item (part of each item's cache key). */
  options?: ReadOptions;
  signal?: AbortSignal;
  /** Called once for every failed item, with its index (the route refunds its credit). */
  onItemFailed: (index: number) => Promise<void>;
  /** Override of BATCH_TIME_LIMIT_MS (tests). */
  timeLimitMs?: number;
  /** Override of BATCH_MAX_MARKDOWN_CHARS (tests). */
  maxMarkdownChars?: number;
}

/**
 * Reads every URL through read's cache with bounded parallelism; results come back in
 * request order. A failed item becomes `ok: false` (never fails the batch); an abort of
 * the whole call (client gone, shutdown) does fail it.
 */
export async function readBatch(deps: ReadDeps, input: BatchInput): Promise<BatchItem[]> {
  const results: BatchItem[] = new Array<BatchItem>(input.urls.length);
  // duplicates are charged each, but share one read of their canonical URL
  const reads = new Map<string, Promise<{ result: ReadResult; cacheHit: boolean }>>();
  const timeLimitMs = input.timeLimitMs ?? BATCH_TIME_LIMIT_MS;
  const maxChars = input.maxMarkdownChars ?? BATCH_MAX_MARKDOWN_CHARS;
  const startsUntil = deps.now() + timeLimitMs;
  let answerChars = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < input.urls.length) {
      const index = next++;
      const raw = input.urls[index] as string;
      let item: BatchItem =
        deps.now() < startsUntil
          ? await readItem(deps, raw, input, reads)
          : {
              ok: false,
              url: raw,
              error: { code: 'TIMEOUT', message: `the batch reached its ${timeLimitMs / 1000} s time limit before this item started` },
            };
      if (item.ok) {
        const chars = item.result.content.length;
        if (answerChars + chars > maxChars) {
          const message = `the batch answer already holds ${Math.round(answerChars / 1048576)} MB of Markdown (at most ${Math.round(maxChars / 1048576)} MB); read this URL on its own`;
          item = { ok: false, url: raw, error: { code: 'TOO_LARGE', message } };
        } else answerChars += chars;
      }
      results[index] = item;
      if (!item.ok) await input.onItemFailed(index);
    }
  };
  const workers = Math.max(1, Math.min(input.parallelism, input.urls.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return results;
}

async function readItem(
  deps: ReadDeps,
  raw: string,
  input: BatchInput,
  reads: Map<string, Promise<{ result: ReadResult; cacheHit: boolean }>>,
): Promise<BatchItem> {
  try {
    const url = canonicalizeRequestUrl(raw, { allowPrivateTargets: input.allowPrivateTargets });
    const fragment = routeFragment(raw);
    const key = url + (fragment ?? '');
    let read = reads.get(key);
    if (!read) {
      read = readPage(deps, {
        url,
        fresh: false,
        render: input.render ?? 'auto',
        ...(input.options ? { options: input.options } : {}),
        ...(fragment ? { fragment } : {}),
        ...(input.signal ? { signal: input.signal } : {}),
      });
      reads.set(key, read);
    }
    const { result, cacheHit } = await read;
    return { ok: true, result, cacheHit };
  } catch (err) {
    if (input.signal?.aborted) throw input.signal.reason;
    if (isServiceError(err)) return { ok: false, url: raw, error: { code: err.code, message: err.message } };
    return { ok: false, url: raw, error: { code: 'INTERNAL_ERROR', message: 'internal error' } };
  }
}
