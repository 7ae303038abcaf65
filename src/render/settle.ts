import type { Page, Request } from 'playwright-core';

/**
 * When is a rendered page done? When the network has been quiet (no request younger than
 * a long-poll in flight) and the DOM has not changed for QUIET_MS, the document has
 * parsed, and the body has more text than a shell, or we have waited for text as long as
 * the settle budget allows. Pages that never get there (polling, animations, endless
 * streams) are taken as they stand when the budget ends (RENDER_INCOMPLETE).
 */

/** Network and DOM silence that counts as settled. */
export const QUIET_MS = 400;
/** A request open longer than this is a long-poll or a stream: it does not hold the page. */
const LONG_REQUEST_MS = 2_000;
/** Body text below which the page still looks like an empty shell (warnings.ts JS_SHELL_MAX_TEXT). */
const SHELL_TEXT_CHARS = 200;
const POLL_MS = 100;
const MIN_POLL_MS = 20;

/**
 * Installed in every frame before the page's scripts: remembers when the DOM last changed,
 * and refuses service-worker registration (they are bypassed as well, page-routes.ts).
 */
export const MUTATION_CLOCK_SCRIPT = `(() => {
  if (self.ServiceWorkerContainer) ServiceWorkerContainer.prototype.register = () => Promise.reject(new DOMException('blocked', 'SecurityError'));
  const clock = { last: performance.now() };
  try { Object.defineProperty(globalThis, '__pithDomClock', { value: clock }); } catch (e) { return; }
  new MutationObserver(() => { clock.last = performance.now(); })
    .observe(document, { subtree: true, childList: true, characterData: true });
})();`;

/**
 * Read by the settle loop: one small object. Body text (which costs a layout) is measured
 * only once the DOM has been quiet for QUIET_MS, i.e. when it can decide anything.
 */
const PROBE = `(() => {
  const clock = globalThis.__pithDomClock;
  const root = document.documentElement;
  const domQuietMs = clock ? performance.now() - clock.last : 0;
  return {
    parsed: document.readyState !== 'loading',
    domQuietMs,
    text: domQuietMs >= ${QUIET_MS} && document.body ? document.body.innerText.length : -1,
    height: root ? root.scrollHeight : 0,
    viewport: innerHeight,
  };
})()`;

export interface PageProbe {
  parsed: boolean;
  domQuietMs: number;
  /** Characters of body text; -1 when not measured (the DOM was still changing). */
  text: number;
  height: number;
  viewport: number;
}

/** Requests of one page in flight, and when the network last changed. */
export class NetworkTracker {
  private readonly inflight = new Map<Request, number>();
  private lastChange = performance.now();
  /** Requests started so far (the scroll step asks whether a scroll started any). */
  started = 0;

  constructor(page: Page) {
    page.on('request', (r) => {
      this.inflight.set(r, performance.now());
      this.lastChange = performance.now();
      this.started++;
    });
    const done = (r: Request): void => {
      this.inflight.delete(r);
      this.lastChange = performance.now();
    };
    page.on('requestfinished', done);
    page.on('requestfailed', done);
  }

  /** Milliseconds the network has been quiet, 0 while a recent request is open. */
  quietMs(): number {
    const now = performance.now();
    for (const started of this.inflight.values()) if (now - started < LONG_REQUEST_MS) return 0;
    return now - this.lastChange;
  }
}

export function probePage(page: Page): Promise<PageProbe> {
  return page.evaluate<PageProbe>(PROBE);
}

/**
 * Waits until the page is settled or `until` (a performance.now() instant) passes;
 * true when it settled. `needText`: a page that is still a shell keeps being waited for.
 */
export async function waitForSettle(page: Page, network: NetworkTracker, until: number, needText = true): Promise<boolean> {
  for (;;) {
    const probe = await probePage(page);
    const quietFor = Math.min(network.quietMs(), probe.domQuietMs);
    if (probe.parsed && quietFor >= QUIET_MS && (!needText || probe.text >= SHELL_TEXT_CHARS)) return true;
    // look again when the quiet period could be complete, not later than POLL_MS
    const wait = quietFor >= QUIET_MS ? POLL_MS : Math.max(MIN_POLL_MS, Math.min(POLL_MS, QUIET_MS - quietFor));
    if (performance.now() + wait >= until) return false;
    await sleep(wait);
  }
}

/**
 * Infinite scroll, bounded: scrolls to the bottom while that loads more (new requests or
 * a taller page), at most `maxSteps` times and never past `until`.
 */
export async function scrollForMore(page: Page, network: NetworkTracker, until: number, maxSteps: number): Promise<number> {
  let steps = 0;
  let probe = await probePage(page);
  while (steps < maxSteps && probe.height > probe.viewport + 50 && performance.now() + QUIET_MS < until) {
    const requestsBefore = network.started;
    await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
    steps++;
    await sleep(150);
    const after = await probePage(page);
    if (network.started === requestsBefore && after.height === probe.height && after.domQuietMs >= 150) break;
    await waitForSettle(page, network, Math.min(until, performance.now() + 1_500), false);
    probe = await probePage(page);
  }
  return steps;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
