import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../helpers/service.js';
import { startService } from '../../helpers/service.js';
import type { SpaSite } from './spa-site.js';
import { SPA_ARTICLE, startSpaSite } from './spa-site.js';

/**
 * `render` end to end: the real service, Debian's chromium behind the guard proxy, and a
 * loopback site of client-rendered pages (spa-site.ts). Skipped with a message when the
 * browser is missing, except in CI (scripts/install-system-deps.sh installs it there).
 */
const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && !process.env.CI) console.warn(`render e2e skipped: ${CHROMIUM} is missing (scripts/install-system-deps.sh)`);

async function planUsed(svc: TestService, key: string): Promise<number> {
  return (await svc.call('/v1/usage', { key })).json.plan_credits.used as number;
}

describe.skipIf(!haveChromium && !process.env.CI)('render: client-rendered pages', { timeout: 120_000 }, () => {
  let svc: TestService;
  let site: SpaSite;
  let key: string;
  const read = (path: string, body: Record<string, unknown> = {}) =>
    svc.call('/v1/read', { key, body: { url: site.origin + path, ...body } });

  beforeAll(async () => {
    site = await startSpaSite();
    svc = await startService({ render: { concurrency: 2 } });
    key = (await svc.newAccount('growth')).apiKey;
    await svc.renderer?.pool.start(); // the browser's start is not part of any test's deadline
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
    await site?.close();
  });

  it('auto renders a shell whose article comes from a same-origin JSON call; false keeps the shell', async () => {
    const shell = await read('/article', { render: false });
    expect(shell.status).toBe(200);
    expect(shell.json.stats.rendered).toBe(false);
    expect(shell.json.warnings.map((w: { code: string }) => w.code)).toContain('JS_SHELL');
    expect(shell.json.markdown).not.toContain('sculpins');

    const rendered = await read('/article');
    expect(rendered.status).toBe(200);
    expect(rendered.json.stats.rendered).toBe(true);
    expect(rendered.json.markdown).toContain(SPA_ARTICLE.paragraphs[2]?.slice(0, 60));
    expect(rendered.json.markdown).toContain('- Salinity climbs as the pool evaporates');
    expect(rendered.json.warnings ?? []).toEqual([]);
    expect(rendered.headers['x-service-cache']).toBe('MISS');
    // images are never loaded by the browser
    expect(site.hits.get('/images/pool.jpg') ?? 0).toBe(0);

    // cached by the mode actually used: auto is served the rendered entry, false the static one
    const again = await read('/article');
    expect(again.headers['x-service-cache']).toBe('HIT');
    expect(again.json.stats.rendered).toBe(true);
    const staticAgain = await read('/article', { render: false });
    expect(staticAgain.headers['x-service-cache']).toBe('HIT');
    expect(staticAgain.json.stats.rendered).toBe(false);
  });

  it("a rendered page's invisible text is judged by the browser's computed style: left out, with HIDDEN_TEXT", async () => {
    const res = await read('/hidden', { render: true });
    expect(res.status).toBe(200);
    expect(res.json.stats.rendered).toBe(true);
    expect(res.json.markdown).toContain('Anemones close when the water drops');
    expect(res.json.markdown).not.toContain('casino');
    const codes = (res.json.warnings ?? []).map((w: { code: string }) => w.code);
    expect(codes).toEqual(expect.arrayContaining(['HIDDEN_TEXT', 'PROMPT_INJECTION']));
  });

  it('waits for content that appears 1 s after load', async () => {
    const res = await read('/late', { render: true });
    expect(res.status).toBe(200);
    expect(res.json.stats.rendered).toBe(true);
    expect(res.json.markdown).toContain('search results load twice as fast');
  });

  it('renders the route a hash-routed app shows for the URL fragment, cached per route', async () => {
    const guide = await read('/app/#/guide');
    const pricing = await read('/app/#/pricing');
    const home = await read('/app/');
    expect(guide.json.markdown).toContain('the last ferry of the day');
    expect(pricing.json.markdown).toContain('pay a monthly fee per vessel');
    expect(home.json.markdown).toContain('schedules of every ferry');
    for (const r of [guide, pricing, home]) expect(r.json.stats.rendered).toBe(true);
    const pricingAgain = await read('/app/#/pricing');
    expect(pricingAgain.headers['x-service-cache']).toBe('HIT');
    expect(pricingAgain.json.markdown).toContain('pay a monthly fee per vessel');
  });

  it('scrolls an infinite feed a bounded number of times', async () => {
    const before = site.hits.get('/api/feed') ?? 0;
    const res = await read('/feed', { render: true });
    expect(res.status).toBe(200);
    const pages = (site.hits.get('/api/feed') ?? 0) - before;
    expect(res.json.markdown).toContain('Post 11:'); // the first scroll loaded page 2
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(pages).toBeLessThanOrEqual(4); // the first page plus at most three scrolls
    expect(res.json.markdown).not.toContain(`Post ${pages * 10 + 1}:`);
  });

  it('takes a page that never settles as it stands, with RENDER_INCOMPLETE', async () => {
    const started = performance.now();
    const res = await read('/restless', { render: true });
    expect(res.status).toBe(200);
    expect(res.json.markdown).toContain('Departures from the central station');
    expect(res.json.warnings.map((w: { code: string }) => w.code)).toContain('RENDER_INCOMPLETE');
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  it('auto leaves a server-rendered page alone (no browser involved)', async () => {
    const metricsBefore = (await svc.call('/metrics')).text;
    const res = await read('/static');
    expect(res.json.stats.rendered).toBe(false);
    expect(res.json.markdown).toContain('sculpins');
    expect((await svc.call('/metrics')).text.match(/pith_renders_total\{result="ok"\} (\d+)/)?.[1]).toBe(
      metricsBefore.match(/pith_renders_total\{result="ok"\} (\d+)/)?.[1],
    );
    const forced = await read('/static', { render: true });
    expect(forced.json.stats.rendered).toBe(true);
  });

  it('kills a tab that allocates memory without end; the browser survives (refunded)', async () => {
    const pid = svc.renderer?.pool.pid;
    expect(pid).toBeTypeOf('number');
    const usedBefore = await planUsed(svc, key);
    const res = await read('/hog', { render: true, fresh: true });
    expect(res.status).toBe(500);
    expect(res.json.code).toBe('EXTRACTION_FAILED');
    expect(await planUsed(svc, key)).toBe(usedBefore);
    // the same browser renders the next page
    const next = await read('/article', { render: true, fresh: true });
    expect(next.json.stats.rendered).toBe(true);
    expect(svc.renderer?.pool.pid).toBe(pid);
  });

  it('read-and-score, extract and batch take render too; the score judges the page as served', async () => {
    const scored = await svc.call('/v1/read-and-score', { key, body: { url: `${site.origin}/article`, render: true } });
    expect(scored.status).toBe(200);
    expect(scored.json.stats.rendered).toBe(true);
    expect(scored.json.markdown).toContain('sculpins');
    expect(scored.json.score.checks.find((c: { id: string }) => c.id === 'server_rendered_content')?.passed).toBe(false);

    const extracted = await svc.call('/v1/extract', { key, body: { url: `${site.origin}/article`, render: true } });
    expect(extracted.status).toBe(200);
    expect(extracted.json.stats).toEqual({ rendered: true });
    expect(extracted.json.data.headings.map((h: { text: string }) => h.text)).toContain('Three numbers');
    const extractedStatic = await svc.call('/v1/extract', { key, body: { url: `${site.origin}/article`, render: false } });
    expect(extractedStatic.json.stats).toEqual({ rendered: false });
    expect(extractedStatic.json.data.headings).toEqual([]);

    const batch = await svc.call('/v1/batch', { key, body: { urls: [`${site.origin}/late`, `${site.origin}/static`], render: 'auto' } });
    expect(batch.status).toBe(200);
    expect(batch.json.results.map((r: { stats: { rendered: boolean } }) => r.stats.rendered)).toEqual([true, false]);
  });

  it('robots.txt still decides for the document; a bad render value is BAD_REQUEST', async () => {
    const blocked = await read('/private/report', { render: true });
    expect(blocked.status).toBe(403);
    expect(blocked.json.code).toBe('ROBOTS_BLOCKED');
    const bad = await read('/article', { render: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe('BAD_REQUEST');
  });

  it('/metrics counts renders, their duration and fallbacks', async () => {
    const text = (await svc.call('/metrics')).text;
    expect(Number(text.match(/pith_renders_total\{result="ok"\} (\d+)/)?.[1])).toBeGreaterThanOrEqual(5);
    expect(text).toMatch(/pith_renders_total\{result="EXTRACTION_FAILED"\} 1/);
    expect(Number(text.match(/pith_render_duration_seconds_count (\d+)/)?.[1])).toBeGreaterThanOrEqual(6);
  });
});

describe.skipIf(!haveChromium && !process.env.CI)('render: the call deadline and byte cap', { timeout: 120_000 }, () => {
  let svc: TestService;
  let site: SpaSite;
  let key: string;
  const read = (path: string, body: Record<string, unknown>) => svc.call('/v1/read', { key, body: { url: site.origin + path, ...body } });

  beforeAll(async () => {
    site = await startSpaSite();
    // a shorter deadline and cap than production's 15 s / 10 MB keep these tests quick
    svc = await startService({ render: { concurrency: 1, limits: { totalTimeoutMs: 7_000, maxBytes: 1024 * 1024 } } });
    key = (await svc.newAccount('growth')).apiKey;
    await svc.renderer?.pool.start();
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
    await site?.close();
  });

  it('a page that never yields: render true is TIMEOUT (refunded), auto falls back to the static page', async () => {
    const usedBefore = await planUsed(svc, key);
    const started = performance.now();
    const forced = await read('/spin', { render: true });
    expect(forced.status).toBe(504);
    expect(forced.json.code).toBe('TIMEOUT');
    expect(performance.now() - started).toBeLessThan(7_000 * 3);
    expect(await planUsed(svc, key)).toBe(usedBefore);

    const auto = await read('/spin', {});
    expect(auto.status).toBe(200);
    expect(auto.json.stats.rendered).toBe(false);
    const skipped = auto.json.warnings.find((w: { code: string }) => w.code === 'RENDER_SKIPPED');
    expect(skipped?.message).toContain('TIMEOUT');
    // the tab was closed: the browser renders the next page within its deadline
    expect((await read('/article', { render: true })).json.stats.rendered).toBe(true);
  });

  it('the document and everything the browser loads share the byte cap: TOO_LARGE (refunded)', async () => {
    const usedBefore = await planUsed(svc, key);
    const res = await read('/heavy', { render: true });
    expect(res.status).toBe(413);
    expect(res.json.code).toBe('TOO_LARGE');
    expect(await planUsed(svc, key)).toBe(usedBefore);
  });
});

describe('render: no browser', { timeout: 60_000 }, () => {
  let site: SpaSite;
  beforeAll(async () => {
    site = await startSpaSite();
  });
  afterAll(async () => {
    await site?.close();
  });

  for (const [name, opts] of [
    ['RENDER=off', {}],
    ['a browser that cannot start', { render: { executablePath: '/nonexistent/chromium' } }],
  ] as const) {
    it(`${name}: render true is RENDER_UNAVAILABLE (refunded); auto answers the static page with RENDER_SKIPPED`, async () => {
      const svc = await startService(opts);
      try {
        const { apiKey } = await svc.newAccount('growth');
        const url = `${site.origin}/article`;
        const forced = await svc.call('/v1/read', { key: apiKey, body: { url, render: true } });
        expect(forced.status).toBe(503);
        expect(forced.json.code).toBe('RENDER_UNAVAILABLE');
        expect(await planUsed(svc, apiKey)).toBe(0);

        const auto = await svc.call('/v1/read', { key: apiKey, body: { url } });
        expect(auto.status).toBe(200);
        expect(auto.json.stats.rendered).toBe(false);
        expect(auto.json.warnings.map((w: { code: string }) => w.code)).toEqual(['JS_SHELL', 'RENDER_SKIPPED']);
        // a cached static shell is answered with the same warning
        const hit = await svc.call('/v1/read', { key: apiKey, body: { url } });
        expect(hit.headers['x-service-cache']).toBe('HIT');
        expect(hit.json.warnings.map((w: { code: string }) => w.code)).toEqual(['JS_SHELL', 'RENDER_SKIPPED']);
        const metrics = (await svc.call('/metrics')).text;
        expect(metrics).toMatch(/pith_render_fallbacks_total\{reason="(off|unavailable)"\} 2/);
      } finally {
        await svc.close();
      }
    });
  }
});
