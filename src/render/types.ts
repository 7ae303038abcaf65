import type { Warning } from '../convert/types.js';
import type { FetchedDocument } from '../fetch/types.js';

/** What a caller asks for: never render, always render, or render only a page that needs it. */
export type RenderMode = boolean | 'auto';

/** One page to render: the document the fetcher already read (robots, redirects, status, cap). */
export interface RenderJob {
  document: FetchedDocument;
  /** `performance.now()` instant by which the rendered HTML must be out (the call's 15 s deadline). */
  deadlineAt: number;
  /** Bytes the browser may still receive (the call's 10 MB cap minus the document). */
  maxBytes: number;
  /** The caller's signal (client gone, shutdown). */
  signal?: AbortSignal;
  /** A client-side route of the request URL (`#/…`, `#!…`), applied when the page is opened. */
  fragment?: string;
}

export interface RenderedPage {
  /** The page's URL when its DOM was taken (a script may have navigated), without fragment. */
  url: string;
  /** The serialized DOM (`page.content()`), UTF-8. */
  html: string;
  /** E.g. RENDER_INCOMPLETE when the page had not settled when its DOM was taken. */
  warnings: Warning[];
  /** Bytes the browser received through the guard proxy (document excluded). */
  bytes: number;
  /** Requests and tunnels the guard proxy refused. */
  refused: number;
}

/** Renders already fetched HTML documents in a guarded headless browser. */
export interface Renderer {
  /** Why a render cannot be tried now (browser missing, failed to start recently), else null. */
  unavailableReason(): string | null;
  /** Throws ServiceError: RENDER_UNAVAILABLE, TIMEOUT, TOO_LARGE, EXTRACTION_FAILED (tab crashed). */
  render(job: RenderJob): Promise<RenderedPage>;
  close(): Promise<void>;
}

/** What the operations report to metrics about rendering. */
export type RenderEvent =
  | { type: 'rendered'; seconds: number }
  | { type: 'failed'; code: string; seconds: number }
  | { type: 'fallback'; reason: RenderFallbackReason }
  | { type: 'refused_requests'; count: number };

/** Why a wanted render was skipped (the metrics label; the warning says it in words). */
export type RenderFallbackReason = 'off' | 'unavailable' | 'not_html' | 'failed';
