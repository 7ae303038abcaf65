import { createHash } from 'node:crypto';
import { getDomain } from 'tldts';
import { collapseWhitespace, textOf } from '../convert/html/dom.js';
import { isServiceError } from '../errors.js';
import { ROBOTS_MAX_BYTES } from '../fetch/robots.js';
import type { Fetcher } from '../fetch/types.js';
import { parseHttpUrl } from '../fetch/url.js';
import type { CacheStore } from '../store/types.js';
import { absoluteHttpUrl, elements, isHtmlType, parsePage } from './html-page.js';
import { compileFilter, filterLinks, rankByRelevance } from './map-rank.js';
import { gunzipCapped, isGzip, parseSitemap } from './map-sitemap.js';
import { cacheKey, readThroughCache } from './read.js';
import { resourceFetcher, sitemapLines } from './score.js';

/** The bounds of one map call (spec, issue 7). */
export const MAP_LIMITS = {
  defaultLimit: 1000,
  maxLimit: 5000,
  maxSitemapFiles: 50,
  /** Decoded (decompressed) sitemap bytes over all files. */
  maxSitemapBytes: 50 * 1024 * 1024,
  /** The whole call: page, robots.txt and sitemaps. */
  budgetMs: 15_000,
  /** Distinct URLs kept in memory before ranking; more are ignored. */
  maxCollected: 50_000,
  titleChars: 200,
} as const;

export interface MapLimits {
  maxSitemapFiles: number;
  maxSitemapBytes: number;
  budgetMs: number;
  maxCollected: number;
  titleChars: number;
}

export type MapBound = 'sitemap_files' | 'sitemap_bytes' | 'time' | 'urls';

export interface MapLink {
  url: string;
  source: 'sitemap' | 'page';
  lastmod?: string;
  title?: string;
}

export interface MapStats {
  sitemaps_read: number;
  sitemap_bytes: number;
  page_links: number;
  /** Distinct same-site URLs found (before include/exclude/search and limit). */
  urls_found: number;
  /** After include/exclude and search. */
  urls_matched: number;
  returned: number;
  /** Bounds that cut discovery short; empty when everything was read. */
  bounds_hit: MapBound[];
}

export interface MapResult {
  url: string;
  links: MapLink[];
  stats: MapStats;
}

export interface MapDeps {
  fetcher: Fetcher;
  cache: CacheStore;
  engineVersion: string;
  now: () => number;
  /** Test overrides of MAP_LIMITS. */
  limits?: Partial<MapLimits>;
}

export interface MapInput {
  url: string;
  limit: number;
  include: string[];
  exclude: string[];
  search: string | null;
  /** Keep only URLs of the page's registrable domain (default true). */
  sameDomain: boolean;
  signal?: AbortSignal;
}

export function mapCacheKey(engineVersion: string, input: MapInput): string {
  const opts = JSON.stringify([input.limit, input.include, input.exclude, input.search, input.sameDomain]);
  return `${cacheKey('map', engineVersion, input.url)}#${createHash('sha256').update(opts).digest('hex').slice(0, 32)}`;
}

/** POST /v1/map through the one-hour cache (no `fresh`). Filters are validated by the route first. */
export async function mapSiteCached(deps: MapDeps, input: MapInput): Promise<{ result: MapResult; cacheHit: boolean }> {
  return readThroughCache(deps, mapCacheKey(deps.engineVersion, input), false, () => mapSite(deps, input));
}

/** Registrable domain (eTLD+1) of a host; the host itself for IPs and bare names. */
export function siteOf(hostname: string): string {
  return getDomain(hostname, { allowPrivateDomains: true }) ?? hostname;
}

/**
 * Discovers a site's URLs: the page's own links, robots.txt `Sitemap:` lines and
 * `/sitemap.xml`, following sitemap indexes (cycles skipped) and `.gz` files, within
 * the file, byte and time bounds. Bounds cut discovery short; they are not errors.
 */
export async function mapSite(deps: MapDeps, input: MapInput): Promise<MapResult> {
  const limits: MapLimits = { ...MAP_LIMITS, ...deps.limits };
  const budget = AbortSignal.timeout(limits.budgetMs);
  const signal = input.signal ? AbortSignal.any([input.signal, budget]) : budget;
  const filter = compileFilter(input.include, input.exclude);
  const bounds = new Set<MapBound>();
  const found = new Map<string, MapLink>();
  let startUrl = input.url;
  const site = (): string => siteOf(new URL(startUrl).hostname);

  const add = (raw: string, link: Omit<MapLink, 'url'>): void => {
    let url: string;
    try {
      url = parseHttpUrl(raw).href;
    } catch {
      return;
    }
    if (input.sameDomain && siteOf(new URL(url).hostname) !== site()) return;
    const known = found.get(url);
    if (known) {
      if (link.source === 'sitemap' && known.source === 'page')
        Object.assign(known, { source: 'sitemap' }, link.lastmod ? { lastmod: link.lastmod } : {});
      if (link.title && !known.title) known.title = link.title;
      return;
    }
    if (found.size >= limits.maxCollected) {
      bounds.add('urls');
      return;
    }
    found.set(url, { url, ...link });
  };

  // 1. the page and its links
  let pageError: unknown = null;
  let pageLinks = 0;
  try {
    const doc = await deps.fetcher.fetch(input.url, { signal });
    startUrl = doc.url;
    if (isHtmlType(doc.contentType, doc.body)) {
      const page = parsePage(doc.url, doc.body, doc.headers['content-type'] ?? null);
      for (const a of elements(page.doc, (el) => el.name === 'a' || el.name === 'area')) {
        const url = absoluteHttpUrl(a.attribs.href, page.base);
        if (url === null) continue;
        pageLinks++;
        const title = collapseWhitespace(textOf(a)).slice(0, limits.titleChars);
        add(url, title ? { source: 'page', title } : { source: 'page' });
      }
    }
  } catch (err) {
    if (input.signal?.aborted) throw input.signal.reason;
    if (budget.aborted) bounds.add('time');
    pageError = err;
  }

  // 2. sitemaps
  const sitemapStats = await readSitemaps(deps, { startUrl, signal, limits, sameDomain: input.sameDomain, site: site(), bounds, add });
  if (input.signal?.aborted) throw input.signal.reason;
  if (found.size === 0 && pageError !== null && isServiceError(pageError)) throw pageError;

  // 3. filter, rank, cut
  const all = [...found.values()];
  const { kept: filtered, complete } = await filterLinks(all, filter);
  if (!complete) bounds.add('time');
  const matched = input.search ? rankByRelevance(filtered, input.search) : filtered;
  const links = matched.slice(0, input.limit);
  return {
    url: startUrl,
    links,
    stats: {
      sitemaps_read: sitemapStats.files,
      sitemap_bytes: sitemapStats.bytes,
      page_links: pageLinks,
      urls_found: all.length,
      urls_matched: matched.length,
      returned: links.length,
      bounds_hit: [...bounds].sort(),
    },
  };
}

