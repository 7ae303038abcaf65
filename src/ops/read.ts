import { performance } from 'node:perf_hooks';
import type { ReadOptions } from './read-options.js';
import { DEFAULT_READ_OPTIONS, documentOptionsOf, readOptionsKey } from './read-options.js';
import type { ConvertOptions } from '../convert/index.js';
import type { JobRunner } from '../convert/workers/jobs.js';
import { convertDocument } from '../convert/index.js';
import { contentOf } from '../convert/output.js';
import type { DocumentMetadata, OutputFormat, PageImage, PageLink, Warning } from '../convert/types.js';
import type { MemoryBudget } from '../fetch/memory-budget.js';
import { withLease } from '../fetch/memory-budget.js';
import type { FetchedDocument, Fetcher } from '../fetch/types.js';
import { staticResultNeedsRender } from '../render/needs-render.js';
import type { RenderMode } from '../render/types.js';
import type { CacheStore } from '../store/types.js';
import { cacheKey } from './cache.js';
import type { RenderAwareOutcome, RenderingDeps } from './rendering.js';
import { renderAwareCache, renderFetched } from './rendering.js';

export interface ReadStats {
  rawHtmlSizeKb: number;
  /** Size of the answer's content, whatever its format. */
  markdownSizeKb: number;
  reductionPercent: number;
  extractionTimeMs: number;
  /** The Markdown comes from the page as a browser rendered it. */
  rendered: boolean;
  /** o200k_base tokens of the content. */
  tokens: number;
}

/**
 * The cacheable part of a read result (what the JSON response carries besides status/cache),
 * as the domain names it; http/wire/read.ts serialises it.
 */
export interface ReadResult {
  url: string;
  /** The content's format (`format` option); the wire names the content field after it. */
  format: OutputFormat;
  /** The page's content: Markdown, sanitised HTML or plain text. */
  content: string;
  /** `links: true`: the content's links, and how many other distinct links the page has. */
  links?: PageLink[];
  linksElsewhere?: number;
  /** `images: true`: the content's images. */
  images?: PageImage[];
  metadata: DocumentMetadata;
  stats: ReadStats;
  warnings: Warning[];
  /** Internal, never on the wire: "auto" would render this static result's page. */
  needsRender?: boolean;
}

export interface ReadDeps {
  fetcher: Fetcher;
  cache: CacheStore;
  engineVersion: string;
  now: () => number;
  /** Converter options (the PDF worker pool and its bounds). */
  convert?: ConvertOptions;
  /** Where CPU work on content runs (server: the worker pool); in-process when absent. */
  runner?: JobRunner;
  /** The instance's budget for fetched bodies in memory; unbounded when absent. */
  memory?: MemoryBudget;
  /** The browser for `render`; absent or null renderer = rendering off. */
  render?: RenderingDeps;
}

export interface ReadInput {
  /** Canonical request URL (validated by canonicalizeRequestUrl). */
  url: string;
  fresh: boolean;
  /** The request's abort signal, or a function that opens it when the work needs it. */
  signal?: AbortSignal | (() => AbortSignal);
  /** `render` of the request; default "auto". */
  render?: RenderMode;
  /** A client-side route of the request URL (see rendering.ts routeFragment). */
  fragment?: string;
  /** How to read the page (part of the cache key); defaults when absent. */
  options?: ReadOptions;
}

export function openSignal(signal: ReadInput['signal']): AbortSignal | undefined {
  return typeof signal === 'function' ? signal() : signal;
}

/** Reads one URL through the one-hour cache. `fresh` skips the lookup but still writes. */
export async function readPage(deps: ReadDeps, input: ReadInput): Promise<{ result: ReadResult; cacheHit: boolean }> {
  const mode = input.render ?? 'auto';
  const options = input.options ?? DEFAULT_READ_OPTIONS;
  return renderAwareCache(
    deps,
    cacheKey('read', deps.engineVersion, input.url) + readOptionsKey(options),
    { mode, fresh: input.fresh, ...(input.fragment ? { fragment: input.fragment } : {}) },
    () => fetchAndConvert(deps, input.url, { render: mode, options, ...optional(input) }),
  );
}

export interface FetchAndConvertOptions {
  render: RenderMode;
  fragment?: string;
  signal?: AbortSignal;
  /** How to read the page; defaults when absent. */
  options?: ReadOptions;
}

