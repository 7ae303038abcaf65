import type { Warning } from '../convert/types.js';
import { isServiceError } from '../errors.js';
import { DEFAULT_FETCH_LIMITS } from '../fetch/fetcher.js';
import type { FetchedDocument } from '../fetch/types.js';
import type { RenderEvent, RenderFallbackReason, Renderer, RenderMode } from '../render/types.js';
import { ServiceError } from '../errors.js';
import type { CacheStore } from '../store/types.js';
import { writeCache } from './cache.js';

/**
 * The `render` option of read, read-and-score, extract and batch, between fetching and
 * converting: when a render is wanted (true, or "auto" and the static result calls for
 * it), the fetched document is rendered and the rendered DOM is what gets converted. When
 * it cannot be, "auto" answers the static result with a RENDER_SKIPPED warning saying
 * why, and `true` fails (RENDER_UNAVAILABLE when there is no browser; the render's own
 * error, e.g. TIMEOUT, otherwise).
 */
export interface RenderingDeps {
  /** null when rendering is off (RENDER=off). */
  renderer: Renderer | null;
  onEvent?: (event: RenderEvent) => void;
  /** The call's deadline and byte cap, shared by the fetch and the render (tests shorten them). */
  limits?: { totalTimeoutMs?: number; maxBytes?: number };
}

export interface RenderRequest {
  mode: RenderMode;
  /** A client-side route of the request URL (`#/…`, `#!…`): it picks the page a hash-routed app shows. */
  fragment?: string;
  signal?: AbortSignal;
  /** performance.now() when the call started fetching: the render gets what is left of the deadline. */
  startedAt: number;
}

export type RenderOutcome = { rendered: true; document: FetchedDocument; warnings: Warning[] } | { rendered: false; warning: Warning };

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/** A fragment that is a client-side route (`#/path`, `#!/path`); other fragments are anchors and dropped. */
export function routeFragment(rawUrl: string): string | undefined {
  const at = rawUrl.indexOf('#');
  if (at < 0) return undefined;
  const fragment = rawUrl.slice(at);
  return fragment.startsWith('#/') || fragment.startsWith('#!') ? fragment.slice(0, 2048) : undefined;
}

/** Why a wanted render cannot even be tried, or null. */
export function renderSkipReason(deps: RenderingDeps | undefined): { reason: RenderFallbackReason; message: string } | null {
  if (!deps?.renderer) return { reason: 'off', message: 'JavaScript rendering is turned off on this server' };
  const unavailable = deps.renderer.unavailableReason();
  return unavailable === null ? null : { reason: 'unavailable', message: `JavaScript rendering is unavailable (${unavailable})` };
}

export function skippedWarning(message: string): Warning {
  return { code: 'RENDER_SKIPPED', message: `${message}; this is the page as the server sent it` };
}

/** Renders `doc` for a call that wants it rendered. Never called with mode false. */
export async function renderFetched(deps: RenderingDeps | undefined, doc: FetchedDocument, req: RenderRequest): Promise<RenderOutcome> {
  const mustRender = req.mode === true;
  const skip = (reason: RenderFallbackReason, message: string): RenderOutcome => {
    deps?.onEvent?.({ type: 'fallback', reason });
    return { rendered: false, warning: skippedWarning(message) };
  };
  if (!isHtmlDocument(doc)) return skip('not_html', `the target is ${doc.contentType ?? 'not HTML'}, which is not rendered`);
  const cannot = renderSkipReason(deps);
  if (cannot !== null || !deps?.renderer) {
    const message = cannot?.message ?? 'JavaScript rendering is turned off on this server';
    if (mustRender) throw new ServiceError('RENDER_UNAVAILABLE', message);
    return skip(cannot?.reason ?? 'off', message);
  }
  const limits = { ...DEFAULT_FETCH_LIMITS, ...deps.limits };
  const started = performance.now();
  try {
    const page = await deps.renderer.render({
      document: doc,
      deadlineAt: req.startedAt + limits.totalTimeoutMs,
      maxBytes: Math.max(0, limits.maxBytes - doc.body.length),
      ...(req.signal ? { signal: req.signal } : {}),
      ...(req.fragment ? { fragment: req.fragment } : {}),
    });
    deps.onEvent?.({ type: 'rendered', seconds: (performance.now() - started) / 1000 });
    if (page.refused > 0) deps.onEvent?.({ type: 'refused_requests', count: page.refused });
    return { rendered: true, document: renderedDocument(doc, page.url, page.html), warnings: page.warnings };
  } catch (err) {
    if (req.signal?.aborted) throw req.signal.reason;
    const code = isServiceError(err) ? err.code : 'INTERNAL_ERROR';
    deps.onEvent?.({ type: 'failed', code, seconds: (performance.now() - started) / 1000 });
    if (mustRender) throw err;
    const why = isServiceError(err) ? err.message : 'the browser failed';
    return skip('failed', `rendering failed (${code}: ${why})`);
  }
}

