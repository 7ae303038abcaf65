import { collapseWhitespace, pushAll } from './dom.js';
import type { RawMetadata } from './prepare.js';

/**
 * Page metadata from `<head>` and structured data, read before the clean-up phase removes
 * scripts and meta tags. Title: og:title / twitter:title / JSON-LD headline / `<title>`
 * cleaned of its site suffix / first `<h1>`. Author, site name and publication date come
 * from OpenGraph, meta tags and JSON-LD.
 */

export interface PageMetadata {
  title: string | null;
  description: string | null;
  htmlLang: string | null;
  siteName: string | null;
  author: string | null;
  publishedAt: string | null;
  baseHref: string | null;
  /** Every title-like string seen, so the content can drop a heading that repeats it. */
  titleVariants: string[];
  /** What the page's structured data says it is (page-type.ts reads these). */
  structured: StructuredHints;
  /** The longest JSON-LD `Product` description, as plain text (product.ts falls back on it). */
  productDescription: string | null;
}

/** Page-type evidence from JSON-LD and OpenGraph. */
export interface StructuredHints {
  /** Every JSON-LD `@type` seen (schema.org names without their URL prefix). */
  ldTypes: Set<string>;
  /** A Product's offer is an AggregateOffer (a price range: many products, or variants). */
  aggregateOffer: boolean;
  /** `og:type`, lower-cased, or null. */
  ogType: string | null;
  /** A `<meta>` tag dates the page (`article:published_time`…): post templates write one, while SEO plugins put a datePublished in every page's JSON-LD. */
  datedByMetaTag: boolean;
}

/** JSON-LD blocks larger than this are skipped (they are data dumps, not page metadata). */
const MAX_JSON_LD_BYTES = 512 * 1024;
/** Starts only where a whitespace run begins, so a long run is not rescanned from each of its characters. */
const TITLE_SEPARATOR = /(?<!\s)\s+(?:[|\u2013\u2014\u00b7\u00bb\u2022:/]|-|::)\s+/;
const PRODUCT_TYPES = /\bProduct(?:Group|Model)?\b/;
/** A product description is read up to this long (a full description, not a meta string). */
const MAX_PRODUCT_DESCRIPTION = 8000;
const ARTICLE_TYPES = /Article|BlogPosting|Report|WebPage|Product|QAPage|DiscussionForumPosting|Recipe|Review|Event|Course|HowTo/;

interface JsonLdFacts {
  types: Set<string>;
  aggregateOffer: boolean;
  headline?: string;
  description?: string;
  author?: string;
  datePublished?: string;
  publisher?: string;
  productDescription?: string;
}

export function buildMetadata(raw: RawMetadata): PageMetadata {
  const meta = raw.metas;
  const get = (k: string): string | undefined => {
    const v = meta.get(k);
    return v === undefined ? undefined : clean(v) || undefined;
  };
  const titleTag = raw.titleTag !== null ? clean(raw.titleTag) || null : null;
  const firstH1 = raw.firstH1 !== null ? clean(raw.firstH1) || null : null;
  const relAuthor = raw.relAuthor !== null ? clean(raw.relAuthor) || null : null;
  const ld: JsonLdFacts = { types: new Set(), aggregateOffer: false };
  for (const text of raw.jsonLd) readJsonLd(text, ld);
  const siteName = get('og:site_name') || ld.publisher || get('application-name') || null;
  const ogTitle = get('og:title') || get('twitter:title') || null;
  const title = pick(ogTitle ? stripSite(ogTitle, siteName) : null, ld.headline, titleTag ? cleanTitle(titleTag, siteName) : null, firstH1);
  const description = pick(get('description'), get('og:description'), get('twitter:description'), ld.description);
  const metaAuthor = get('author') || get('article:author') || get('dc.creator') || get('parsely-author') || null;
  const author = pick(metaAuthor && !/^https?:/.test(metaAuthor) ? metaAuthor : null, ld.author, relAuthor);
  const metaDate = pick(
    get('datepublished'),
    get('date'),
    get('pubdate'),
    get('publish-date'),
    get('dc.date'),
    get('dc.date.issued'),
    get('parsely-pub-date'),
  );
  const ogDate = get('article:published_time') ?? null;
  const publishedAt = pick(ogDate, ld.datePublished, metaDate);
  const variants = [title, ogTitle, titleTag, ld.headline, titleTag ? cleanTitle(titleTag, siteName) : null].filter(
    (t): t is string => typeof t === 'string' && t !== '',
  );
  return {
    title,
    description,
    htmlLang: raw.htmlLang,
    siteName,
    author,
    publishedAt: publishedAt && !Number.isNaN(Date.parse(publishedAt)) ? publishedAt : null,
    baseHref: raw.baseHref,
    titleVariants: variants,
    structured: {
      ldTypes: ld.types,
      aggregateOffer: ld.aggregateOffer,
      ogType: get('og:type')?.toLowerCase() ?? null,
      datedByMetaTag: (ogDate ?? metaDate) !== null,
    },
    productDescription: ld.productDescription ?? null,
  };
}