interface SitemapWalk {
  startUrl: string;
  signal: AbortSignal;
  limits: MapLimits;
  sameDomain: boolean;
  site: string;
  bounds: Set<MapBound>;
  add: (url: string, link: Omit<MapLink, 'url'>) => void;
}

/** Sitemap files fetched at once (the index's children, typically). */
const SITEMAP_PARALLELISM = 4;
/** Raw bytes a sitemap fetched ahead of its turn may take; the head of the queue may take the whole budget. */
const SITEMAP_PREFETCH_MAX_BYTES = 10 * 1024 * 1024;

async function readSitemaps(deps: MapDeps, walk: SitemapWalk): Promise<{ files: number; bytes: number }> {
  const probes = resourceFetcher(deps.fetcher);
  const origin = new URL(walk.startUrl).origin;
  const queue: string[] = [];
  const seen = new Set<string>();
  const enqueue = (raw: string): void => {
    let url: string;
    try {
      url = parseHttpUrl(raw).href;
    } catch {
      return;
    }
    if (seen.has(url)) return; // cycles between sitemaps end here
    if (walk.sameDomain && siteOf(new URL(url).hostname) !== walk.site) return;
    seen.add(url);
    queue.push(url);
  };

  try {
    const robots = await probes.fetchResource(`${origin}/robots.txt`, { signal: walk.signal, maxBytes: ROBOTS_MAX_BYTES, truncate: true });
    if (robots.status === 200) for (const line of sitemapLines(robots.body.toString('utf8'), origin)) enqueue(line);
  } catch {
    if (walk.signal.aborted) walk.bounds.add('time');
  }
  enqueue(`${origin}/sitemap.xml`);

  let files = 0;
  let bytes = 0;
  // Sitemaps are fetched SITEMAP_PARALLELISM at a time but read in queue order, so the links
  // come out in the same order as one by one; only decoding counts against the byte budget.
  const fetchRaw = async (url: string, maxBytes: number): Promise<{ body: Buffer; truncated: boolean } | null> => {
    try {
      const res = await probes.fetchResource(url, {
        signal: walk.signal,
        maxBytes,
        truncate: true,
        headers: { accept: 'application/xml,text/xml,text/plain;q=0.9,*/*;q=0.5' },
      });
      return res.status === 200 ? { body: res.body, truncated: res.truncated } : null;
    } catch {
      if (walk.signal.aborted) walk.bounds.add('time');
      return null;
    }
  };
  while (queue.length > 0) {
    if (walk.signal.aborted) {
      walk.bounds.add('time');
      break;
    }
    if (files >= walk.limits.maxSitemapFiles) {
      walk.bounds.add('sitemap_files');
      break;
    }
    const left = walk.limits.maxSitemapBytes - bytes;
    if (left <= 0) {
      walk.bounds.add('sitemap_bytes');
      break;
    }
    const wave = queue.splice(0, Math.min(SITEMAP_PARALLELISM, walk.limits.maxSitemapFiles - files));
    files += wave.length;
    // The head of the wave may use the whole remaining budget; the others are fetched ahead
    // with a smaller cap, so one map call never holds several budgets' worth of bytes.
    const fetched = await Promise.all(wave.map((url, i) => fetchRaw(url, i === 0 ? left : Math.min(left, SITEMAP_PREFETCH_MAX_BYTES))));
    for (const raw of fetched) {
      if (raw === null) continue;
      const room = walk.limits.maxSitemapBytes - bytes;
      if (room <= 0) {
        walk.bounds.add('sitemap_bytes');
        break;
      }
      let body = raw.body;
      if (raw.truncated) walk.bounds.add('sitemap_bytes');
      if (isGzip(body)) {
        const unzipped = await gunzipCapped(body, room);
        if (unzipped.truncated) walk.bounds.add('sitemap_bytes');
        body = unzipped.data;
      } else if (body.length > room) {
        walk.bounds.add('sitemap_bytes');
        body = body.subarray(0, room);
      }
      bytes += body.length;
      const parsed = parseSitemap(body.toString('utf8'));
      for (const entry of parsed.entries) {
        if (parsed.kind === 'index') enqueue(entry.loc);
        else walk.add(entry.loc, entry.lastmod ? { source: 'sitemap', lastmod: entry.lastmod } : { source: 'sitemap' });
      }
    }
  }
  return { files, bytes };
}
