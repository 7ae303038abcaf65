import { ServiceError } from '../errors.js';

/**
 * URL filters (include/exclude globs) and BM25 ranking over URL + title for map. Pure.
 */

/**
 * Glob → anchored RegExp. `**` spans segments, `*` stays within one, `?` is one character.
 * A pattern starting with `/` matches the path (with its query); one starting with
 * `http://` or `https://` matches the whole URL. Anything else is BAD_REQUEST.
 */
export function compileGlob(pattern: string, field: string): { fullUrl: boolean; re: RegExp } {
  const fullUrl = /^https?:\/\//i.test(pattern);
  if (!fullUrl && !pattern.startsWith('/')) {
    throw new ServiceError(
      'BAD_REQUEST',
      `${field}: "${pattern.slice(0, 100)}" must start with "/" (a path) or "http(s)://" (a whole URL)`,
    );
  }
  let src = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === '*') {
      if (pattern[i + 1] === '*') {
        src += '.*';
        i++;
      } else {
        src += '[^/]*';
      }
    } else if (ch === '?') {
      src += '[^/]';
    } else {
      src += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
  }
  return { fullUrl, re: new RegExp(`^${src}$`, fullUrl ? 'i' : '') };
}

export interface UrlFilter {
  include: Array<{ fullUrl: boolean; re: RegExp }>;
  exclude: Array<{ fullUrl: boolean; re: RegExp }>;
}

export function compileFilter(include: readonly string[], exclude: readonly string[]): UrlFilter {
  return {
    include: include.map((p, i) => compileGlob(p, `include[${i}]`)),
    exclude: exclude.map((p, i) => compileGlob(p, `exclude[${i}]`)),
  };
}

export function passesFilter(filter: UrlFilter, url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const path = parsed.pathname + parsed.search;
  const hit = (g: { fullUrl: boolean; re: RegExp }): boolean => g.re.test(g.fullUrl ? url : path);
  if (filter.include.length > 0 && !filter.include.some(hit)) return false;
  return !filter.exclude.some(hit);
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
