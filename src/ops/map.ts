import { createHash } from 'node:crypto';
import type { JobRunner } from '../convert/workers/jobs.js';
import { runJob } from '../convert/workers/jobs.js';
import { isServiceError } from '../errors.js';
import type { MemoryBudget, MemoryLease } from '../fetch/memory-budget.js';
import { withLease } from '../fetch/memory-budget.js';
import { ROBOTS_MAX_BYTES } from '../fetch/robots.js';
import type { Fetcher } from '../fetch/types.js';
import { parseHttpUrl } from '../fetch/url.js';
import type { CacheStore } from '../store/types.js';
import { isHtmlType } from './html-page.js';
import type { FoundLink, LinkScope, SitemapJobOutput } from './jobs.js';
import { PAGE_LINKS_JOB, SITEMAP_JOB } from './jobs.js';
import { compileFilter, filterLinks, rankByRelevance } from './map-rank.js';
import { siteOf } from './map-site.js';
import { gunzipCapped, isGzip } from './map-sitemap.js';
import { cacheKey, readThroughCache } from './cache.js';
import { resourceFetcher, sitemapLines } from './score.js';

/** The bounds of one map call (spec, issue 7). */
export const MAP_LIMITS = {
  defaultLimit: 1000,
  maxLimit: 5000,
  maxSitemapFiles: 50,
  /** Decoded (decompressed) sitemap bytes over all files. */
  maxSitemapBytes: 50 * 1024 * 1024,
  /**
   * Raw and decoded bytes of one sitemap file. With SITEMAP_PARALLELISM files in flight,
   * one map call holds at most 4 × 10 MB of sitemaps plus its 10 MB page at once.
   */
  maxSitemapFileBytes: 10 * 1024 * 1024,
  /** The whole call: page, robots.txt and sitemaps. */
  budgetMs: 15_000,
  /** Distinct URLs kept in memory before ranking; more are ignored. */
  maxCollected: 50_000,
  titleChars: 200,
} as const;

export interface MapLimits {
  maxSitemapFiles: number;
  maxSitemapBytes: number;
  maxSitemapFileBytes: number;
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
  sitemapsRead: number;
  sitemapBytes: number;
  pageLinks: number;
  /** Distinct same-site URLs found (before include/exclude/search and limit). */
  urlsFound: number;
  /** After include/exclude and search. */
  urlsMatched: number;
  returned: number;
  /** Bounds that cut discovery short; empty when everything was read. */
  boundsHit: MapBound[];
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
  /** Where pages and sitemaps are parsed (server: the worker pool); in-process when absent. */
  runner?: JobRunner;
  /** The instance's budget for fetched bodies in memory. */
  memory?: MemoryBudget;
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

export { siteOf } from './map-site.js';

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
  const scope = (): LinkScope => ({
    site: input.sameDomain ? siteOf(new URL(startUrl).hostname) : null,
    maxUrls: Math.max(0, limits.maxCollected - found.size),
    titleChars: limits.titleChars,
  });

  // Links arrive canonical and in scope (the jobs check them where they parse); merge them here.
  const merge = (links: FoundLink[], source: MapLink['source'], capped: boolean): void => {
    if (capped) bounds.add('urls');
    for (const link of links) {
      const known = found.get(link.url);
      if (known) {
        if (source === 'sitemap' && known.source === 'page')
          Object.assign(known, { source }, link.lastmod ? { lastmod: link.lastmod } : {});
        if (link.title && !known.title) known.title = link.title;
        continue;
      }
      if (found.size >= limits.maxCollected) {
        bounds.add('urls');
        return;
      }
      found.set(link.url, { ...link, source });
    }
  };

