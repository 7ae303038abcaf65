import { createHash } from 'node:crypto';

/**
 * How the caller wants a page read, beyond the URL: options of read, read-and-score and
 * batch that change the answer, so they are part of the cache key. Defaults leave the key
 * as it was, so a plain read shares its cache entry with every other plain read.
 */
export interface ReadOptions {
  /** Keep text styled to be invisible (still counted in HIDDEN_TEXT and checked for PROMPT_INJECTION). */
  keepHidden: boolean;
}

export const DEFAULT_READ_OPTIONS: ReadOptions = { keepHidden: false };

/** The options from a request body (snake_case on the wire). */
export function readOptionsOf(body: { keep_hidden?: boolean }): ReadOptions {
  return { keepHidden: body.keep_hidden === true };
}

/** Cache-key suffix of non-default options: a digest of their normalised form, or ''. */
export function readOptionsKey(options: ReadOptions): string {
  if (!options.keepHidden) return '';
  const normal = JSON.stringify({ keepHidden: options.keepHidden });
  return `#o:${createHash('sha256').update(normal).digest('hex').slice(0, 16)}`;
}
