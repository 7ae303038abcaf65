import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import type { FetchedDocument } from '../fetch/types.js';

/**
 * What the browser may load, decided per request before it reaches the guard proxy.
 * Only documents, images, media and fonts are paused (CDP `Fetch` with resource-type
 * patterns): scripts, styles and XHR go straight on to the proxy, with no round trip to us.
 * - the document itself is served from the fetcher's answer (fetched once, robots.txt and
 *   every redirect hop already checked, counted in the 10 MB cap);
 * - images, media and fonts are not loaded (nothing the Markdown needs);
 * - a later navigation of the main frame (a script setting `location`, a meta refresh) is
 *   a new page read: the fetcher fetches it (robots.txt, every redirect hop checked) and
 *   the browser gets that answer (a redirect as a 302 to the final URL, then the page).
 *   A refused or failed one, a form submission (not GET), one that is not HTML, and any
 *   past MAX_NAVIGATIONS are answered 204, so the page stays where it is instead of
 *   turning into an error page (the browser follows a network redirect without asking
 *   us, so a navigation left to the network could end on the guard proxy's refusal).
 * Frames' documents and everything else go on to the guard proxy, the SSRF boundary.
 */
const SKIPPED_TYPES = new Set(['Image', 'Media', 'Font']);
const PAUSED_TYPES = ['Document', 'Image', 'Media', 'Font'] as const;
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const MAX_NAVIGATIONS = 3;
/** Response headers of a document that do not describe the decoded body we replay. */
const NOT_REPLAYED = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);

export interface PageRoutesOptions {
  /** Fetches a later main-frame navigation like a read (robots.txt, guarded hops, caps); throws when refused. */
  fetchNavigation: (url: string) => Promise<FetchedDocument>;
}

interface PausedRequest {
  requestId: string;
  request: { url: string; method: string };
  frameId: string;
  resourceType: string;
}

export async function installPageRoutes(context: BrowserContext, page: Page, doc: FetchedDocument, opts: PageRoutesOptions): Promise<void> {
  const cdp = await context.newCDPSession(page);
  const { frameTree } = await cdp.send('Page.getFrameTree');
  const mainFrameId = frameTree.frame.id;
  // documents the browser may load once more by URL: the first, then fetched navigations
  const ready = new Map<string, FetchedDocument>([[doc.url, doc]]);
  let navigations = 0;

  cdp.on('Fetch.requestPaused', (event: PausedRequest) => {
    decide(event).catch(() => {
      // the context is closing; nothing to answer any more
    });
  });
  // a service worker (registration is also blocked) must not answer the page's requests
  await cdp.send('Network.setBypassServiceWorker', { bypass: true }).catch(() => {});
  await cdp.send('Fetch.enable', {
    patterns: PAUSED_TYPES.map((resourceType) => ({ urlPattern: '*', resourceType, requestStage: 'Request' as const })),
  });

  async function decide(event: PausedRequest): Promise<void> {
    const { requestId, request } = event;
    if (SKIPPED_TYPES.has(event.resourceType)) return fail(cdp, requestId);
    if (!request.url.startsWith('http://') && !request.url.startsWith('https://')) return fail(cdp, requestId);
    if (event.frameId !== mainFrameId) return void (await cdp.send('Fetch.continueRequest', { requestId }));
    const key = withoutFragment(request.url);
    const known = request.method === 'GET' ? ready.get(key) : undefined;
    if (known) {
      ready.delete(key);
      return fulfill(cdp, requestId, known.status, replayHeaders(known.headers), known.body);
    }
    navigations++;
    if (request.method !== 'GET' || navigations > MAX_NAVIGATIONS) return fulfill(cdp, requestId, 204, {});
    const next = await fetchNavigation(key);
    if (!next) return fulfill(cdp, requestId, 204, {});
    if (next.url === key) return fulfill(cdp, requestId, next.status, replayHeaders(next.headers), next.body);
    // redirected: let the browser land on the final URL, which is then answered from `ready`
    ready.set(next.url, next);
    return fulfill(cdp, requestId, 302, { location: next.url });
  }

  async function fetchNavigation(url: string): Promise<FetchedDocument | null> {
    try {
      const next = await opts.fetchNavigation(url);
      return HTML_TYPES.has(next.contentType ?? '') ? next : null;
    } catch {
      return null;
    }
  }
}

async function fulfill(cdp: CDPSession, requestId: string, status: number, headers: Record<string, string>, body?: Buffer): Promise<void> {
  await cdp.send('Fetch.fulfillRequest', {
    requestId,
    responseCode: status,
    responseHeaders: Object.entries(headers).map(([name, value]) => ({ name, value })),
    ...(body ? { body: body.toString('base64') } : {}),
  });
}

async function fail(cdp: CDPSession, requestId: string): Promise<void> {
  await cdp.send('Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' });
}

function replayHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!NOT_REPLAYED.has(name)) out[name] = value;
  return out;
}

function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}