  return withLease(deps.memory, async (memory) => {
    // 1. the page and its links
    let pageError: unknown = null;
    let pageLinks = 0;
    try {
      const doc = await deps.fetcher.fetch(input.url, { signal, ...(memory ? { memory } : {}) });
      startUrl = doc.url;
      if (isHtmlType(doc.contentType, doc.body)) {
        const page = { url: doc.url, body: doc.body, contentType: doc.contentType, contentTypeHeader: doc.headers['content-type'] ?? null };
        const out = await runJob(deps.runner, PAGE_LINKS_JOB, { page, scope: scope() }, { signal });
        pageLinks = out.seen;
        merge(out.links, 'page', out.capped);
      }
    } catch (err) {
      if (input.signal?.aborted) throw input.signal.reason;
      if (budget.aborted) bounds.add('time');
      pageError = err;
    }

    // 2. sitemaps
    memory?.release(); // the page is parsed: its bytes are garbage now
    const sitemapStats = await readSitemaps(deps, { startUrl, signal, limits, scope, bounds, merge });
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
        sitemapsRead: sitemapStats.files,
        sitemapBytes: sitemapStats.bytes,
        pageLinks,
        urlsFound: all.length,
        urlsMatched: matched.length,
        returned: links.length,
        boundsHit: [...bounds].sort(),
      },
    };
  });
}

interface SitemapWalk {
  startUrl: string;
  signal: AbortSignal;
  limits: MapLimits;
  /** The scope of the moment (its URL cap shrinks as URLs are found). */
  scope: () => LinkScope;
  bounds: Set<MapBound>;
  merge: (links: FoundLink[], source: MapLink['source'], capped: boolean) => void;
}

/** Sitemap files fetched at once (the index's children, typically). */
const SITEMAP_PARALLELISM = 4;

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
    const { site } = walk.scope();
    if (site !== null && siteOf(new URL(url).hostname) !== site) return;
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
  // come out in the same order as one by one. Each file is capped on its own, and only
  // decoded bytes count against the call's total.
  type RawSitemap = { body: Buffer; truncated: boolean; memory: MemoryLease | undefined };
  const fetchRaw = async (url: string, maxBytes: number): Promise<RawSitemap | null> => {
    // each file holds its bytes against the instance's budget until it is parsed
    const memory = deps.memory?.lease();
    try {
      const res = await probes.fetchResource(url, {
        signal: walk.signal,
        maxBytes,
        truncate: true,
        headers: { accept: 'application/xml,text/xml,text/plain;q=0.9,*/*;q=0.5' },
        // a sitemap on another host (robots.txt may list one) follows that host's robots.txt
        obeyRobots: new URL(url).origin !== origin,
        ...(memory ? { memory } : {}),
      });
      if (res.status === 200) return { body: res.body, truncated: res.truncated, memory };
      memory?.release();
      return null;
    } catch {
      memory?.release();
      if (walk.signal.aborted) walk.bounds.add('time');
      return null;
    }
  };
  const parse = async (raw: RawSitemap, room: number): Promise<{ bytes: number; parsed: SitemapJobOutput | null }> => {
    let body = raw.body;
    if (raw.truncated) walk.bounds.add('sitemap_bytes');
    if (isGzip(body)) {
      const unzipped = await gunzipCapped(body, Math.min(room, walk.limits.maxSitemapFileBytes));
      if (unzipped.truncated) walk.bounds.add('sitemap_bytes');
      raw.memory?.take(unzipped.data.length);
      body = unzipped.data;
    } else if (body.length > room) {
      walk.bounds.add('sitemap_bytes');
      body = body.subarray(0, room);
    }
    const parsed = await runJob(deps.runner, SITEMAP_JOB, { body, scope: walk.scope() }, { signal: walk.signal }).catch(() => null);
    return { bytes: body.length, parsed };
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
    const perFile = Math.min(left, walk.limits.maxSitemapFileBytes);
    const fetched = await Promise.all(wave.map((url) => fetchRaw(url, perFile)));
    try {
      for (const raw of fetched) {
        if (raw === null) continue;
        const room = walk.limits.maxSitemapBytes - bytes;
        if (room <= 0) {
          walk.bounds.add('sitemap_bytes');
          break;
        }
        const { bytes: read, parsed } = await parse(raw, room);
        raw.memory?.release();
        bytes += read;
        if (parsed === null) continue;
        for (const child of parsed.children) enqueue(child);
        walk.merge(parsed.links, 'sitemap', parsed.capped);
      }
    } finally {
      for (const raw of fetched) raw?.memory?.release();
    }
  }
  return { files, bytes };
}
