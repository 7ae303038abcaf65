import type { JobRunner } from '../convert/workers/jobs.js';
import { runJob } from '../convert/workers/jobs.js';
import { ServiceError } from '../errors.js';
import type { MemoryBudget } from '../fetch/memory-budget.js';
import { withLease } from '../fetch/memory-budget.js';
import { ROBOTS_MAX_BYTES } from '../fetch/robots.js';
import type { FetchedDocument, Fetcher, ResourceFetcher, ResourceOptions } from '../fetch/types.js';
import { SCORE_JOB } from './jobs.js';
import type { ProbeAnswer, Score } from './score-rubric.js';

/** One bound shared by every probe of other URLs (robots.txt, llms.txt, sitemap, Markdown). */
export const PROBE_BUDGET_MS = 8_000;
/** Probe bodies are read up to this much (truncated, never an error): enough to judge them. */
const PROBE_MAX_BYTES = 256 * 1024;
/**
 * Score judges the page from its first 2 MB (title, head, landmarks, the text as served):
 * a free operation reads no more than it needs.
 */
export const SCORE_PAGE_MAX_BYTES = 2 * 1024 * 1024;

export interface ScoreDeps {
  fetcher: Fetcher;
  /** Override of PROBE_BUDGET_MS (tests). */
  probeBudgetMs?: number;
  /** Where the page is parsed (server: the worker pool); in-process when absent. */
  runner?: JobRunner;
  /** The instance's budget for fetched bodies in memory. */
  memory?: MemoryBudget;
}

export interface ScoreInput {
  url: string;
  signal?: AbortSignal;
}

/** The resource-probe side of the fetcher; every fetcher the service builds has it. */
export function resourceFetcher(fetcher: Fetcher): ResourceFetcher {
  const candidate = fetcher as Fetcher & Partial<ResourceFetcher>;
  if (typeof candidate.fetchResource !== 'function') {
    throw new ServiceError('INTERNAL_ERROR', 'the fetcher cannot fetch side resources');
  }
  return { fetchResource: candidate.fetchResource.bind(fetcher) };
}

/** POST /v1/score: fetch the page (robots-gated like read), probe its site, score it. Never cached. */
export async function scoreUrl(deps: ScoreDeps, input: ScoreInput): Promise<{ url: string; score: Score }> {
  return withLease(deps.memory, async (memory) => {
    const doc = await deps.fetcher.fetch(input.url, {
      truncateAt: SCORE_PAGE_MAX_BYTES,
      ...(input.signal ? { signal: input.signal } : {}),
      ...(memory ? { memory } : {}),
    });
    return { url: doc.url, score: await scoreDocument(deps, doc, input.signal) };
  });
}

/**
 * Scores an already fetched document. The probes run in parallel under one shared
 * deadline; a probe that fails or runs out of time only fails its check.
 */
export async function scoreDocument(deps: ScoreDeps, doc: FetchedDocument, signal?: AbortSignal): Promise<Score> {
  const probes = resourceFetcher(deps.fetcher);
  const budget = deps.probeBudgetMs ?? PROBE_BUDGET_MS;
  const deadline = AbortSignal.timeout(budget);
  const shared = signal ? AbortSignal.any([signal, deadline]) : deadline;
  const origin = new URL(doc.url).origin;
  const probe = async (url: string, opts: ResourceOptions = {}, encoding: BufferEncoding = 'utf8'): Promise<ProbeAnswer | null> => {
    if (shared.aborted) return null; // the shared bound is spent: later probes are not started
    try {
      const res = await probes.fetchResource(url, {
        signal: shared,
        timeoutMs: budget,
        maxBytes: PROBE_MAX_BYTES,
        truncate: true,
        ...opts,
      });
      return { status: res.status, contentType: res.contentType, text: res.body.toString(encoding) };
    } catch {
      return null;
    }
  };

  const robotsAndSitemap = (async () => {
    const robots = await probe(`${origin}/robots.txt`, { maxBytes: ROBOTS_MAX_BYTES });
    const listed = robots?.status === 200 ? sitemapLines(robots.text, origin)[0] : undefined;
    const sitemapUrl = listed ?? `${origin}/sitemap.xml`;
    const sitemap = await probe(sitemapUrl, {}, 'latin1');
    return { robots, sitemap: sitemap ? { ...sitemap, url: sitemapUrl } : null };
  })();
  const [{ robots, sitemap }, llms, markdown] = await Promise.all([
    robotsAndSitemap,
    probe(`${origin}/llms.txt`),
    probe(doc.url, { headers: { accept: 'text/markdown' }, maxBytes: 64 * 1024 }),
  ]);
  if (signal?.aborted) throw signal.reason;

  const page = { url: doc.url, body: doc.body, contentType: doc.contentType, contentTypeHeader: doc.headers['content-type'] ?? null };
  return runJob(deps.runner, SCORE_JOB, { page, robots, llms, sitemap, markdown }, signal ? { signal } : {});
}

/** `Sitemap:` lines of a robots.txt, absolute http(s) URLs, in order. */
export function sitemapLines(robotsText: string, base: string): string[] {
  const out: string[] = [];
  for (const line of robotsText.split(/\r\n|\r|\n/)) {
    const m = /^\s*sitemap\s*:\s*(\S+)/i.exec(line);
    if (!m?.[1]) continue;
    try {
      const url = new URL(m[1], base);
      if (url.protocol === 'http:' || url.protocol === 'https:') out.push(url.href);
    } catch {
      // not a URL: skipped
    }
  }
  return out;
}
