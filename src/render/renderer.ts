import { DEFAULT_FETCH_LIMITS, defaultUserAgent } from '../fetch/fetcher.js';
import type { SafeFetcher } from '../fetch/fetcher.js';
import type { FetchedDocument } from '../fetch/types.js';
import type { RenderConfig } from '../config.js';
import type { RenderLogger } from './browser-pool.js';
import { BrowserPool } from './browser-pool.js';
import { renderPage } from './render-page.js';
import type { Renderer } from './types.js';

/** config.ts RenderConfig: CHROMIUM_PATH, RENDER_CONCURRENCY, RENDER_TAB_MEMORY_MB. */
export type RendererOptions = RenderConfig;

export interface RendererDeps {
  /** The service's fetcher: its guard (resolver, address checks, escape hatch) is the browser's too. */
  fetcher: SafeFetcher;
  logger?: RenderLogger;
  /** Told about each target the guard proxy or the navigation check refused (debug logs, tests). */
  onRefused?: (target: string, reason: string) => void;
}

/** The browser's User-Agent: Chromium's, plus our bot token (robots.txt rules name PithBot). */
export function renderUserAgent(browserVersion: string): string {
  const chrome = browserVersion === '' ? '' : ` Chrome/${browserVersion}`;
  return `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)${chrome} Safari/537.36 ${defaultUserAgent()}`;
}

export function createRenderer(deps: RendererDeps, opts: RendererOptions): Renderer & { pool: BrowserPool } {
  const pool = new BrowserPool({
    userAgent: renderUserAgent,
    executablePath: opts.executablePath,
    concurrency: opts.concurrency,
    tabMemoryMb: opts.tabMemoryMb,
    ...(deps.logger ? { logger: deps.logger } : {}),
  });
  // a later navigation of the main frame is a new page read: the fetcher checks robots.txt
  // and every redirect hop, exactly as for the document itself
  const fetchNavigation = async (url: string, signal: AbortSignal): Promise<FetchedDocument> => {
    try {
      return await deps.fetcher.fetch(url, { signal });
    } catch (err) {
      deps.onRefused?.(url, `navigation refused: ${err instanceof Error ? err.message : String(err)}`);
      throw err;
    }
  };
  return {
    pool,
    unavailableReason: () => pool.unavailableReason(),
    render: (job) =>
      renderPage(
        {
          pool,
          guard: deps.fetcher.guard,
          fetchNavigation,
          capBytes: DEFAULT_FETCH_LIMITS.maxBytes,
          ...(deps.onRefused ? { onRefused: deps.onRefused } : {}),
        },
        job,
      ),
    close: () => pool.close(),
  };
}
