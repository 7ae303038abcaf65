import { ServiceError } from '../errors.js';
import { compileGlobMatcher } from './map-glob.js';

/**
 * URL filters (include/exclude globs) and BM25 ranking over URL + title for map. Pure.
 */

export interface CompiledGlob {
  /** Matches the whole URL (case-insensitively) rather than the path with its query. */
  fullUrl: boolean;
  matches(text: string): boolean;
  /** Cost of a match per character of text (see GlobMatcher.words). */
  words: number;
}

/**
 * Glob → matcher (see map-glob.ts). `**` spans segments, `*` stays within one, `?` is one
 * character. A pattern starting with `/` matches the path (with its query); one starting
 * with `http://` or `https://` matches the whole URL. Anything else is BAD_REQUEST.
 */
export function compileGlob(pattern: string, field: string): CompiledGlob {
  const fullUrl = /^https?:\/\//i.test(pattern);
  if (!fullUrl && !pattern.startsWith('/')) {
    throw new ServiceError(
      'BAD_REQUEST',
      `${field}: "${pattern.slice(0, 100)}" must start with "/" (a path) or "http(s)://" (a whole URL)`,
    );
  }
  const matcher = compileGlobMatcher(pattern, fullUrl);
  return { fullUrl, matches: (text) => matcher.matches(text), words: matcher.words };
}

export interface UrlFilter {
  include: CompiledGlob[];
  exclude: CompiledGlob[];
}

export function compileFilter(include: readonly string[], exclude: readonly string[]): UrlFilter {
  return {
    include: include.map((p, i) => compileGlob(p, `include[${i}]`)),
    exclude: exclude.map((p, i) => compileGlob(p, `exclude[${i}]`)),
  };
}

export function passesFilter(filter: UrlFilter, url: string): boolean {
  const texts = filterTexts(url);
  if (texts === null) return false;
  const hit = (g: CompiledGlob): boolean => g.matches(g.fullUrl ? texts.url : texts.path);
  if (filter.include.length > 0 && !filter.include.some(hit)) return false;
  return !filter.exclude.some(hit);
}

/** What globs are matched against: the whole URL, or its path with the query. */
function filterTexts(url: string): { url: string; path: string } | null {
  try {
    const parsed = new URL(url);
    return { url, path: parsed.pathname + parsed.search };
  } catch {
    return null;
  }
}

/**
 * Time filtering may take once discovery is done. Each glob match is linear, but 100 client
 * globs over the 50,000 URLs a map may collect are still a lot of work: past this bound the
 * URLs not yet examined are dropped and the call reports the `time` bound.
 */
export const FILTER_BUDGET_MS = 5_000;
/** The filter gives the event loop back this often, so other requests keep being served. */
const FILTER_SLICE_MS = 10;
/** Glob work (characters × state words) between two looks at the clock (well under 1 ms). */
const WORK_PER_CLOCK_LOOK = 50_000;

/**
 * The links that pass the filter (as passesFilter), in order, computed in slices that
 * yield to the event loop; `complete: false` when the time bound cut it short.
 */
export async function filterLinks<T extends { url: string }>(
  links: readonly T[],
  filter: UrlFilter,
  budgetMs: number = FILTER_BUDGET_MS,
): Promise<{ kept: T[]; complete: boolean }> {
  if (filter.include.length === 0 && filter.exclude.length === 0) return { kept: [...links], complete: true };
  const deadline = performance.now() + budgetMs;
  let sliceEnd = performance.now() + FILTER_SLICE_MS;
  let work = 0;
  /** False once the time is up; yields when the slice is used up. */
  const carryOn = async (): Promise<boolean> => {
    work = 0;
    const now = performance.now();
    if (now >= deadline) return false;
    if (now >= sliceEnd) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceEnd = performance.now() + FILTER_SLICE_MS;
    }
    return true;
  };
  const kept: T[] = [];
  for (const link of links) {
    const texts = filterTexts(link.url);
    if (texts === null) continue;
    let included = filter.include.length === 0;
    for (const glob of filter.include) {
      const text = glob.fullUrl ? texts.url : texts.path;
      work += text.length * glob.words;
      if (work >= WORK_PER_CLOCK_LOOK && !(await carryOn())) return { kept, complete: false };
      if (glob.matches(text)) {
        included = true;
        break;
      }
    }
    if (!included) continue;
    let excluded = false;
    for (const glob of filter.exclude) {
      const text = glob.fullUrl ? texts.url : texts.path;
      work += text.length * glob.words;
      if (work >= WORK_PER_CLOCK_LOOK && !(await carryOn())) return { kept, complete: false };
      if (glob.matches(text)) {
        excluded = true;
        break;
      }
    }
    if (!excluded) kept.push(link);
  }
  return { kept, complete: true };
}

/** Lower-case letter/number runs; URLs split on every separator. */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

const K1 = 1.2;
const B = 0.75;

/**
 * Okapi BM25 of `query` over each item's URL and title. Returns the items with a
 * positive score, best first; ties keep their input order.
 */
export function rankByRelevance<T extends { url: string; title?: string }>(items: readonly T[], query: string): T[] {
  const terms = [...new Set(tokenize(query))];
  if (terms.length === 0) return [...items];
  const docs = items.map((item) => tokenize(`${urlWords(item.url)} ${item.title ?? ''}`));
  const n = docs.length;
  const avgLen = docs.reduce((s, d) => s + d.length, 0) / Math.max(1, n);
  const df = new Map<string, number>(terms.map((t) => [t, 0]));
  const tfs = docs.map((doc) => {
    const tf = new Map<string, number>();
    for (const tok of doc) if (df.has(tok)) tf.set(tok, (tf.get(tok) ?? 0) + 1);
    for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
    return tf;
  });
  const idf = new Map(terms.map((t) => [t, Math.log(1 + (n - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5))]));
  const scored = items.map((item, i) => {
    const tf = tfs[i] as Map<string, number>;
    const len = (docs[i] as string[]).length;
    let score = 0;
    for (const t of terms) {
      const f = tf.get(t) ?? 0;
      if (f === 0) continue;
      score += (idf.get(t) ?? 0) * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * len) / (avgLen || 1))));
    }
    return { item, score, i };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map((s) => s.item);
}

/** The words of a URL: host without `www`, path and query; scheme dropped. */
function urlWords(url: string): string {
  return url.replace(/^https?:\/\/(?:www\.)?/i, '');
}