function isHtmlDocument(doc: FetchedDocument): boolean {
  return doc.contentType === null
    ? doc.body.subarray(0, 512).toString('latin1').toLowerCase().includes('<html')
    : HTML_TYPES.has(doc.contentType);
}

/** The rendered DOM as a document for the converters: UTF-8 HTML at the page's final URL. */
function renderedDocument(doc: FetchedDocument, url: string, html: string): FetchedDocument {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(doc.headers)) {
    if (name !== 'content-encoding' && name !== 'content-length' && name !== 'content-type') headers[name] = value;
  }
  headers['content-type'] = 'text/html; charset=utf-8';
  return { url, status: doc.status, headers, contentType: 'text/html', body: Buffer.from(html, 'utf8') };
}

/** Cache key of a rendered result: the static key plus the render and the route it rendered. */
export function renderedCacheKey(baseKey: string, fragment: string | undefined): string {
  return `${baseKey}#rendered${fragment ?? ''}`;
}

/** What a cached reading operation computes: the answer, and the static result when there is one. */
export interface RenderAwareOutcome<T> {
  result: T;
  rendered: boolean;
  /** The pure static result (no render warnings), cached under the static key; null when none was made. */
  staticResult: T | null;
}

/** A result that says whether "auto" would render its page. */
export interface RenderHinted {
  /** Internal, never on the wire: the static result calls for a render (auto mode). */
  needsRender?: boolean;
  warnings: Warning[];
}

/**
 * The one-hour cache for operations that take `render`. Static results live under the
 * operation's key, rendered ones under `renderedCacheKey` (the mode actually used is part
 * of the key). `false` reads the static entry, `true` the rendered one; "auto" serves the
 * static entry when it does not call for a render, else the rendered one (or the static
 * one with RENDER_SKIPPED while the server cannot render). `fresh` skips lookups; every
 * computed result is written.
 */
export async function renderAwareCache<T extends RenderHinted>(
  deps: { cache: CacheStore; now: () => number; render?: RenderingDeps },
  baseKey: string,
  req: { mode: RenderMode; fresh: boolean; fragment?: string },
  compute: () => Promise<RenderAwareOutcome<T>>,
): Promise<{ result: T; cacheHit: boolean }> {
  const renderedKey = renderedCacheKey(baseKey, req.fragment);
  const get = async (key: string): Promise<T | null> => {
    const raw = await deps.cache.get(key, deps.now());
    return raw === null ? null : (JSON.parse(raw) as T);
  };
  if (!req.fresh) {
    if (req.mode === false) {
      const hit = await get(baseKey);
      if (hit) return { result: hit, cacheHit: true };
    } else if (req.mode === true) {
      const hit = await get(renderedKey);
      if (hit) return { result: hit, cacheHit: true };
    } else {
      const hit = await get(baseKey);
      if (hit && !hit.needsRender) return { result: hit, cacheHit: true };
      if (hit) {
        const skip = renderSkipReason(deps.render);
        if (skip) {
          deps.render?.onEvent?.({ type: 'fallback', reason: skip.reason });
          return { result: { ...hit, warnings: [...hit.warnings, skippedWarning(skip.message)] }, cacheHit: true };
        }
        const rendered = await get(renderedKey);
        if (rendered) return { result: rendered, cacheHit: true };
      }
    }
  }
  const outcome = await compute();
  if (outcome.staticResult) await writeCache(deps, baseKey, outcome.staticResult);
  if (outcome.rendered) await writeCache(deps, renderedKey, outcome.result);
  return { result: outcome.result, cacheHit: false };
}