function pick(...values: Array<string | null | undefined>): string | null {
  for (const v of values) if (v) return v;
  return null;
}

/** Metadata strings are cut here: a title or description longer than this is not one. */
const MAX_META_CHARS = 2000;

function clean(s: string): string {
  return collapseWhitespace(s.length > MAX_META_CHARS ? s.slice(0, MAX_META_CHARS) : s);
}

function stripSite(title: string, siteName: string | null): string {
  if (!siteName) return title;
  const parts = title.split(TITLE_SEPARATOR);
  if (parts.length < 2) return title;
  const norm = siteName.toLowerCase();
  if ((parts[parts.length - 1] ?? '').toLowerCase() === norm) return parts.slice(0, -1).join(' - ');
  if ((parts[0] ?? '').toLowerCase() === norm) return parts.slice(1).join(' - ');
  return title;
}

/** `<title>` usually ends (or starts) with the site name: keep the part that reads like a headline. */
export function cleanTitle(raw: string, siteName: string | null): string {
  const stripped = stripSite(raw, siteName);
  if (stripped !== raw) return stripped;
  const last = titleSplit(raw, ANY_SEPARATOR, 'last');
  if (!last) return raw;
  const [head, tail] = last;
  const words = (s: string): number => s.split(/\s+/).length;
  if (words(tail) <= 4 && (words(head) >= 2 || head.length >= 2 * tail.length)) return head;
  // "Site | Headline": only with bar-like separators; "Short - long" is usually one title.
  const first = titleSplit(raw, BAR_SEPARATOR, 'first');
  if (first && words(first[0]) <= 3 && words(first[1]) >= 4) return first[1];
  return raw;
}

/** ` - `, ` | `, ` :: `…: a separator between whitespace, matched from where the whitespace begins. */
const ANY_SEPARATOR = /(?<!\s)\s+(?:[|\u2013\u2014\u00b7\u00bb\u2022]|-|::)\s+/g;
const BAR_SEPARATOR = /(?<!\s)\s+(?:[|\u00b7\u00bb\u2022]|::)\s+/g;
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * `[head, tail]` around the last (or first) separator with a one-line head ending in a
 * non-space and a one-line tail (ending in a non-space for 'first'), or null. What
 * `/^(.*\S)\s+(?:…)\s+(.+)$/` and `/^(.+?)\s+(?:…)\s+(.*\S)$/` found, in one linear scan.
 */
