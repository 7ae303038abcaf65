/**
 * The sibling operations' CPU work on target content, as jobs (see
 * convert/workers/jobs.ts): parsing the page for score and extract, a page's links and a
 * sitemap's entries for map. Each takes the raw bytes and returns only what the operation
 * keeps, so a 10 MB page or sitemap is parsed in a worker and never on the event loop.
 */
import { collapseWhitespace, textOf } from '../convert/html/dom.js';
import { JS_SHELL_MAX_TEXT } from '../convert/html/warnings.js';
import type { Job } from '../convert/workers/jobs.js';
import { parseHttpUrl } from '../fetch/url.js';
import { isScriptHeavy } from '../render/needs-render.js';
import type { ExtractData, FieldSpec } from './extract-data.js';
import { compileFields, extractData } from './extract-data.js';
import { absoluteHttpUrl, elements, isHtmlType, parsePage, visibleText } from './html-page.js';
import { siteOf } from './map-site.js';
import type { SitemapEntry } from './map-sitemap.js';
import { parseSitemap } from './map-sitemap.js';
import type { ProbeAnswer, Score } from './score-rubric.js';
import { computeScore } from './score-rubric.js';

/** A fetched body as it crosses into a worker (a Buffer arrives as a plain Uint8Array). */
export interface PageBytes {
  url: string;
  body: Uint8Array;
  /** Media type without parameters. */
  contentType: string | null;
  /** The raw Content-Type header (its charset decodes the body). */
  contentTypeHeader: string | null;
}

const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Under this, a parse on the calling thread costs less than the hop to a worker. */
const INLINE_MAX_BYTES = 16 * 1024;

export interface ScoreJobInput {
  page: PageBytes;
  robots: ProbeAnswer | null;
  llms: ProbeAnswer | null;
  sitemap: (ProbeAnswer & { url: string }) | null;
  markdown: ProbeAnswer | null;
}

export const SCORE_JOB: Job<ScoreJobInput, Score> = {
  name: 'score',
  label: 'scoring the page',
  run: ({ page, ...probes }) => {
    const body = asBuffer(page.body);
    const parsed = isHtmlType(page.contentType, body) ? parsePage(page.url, body, page.contentTypeHeader) : null;
    return computeScore({ url: page.url, page: parsed, ...probes });
  },
  weight: (input) => input.page.body.byteLength,
  inline: (input) => input.page.body.byteLength <= INLINE_MAX_BYTES,
};

export interface ExtractJobInput {
  page: PageBytes;
  /** The request's field specs (compiled again in the worker: selectors do not cross threads). */
  fields: Array<{ name: string; spec: FieldSpec }>;
}

export interface ExtractJobOutput {
  data: ExtractData;
  /** Little visible text on script-heavy markup: "auto" would render this page. */
  looksLikeShell: boolean;
}

export const EXTRACT_JOB: Job<ExtractJobInput, ExtractJobOutput> = {
  name: 'extract',
  label: 'extracting from the page',
  run: ({ page, fields }) => {
    const body = asBuffer(page.body);
    const parsed = parsePage(page.url, body, page.contentTypeHeader);
    const compiled = compileFields(Object.fromEntries(fields.map((f) => [f.name, f.spec])));
    return {
      data: extractData(parsed, compiled),
      looksLikeShell: visibleText(parsed.doc).length < JS_SHELL_MAX_TEXT && isScriptHeavy(body),
    };
  },
  weight: (input) => input.page.body.byteLength,
  inline: (input) => input.page.body.byteLength <= INLINE_MAX_BYTES,
};

/** Which discovered URLs map keeps: same registrable domain or not, and how many at most. */
export interface LinkScope {
  /** Registrable domain to keep; null keeps every site. */
  site: string | null;
  maxUrls: number;
  titleChars: number;
}

export interface FoundLink {
  url: string;
  title?: string;
  lastmod?: string;
}

export interface PageLinksOutput {
  /** Every http(s) link of the page (before the site filter), as map's stats count them. */
  seen: number;
  links: FoundLink[];
  /** More links were in scope than `maxUrls`. */
  capped: boolean;
}

export const PAGE_LINKS_JOB: Job<{ page: PageBytes; scope: LinkScope }, PageLinksOutput> = {
  name: 'page-links',
  label: 'reading the page links',
  run: ({ page, scope }) => {
    const parsed = parsePage(page.url, asBuffer(page.body), page.contentTypeHeader);
    const kept = new Keeper(scope);
    let seen = 0;
    for (const a of elements(parsed.doc, (el) => el.name === 'a' || el.name === 'area')) {
      const url = absoluteHttpUrl(a.attribs.href, parsed.base);
      if (url === null) continue;
      seen++;
      const title = collapseWhitespace(textOf(a)).slice(0, scope.titleChars);
      kept.add(url, title ? { title } : {});
    }
    return { seen, links: kept.links(), capped: kept.capped };
  },
  weight: (input) => input.page.body.byteLength,
  inline: (input) => input.page.body.byteLength <= INLINE_MAX_BYTES,
};

export interface SitemapJobOutput {
  kind: 'index' | 'urlset' | 'text';
  /** Child sitemaps of an index, in scope (deduplicated); empty for a urlset. */
  children: string[];
  /** Page URLs of a urlset or text list, in scope (deduplicated). */
  links: FoundLink[];
  capped: boolean;
}

export const SITEMAP_JOB: Job<{ body: Uint8Array; scope: LinkScope }, SitemapJobOutput> = {
  name: 'sitemap',
  label: 'parsing the sitemap',
  run: ({ body, scope }) => {
    const parsed = parseSitemap(asBuffer(body).toString('utf8'));
    const kept = new Keeper(scope);
    for (const entry of parsed.entries) kept.add(entry.loc, lastmodOf(entry));
    const found = kept.links();
    return {
      kind: parsed.kind,
      children: parsed.kind === 'index' ? found.map((l) => l.url) : [],
      links: parsed.kind === 'index' ? [] : found,
      capped: kept.capped,
    };
  },
  weight: (input) => input.body.byteLength,
  inline: (input) => input.body.byteLength <= INLINE_MAX_BYTES,
};

function lastmodOf(entry: SitemapEntry): { lastmod?: string } {
  return entry.lastmod ? { lastmod: entry.lastmod } : {};
}

/** Canonical, in-scope, first-seen URLs up to the cap; a later duplicate only fills a missing title. */
class Keeper {
  private readonly found = new Map<string, FoundLink>();
  capped = false;

  constructor(private readonly scope: LinkScope) {}

  add(raw: string, extra: { title?: string; lastmod?: string }): void {
    let url: string;
    try {
      url = parseHttpUrl(raw).href;
    } catch {
      return;
    }
    if (this.scope.site !== null && siteOf(new URL(url).hostname) !== this.scope.site) return;
    const known = this.found.get(url);
    if (known) {
      if (extra.title && !known.title) known.title = extra.title;
      return;
    }
    if (this.found.size >= this.scope.maxUrls) {
      this.capped = true;
      return;
    }
    this.found.set(url, { url, ...extra });
  }

  links(): FoundLink[] {
    return [...this.found.values()];
  }
}