/** Fetch, render when wanted, convert, without the cache; shared by read, batch items and the CLI. */
export async function fetchAndConvert(
  deps: Pick<ReadDeps, 'fetcher' | 'convert' | 'runner' | 'render' | 'memory'>,
  url: string,
  opts: FetchAndConvertOptions,
): Promise<RenderAwareOutcome<ReadResult>> {
  const startedAt = performance.now();
  // the body counts against the memory budget until it is converted
  return withLease(deps.memory, async (memory) => {
    const doc = await deps.fetcher.fetch(url, { ...(opts.signal ? { signal: opts.signal } : {}), ...(memory ? { memory } : {}) });
    return convertWithRender(deps, doc, { ...opts, startedAt });
  });
}

/** The `render` decision for read and read-and-score, on a fetched document. */
export async function convertWithRender(
  deps: Pick<ReadDeps, 'convert' | 'runner' | 'render'>,
  doc: FetchedDocument,
  opts: FetchAndConvertOptions & { startedAt: number },
): Promise<RenderAwareOutcome<ReadResult>> {
  let staticResult: ReadResult | null = null;
  if (opts.render !== true) {
    staticResult = await convertFetched(deps, doc, opts.signal, opts.options);
    staticResult.needsRender = staticResultNeedsRender(staticResult.warnings, doc.body);
    if (opts.render === false || !staticResult.needsRender) return { result: staticResult, rendered: false, staticResult };
  }
  const outcome = await renderFetched(deps.render, doc, { mode: opts.render, startedAt: opts.startedAt, ...optional(opts) });
  if (!outcome.rendered) {
    const base = staticResult ?? (await convertFetched(deps, doc, opts.signal, opts.options));
    return { result: { ...base, warnings: [...base.warnings, outcome.warning] }, rendered: false, staticResult };
  }
  const result = await convertFetched(deps, outcome.document, opts.signal, opts.options);
  result.stats.rendered = true;
  result.warnings = [...outcome.warnings, ...result.warnings];
  return { result, rendered: true, staticResult };
}

function optional(input: { fragment?: string | undefined; signal?: ReadInput['signal'] }): { fragment?: string; signal?: AbortSignal } {
  const signal = openSignal(input.signal);
  return { ...(input.fragment ? { fragment: input.fragment } : {}), ...(signal ? { signal } : {}) };
}

/** Converts a fetched document into read's result; `extractionTimeMs` starts here. */
export async function convertFetched(
  deps: Pick<ReadDeps, 'convert' | 'runner'>,
  doc: FetchedDocument,
  signal?: AbortSignal,
  options: ReadOptions = DEFAULT_READ_OPTIONS,
): Promise<ReadResult> {
  const started = performance.now();
  const input = {
    body: doc.body,
    contentType: doc.contentType,
    headers: doc.headers,
    url: doc.url,
    options: documentOptionsOf(options),
    ...(signal ? { signal } : {}),
  };
  const converted = await convertDocument(input, { ...deps.convert, ...(deps.runner ? { runner: deps.runner } : {}) });
  const extractionMs = Math.round(performance.now() - started);
  const content = contentOf(converted, options.format);
  const result: ReadResult = {
    url: doc.url,
    format: options.format,
    content,
    metadata: converted.metadata,
    stats: computeStats(doc.body.length, Buffer.byteLength(content, 'utf8'), extractionMs, false, converted.tokens ?? 0),
    warnings: converted.warnings,
  };
  if (options.links) {
    result.links = converted.links ?? [];
    result.linksElsewhere = converted.linksElsewhere ?? 0;
  }
  if (options.images) result.images = converted.images ?? [];
  return result;
}

const round = (value: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};

/** KB = 1024 bytes, 2 decimals; reduction 1 decimal, negative when the Markdown grew. */
export function computeStats(rawBytes: number, markdownBytes: number, extractionMs: number, rendered: boolean, tokens: number): ReadStats {
  return {
    rawHtmlSizeKb: round(rawBytes / 1024, 2),
    markdownSizeKb: round(markdownBytes / 1024, 2),
    reductionPercent: rawBytes === 0 ? 0 : round(100 * (1 - markdownBytes / rawBytes), 1),
    extractionTimeMs: extractionMs,
    rendered,
    tokens,
  };
}