function titleSplit(raw: string, separator: RegExp, which: 'first' | 'last'): [string, string] | null {
  if (which === 'first' && /\s$/.test(raw)) return null;
  const firstBreak = raw.search(LINE_BREAK);
  let lastBreak = -1;
  if (firstBreak >= 0) for (let i = raw.length - 1; lastBreak < 0; i--) if (LINE_BREAK.test(raw[i]!)) lastBreak = i;
  let found: [string, string] | null = null;
  separator.lastIndex = 0;
  for (let m = separator.exec(raw); m !== null; m = separator.exec(raw)) {
    // Separators may share whitespace (`a - - b`): look again right after this one's start.
    separator.lastIndex = m.index + 1;
    const tailStart = m.index + m[0].length;
    if (firstBreak >= 0 && firstBreak < m.index) break;
    if (m.index === 0 || tailStart === raw.length || lastBreak >= tailStart) continue;
    found = [raw.slice(0, m.index), raw.slice(tailStart)];
    if (which === 'first') break;
  }
  return found;
}

function readJsonLd(text: string, into: JsonLdFacts): void {
  if (text.length > MAX_JSON_LD_BYTES) return;
  let data: unknown;
  try {
    data = JSON.parse(text.trim().replace(/^<!--|-->$/g, ''));
  } catch {
    return;
  }
  const queue: unknown[] = [data];
  let guard = 0;
  while (queue.length > 0 && guard++ < 200) {
    const item = queue.shift();
    if (Array.isArray(item)) {
      pushAll(queue, item);
      continue;
    }
    if (!isRecord(item)) continue;
    if (Array.isArray(item['@graph'])) pushAll(queue, item['@graph']);
    const type = item['@type'];
    const types = Array.isArray(type) ? type.join(' ') : typeof type === 'string' ? type : '';
    noteTypes(types, item, into);
    if (PRODUCT_TYPES.test(types)) noteProductDescription(item.description, into);
    if (!ARTICLE_TYPES.test(types)) continue;
    into.headline ??= str(item.headline) ?? (/(?:Article|BlogPosting|Report)/.test(types) ? str(item.name) : undefined);
    into.description ??= str(item.description);
    into.datePublished ??= str(item.datePublished) ?? str(item.uploadDate);
    into.author ??= personName(item.author);
    into.publisher ??= personName(item.publisher);
  }
}

/** Record the item's types; look one level into `offers` and `mainEntity`, which carry page-type evidence. */
function noteTypes(types: string, item: Record<string, unknown>, into: JsonLdFacts): void {
  for (const t of types.split(' ')) if (t) into.types.add(t.slice(t.lastIndexOf('/') + 1));
  for (const key of ['offers', 'mainEntity']) {
    const inner = item[key];
    for (const v of Array.isArray(inner) ? inner : [inner]) {
      if (!isRecord(v)) continue;
      const t = v['@type'];
      if (typeof t === 'string') into.types.add(t.slice(t.lastIndexOf('/') + 1));
      if (t === 'AggregateOffer' && /Product/.test(types)) into.aggregateOffer = true;
    }
  }
}

/** A description may carry the shop's HTML: its tags go, its text stays (bounded: linear). */
const HTML_TAG = /<\/?[a-z][^<>]{0,500}>/gi;
const ENTITY = /&(?:amp|lt|gt|quot|#39|nbsp);/g;
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&nbsp;': ' ' };

function noteProductDescription(v: unknown, into: JsonLdFacts): void {
  if (typeof v !== 'string') return;
  const raw = v.slice(0, MAX_PRODUCT_DESCRIPTION);
  const text = collapseWhitespace(
    urlDecoded(raw)
      .replace(HTML_TAG, ' ')
      .replace(ENTITY, (e) => ENTITIES[e] ?? e),
  );
  if (text.length > (into.productDescription?.length ?? 0)) into.productDescription = text;
}

/** Some themes print the description URL-encoded (`An%20elegant%20sofa`): no space, escaped spaces. */
function urlDecoded(s: string): string {
  if (s.includes(' ') || !s.includes('%20')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? clean(v) : undefined;
}

function personName(v: unknown): string | undefined {
  if (typeof v === 'string') return str(v);
  if (Array.isArray(v)) {
    const names = v.map(personName).filter((n): n is string => !!n);
    return names.length > 0 ? names.join(', ') : undefined;
  }
  if (isRecord(v)) return str(v.name);
  return undefined;
}
