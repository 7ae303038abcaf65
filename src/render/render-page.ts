import { setMaxListeners } from 'node:events';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { ServiceError, isServiceError } from '../errors.js';
import type { Warning } from '../convert/types.js';
import type { Dispatcher } from 'undici';
import type { Connector } from '../fetch/connector.js';
import type { FetchedDocument } from '../fetch/types.js';
import type { AllowList } from '../fetch/ssrf.js';
import type { BrowserPool } from './browser-pool.js';
import { ByteBudget } from './byte-budget.js';
import { startGuardProxy } from './guard-proxy.js';
import { installPageRoutes } from './page-routes.js';
import { MARK_INVISIBLE_SCRIPT } from './invisible.js';
import { MUTATION_CLOCK_SCRIPT, NetworkTracker, scrollForMore, waitForSettle } from './settle.js';
import type { RenderedPage, RenderJob } from './types.js';

/** Longest wait for the page to settle after its document arrived. */
export const SETTLE_MAX_MS = 5_000;
/** Time kept back from the deadline for taking the DOM and closing the tab. */
const CONTENT_RESERVE_MS = 1_000;
/** Infinite scroll: at most this many steps, within SCROLL_MAX_MS. */
const SCROLL_MAX_STEPS = 3;
const SCROLL_MAX_MS = 3_000;

export interface RenderPageDeps {
  pool: BrowserPool;
  guard: { dispatcher: Dispatcher; connect: Connector; allow: AllowList };
  /** Fetches a later main-frame navigation like a read (robots.txt, guarded hops, caps). */
  fetchNavigation: (url: string, signal: AbortSignal) => Promise<FetchedDocument>;
  /** The call's whole byte cap (10 MB), for messages. */
  capBytes: number;
  onRefused?: (target: string, reason: string) => void;
}

/**
 * Renders one fetched HTML document: a guard proxy and a fresh context of its own, the
 * document served from the fetcher's bytes, sub-resources through the proxy, then
 * settle, bounded scrolling and `page.content()`. Whatever ends first of the deadline,
 * the byte cap, a tab crash and the caller's signal ends the render and closes its tab.
 */
export async function renderPage(deps: RenderPageDeps, job: RenderJob): Promise<RenderedPage> {
  const budget = new ByteBudget(job.maxBytes, deps.capBytes);
  const ended = new AbortController();
  // every exchange of the proxy and every navigation fetch listens to it: many by design
  setMaxListeners(0, ended.signal);
  let fail: (reason: unknown) => void = () => {};
  const failed = new Promise<never>((_, reject) => {
    fail = (reason) => {
      if (!ended.signal.aborted) ended.abort(reason);
      reject(reason);
    };
  });
  failed.catch(() => {});
  const race = <T>(p: Promise<T>): Promise<T> => Promise.race([p, failed]);

  const timer = setTimeout(
    () => fail(new ServiceError('TIMEOUT', 'rendering the page took longer than the 15 s deadline')),
    Math.max(0, job.deadlineAt - performance.now()),
  );
  const onBudget = (): void => fail(budget.signal.reason);
  budget.signal.addEventListener('abort', onBudget, { once: true });
  const onCaller = (): void => fail(job.signal?.reason);
  if (job.signal?.aborted) onCaller();
  else job.signal?.addEventListener('abort', onCaller, { once: true });

  const proxy = await startGuardProxy({
    ...deps.guard,
    budget,
    signal: ended.signal,
    ...(deps.onRefused ? { onRefused: deps.onRefused } : {}),
  });
  try {
    return await race(
      deps.pool.withContext(
        () => contextOptions(proxy.url),
        { signal: ended.signal, deadlineAt: job.deadlineAt },
        async (context) => {
          await race(context.addInitScript(MUTATION_CLOCK_SCRIPT));
          const page = await race(context.newPage());
          page.on('crash', () =>
            fail(new ServiceError('EXTRACTION_FAILED', 'the page crashed its browser tab (too much memory, or a renderer fault)')),
          );
          // popups and new windows are not read; close them before they load much
          context.on('page', (other) => void (other === page ? undefined : other.close().catch(() => {})));
          const fetchNavigation = async (url: string): Promise<FetchedDocument> => {
            const next = await deps.fetchNavigation(url, ended.signal);
            // a navigation's document counts against the render's byte cap like any response
            if (!budget.take(next.body.length)) throw budget.signal.reason;
            return next;
          };
          await race(installPageRoutes(context, page, job.document, { fetchNavigation }));
          const network = new NetworkTracker(page);
          const contentBy = job.deadlineAt - CONTENT_RESERVE_MS;
          await race(
            page.goto(job.document.url + (job.fragment ?? ''), {
              waitUntil: 'commit',
              timeout: Math.max(1, contentBy - performance.now()),
            }),
          );
          const settleUntil = Math.min(contentBy, performance.now() + SETTLE_MAX_MS);
          const settled = await race(waitForSettle(page, network, settleUntil));
          if (settled) await race(scrollForMore(page, network, Math.min(contentBy, performance.now() + SCROLL_MAX_MS), SCROLL_MAX_STEPS));
          // the browser's own judgement of what no reader sees, for the engine (invisible.ts)
          await race(page.evaluate(MARK_INVISIBLE_SCRIPT)).catch(() => 0);
          const html = await race(page.content());
          const warnings: Warning[] = settled
            ? []
            : [
                {
                  code: 'RENDER_INCOMPLETE',
                  message: `the page was still loading or changing after ${SETTLE_MAX_MS / 1000} s; its content was taken as it stood`,
                },
              ];
          return { html, url: pageUrl(page, job.document.url), warnings, bytes: budget.bytesUsed, refused: proxy.refused };
        },
      ),
    );
  } catch (err) {
    throw renderError(ended.signal.aborted ? ended.signal.reason : err);
  } finally {
    clearTimeout(timer);
    budget.signal.removeEventListener('abort', onBudget);
    job.signal?.removeEventListener('abort', onCaller);
    if (!ended.signal.aborted) ended.abort(new Error('render finished'));
    await proxy.close();
  }
}

/**
 * Only what must differ per context: its proxy. User-Agent, language and window size are
 * browser-wide switches (browser-pool.ts), so a new page costs no emulation round trips;
 * service workers are blocked by the init script and bypassed (page-routes.ts).
 */
function contextOptions(proxyUrl: string): BrowserContextOptions {
  return { proxy: { server: proxyUrl, bypass: '<-loopback>' }, acceptDownloads: false, viewport: null };
}

/** The main frame's URL without fragment, when it is still http(s); else the document's. */
function pageUrl(page: Page, fallback: string): string {
  try {
    const url = new URL(page.url());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return fallback;
    url.hash = '';
    return url.href;
  } catch {
    return fallback;
  }
}

/** Our own reasons pass through; anything from the browser is a failed render. */
function renderError(err: unknown): unknown {
  if (isServiceError(err)) return err;
  if (err instanceof Error && err.name === 'AbortError') return err;
  const message = err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err);
  if (/browser has been closed|Target (page, context or browser )?closed|has been disconnected/i.test(message)) {
    return new ServiceError('RENDER_UNAVAILABLE', 'the browser stopped during the render; retry', {}, { cause: err });
  }
  return new ServiceError('EXTRACTION_FAILED', `the browser could not render the page (${message.slice(0, 160)})`, {}, { cause: err });
}
