import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../src/errors.js';
import type { FetchedDocument, Fetcher } from '../../../src/fetch/types.js';
import type { ReadDeps } from '../../../src/ops/read.js';
import { cacheKey } from '../../../src/ops/cache.js';
import { readPage } from '../../../src/ops/read.js';
import { renderedCacheKey, routeFragment } from '../../../src/ops/rendering.js';
import type { RenderEvent, RenderJob, Renderer } from '../../../src/render/types.js';
import { memoryCache } from '../../e2e/fetch/helpers.js';

/**
 * The `render` option between fetch and convert, with a fake fetcher and a fake renderer
 * (no browser): when a render happens, what the answer says, and which cache entries
 * serve which mode.
 */
const SHELL =
  '<!doctype html><html><head><title>App</title></head><body><div id="root"></div><script type="module" src="/app.js"></script></body></html>';
const ARTICLE = `<!doctype html><html><head><title>Story</title></head><body><main><article><h1>Story</h1>${'<p>A long paragraph of server-rendered text that is plenty for an article body and more.</p>'.repeat(4)}</article></main></body></html>`;
const RENDERED = `<html><head><title>App</title></head><body><div id="root"><article><h1>Rendered</h1>${'<p>Text the browser built from the API answer, long enough to read.</p>'.repeat(4)}</article></div></body></html>`;

function doc(url: string, body: string, contentType = 'text/html'): FetchedDocument {
  return { url, status: 200, headers: { 'content-type': contentType }, contentType, body: Buffer.from(body) };
}

function setup(pages: Record<string, FetchedDocument>, renderer: Renderer | null) {
  const fetches: string[] = [];
  const fetcher: Fetcher = {
    async fetch(url) {
      fetches.push(url);
      const page = pages[url];
      if (!page) throw new ServiceError('URL_NOT_FOUND');
      return page;
    },
  };
  const events: RenderEvent[] = [];
  const cache = memoryCache();
  const deps: ReadDeps = {
    fetcher,
    cache,
    engineVersion: 'v1',
    now: () => 0,
    render: { renderer, onEvent: (e) => events.push(e), limits: { totalTimeoutMs: 9_000, maxBytes: 1_000_000 } },
  };
  return { deps, fetches, events, cache };
}

function fakeRenderer(behaviour: (job: RenderJob) => Promise<string>, unavailable: string | null = null) {
  const jobs: RenderJob[] = [];
  const renderer: Renderer = {
    unavailableReason: () => unavailable,
    async render(job) {
      jobs.push(job);
      return { url: job.document.url, html: await behaviour(job), warnings: [], bytes: 10, refused: 2 };
    },
    close: async () => {},
  };
  return { renderer, jobs };
}

const codes = (w: Array<{ code: string }>): string[] => w.map((x) => x.code);

describe('render modes', () => {
  it('auto leaves a server-rendered page alone and caches it under the static key only', async () => {
    const { renderer, jobs } = fakeRenderer(async () => RENDERED);
    const { deps, cache } = setup({ 'https://a.example/': doc('https://a.example/', ARTICLE) }, renderer);
    const { result } = await readPage(deps, { url: 'https://a.example/', fresh: false });
    expect(result.stats.rendered).toBe(false);
    expect(jobs).toHaveLength(0);
    expect([...cache.entries.keys()]).toEqual([cacheKey('read', 'v1', 'https://a.example/')]);
  });

  it('auto renders a JS shell within what is left of the deadline and the cap; the next call is a rendered HIT', async () => {
    const { renderer, jobs } = fakeRenderer(async () => RENDERED);
    const { deps, fetches, events } = setup({ 'https://a.example/': doc('https://a.example/', SHELL) }, renderer);
    const before = performance.now();
    const first = await readPage(deps, { url: 'https://a.example/', fresh: false });
    expect(first.result.stats.rendered).toBe(true);
    expect(first.result.content).toContain('Text the browser built');
    expect(codes(first.result.warnings)).toEqual([]);
    expect(jobs[0]?.maxBytes).toBe(1_000_000 - SHELL.length);
    expect(jobs[0]?.deadlineAt).toBeGreaterThanOrEqual(before + 9_000 - 1);
    expect(jobs[0]?.deadlineAt).toBeLessThanOrEqual(performance.now() + 9_000);
    expect(events.map((e) => e.type)).toEqual(['rendered', 'refused_requests']);

    const second = await readPage(deps, { url: 'https://a.example/', fresh: false });
    expect(second).toMatchObject({ cacheHit: true, result: { stats: { rendered: true } } });
    expect(fetches).toHaveLength(1);
    // false is answered from the static entry written by the same computation
    const asServed = await readPage(deps, { url: 'https://a.example/', fresh: false, render: false });
    expect(asServed.cacheHit).toBe(true);
    expect(codes(asServed.result.warnings)).toContain('JS_SHELL');
  });

  it('true renders even a server-rendered page; fresh skips the lookup', async () => {
    const { renderer, jobs } = fakeRenderer(async () => RENDERED);
    const { deps } = setup({ 'https://a.example/': doc('https://a.example/', ARTICLE) }, renderer);
    await readPage(deps, { url: 'https://a.example/', fresh: false, render: true });
    const again = await readPage(deps, { url: 'https://a.example/', fresh: true, render: true });
    expect(again).toMatchObject({ cacheHit: false, result: { stats: { rendered: true } } });
    expect(jobs).toHaveLength(2);
  });

  it('a route fragment is rendered and keys its own cache entry', async () => {
    const { renderer, jobs } = fakeRenderer(async (job) =>
      RENDERED.replaceAll('Text the browser', `Route ${job.fragment} text the browser`),
    );
    const { deps, cache } = setup({ 'https://a.example/': doc('https://a.example/', SHELL) }, renderer);
    const a = await readPage(deps, { url: 'https://a.example/', fresh: false, fragment: '#/a' });
    const b = await readPage(deps, { url: 'https://a.example/', fresh: false, fragment: '#/b' });
    expect(a.result.content).toContain('Route #/a');
    expect(b.result.content).toContain('Route #/b');
    expect(jobs.map((j) => j.fragment)).toEqual(['#/a', '#/b']);
    expect(cache.entries.has(renderedCacheKey(cacheKey('read', 'v1', 'https://a.example/'), '#/b'))).toBe(true);
  });

  it('a failed render: auto answers the static page with RENDER_SKIPPED naming the error; true fails with it', async () => {
    const { renderer } = fakeRenderer(async () => {
      throw new ServiceError('TIMEOUT', 'rendering the page took longer than the 15 s deadline');
    });
    const { deps, events } = setup({ 'https://a.example/': doc('https://a.example/', SHELL) }, renderer);
    const auto = await readPage(deps, { url: 'https://a.example/', fresh: false });
    expect(auto.result.stats.rendered).toBe(false);
    expect(codes(auto.result.warnings)).toEqual(['JS_SHELL', 'RENDER_SKIPPED']);
    expect(auto.result.warnings[1]?.message).toContain('TIMEOUT');
    await expect(readPage(deps, { url: 'https://a.example/', fresh: true, render: true })).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(events.filter((e) => e.type === 'failed')).toHaveLength(2);
    expect(events.filter((e) => e.type === 'fallback')).toEqual([{ type: 'fallback', reason: 'failed' }]);
  });

  it('no renderer or an unavailable one: true is RENDER_UNAVAILABLE, auto falls back (also on a cache hit)', async () => {
    for (const renderer of [null, fakeRenderer(async () => RENDERED, 'no browser at /x').renderer]) {
      const { deps, fetches } = setup({ 'https://a.example/': doc('https://a.example/', SHELL) }, renderer);
      await expect(readPage(deps, { url: 'https://a.example/', fresh: false, render: true })).rejects.toMatchObject({
        code: 'RENDER_UNAVAILABLE',
      });
      const auto = await readPage(deps, { url: 'https://a.example/', fresh: false });
      expect(codes(auto.result.warnings)).toEqual(['JS_SHELL', 'RENDER_SKIPPED']);
      const hit = await readPage(deps, { url: 'https://a.example/', fresh: false });
      expect(hit.cacheHit).toBe(true);
      expect(codes(hit.result.warnings)).toEqual(['JS_SHELL', 'RENDER_SKIPPED']);
      expect(fetches).toHaveLength(2);
    }
  });

  it('a document that is not HTML is never rendered, even with render true', async () => {
    const { renderer, jobs } = fakeRenderer(async () => RENDERED);
    const { deps } = setup({ 'https://a.example/data': doc('https://a.example/data', '{"a": 1}', 'application/json') }, renderer);
    const { result } = await readPage(deps, { url: 'https://a.example/data', fresh: false, render: true });
    expect(jobs).toHaveLength(0);
    expect(result.stats.rendered).toBe(false);
    expect(result.warnings.find((w) => w.code === 'RENDER_SKIPPED')?.message).toContain('application/json');
  });
});

describe('routeFragment', () => {
  it('keeps client-side routes, drops anchors', () => {
    expect(routeFragment('https://a.example/#/docs/intro')).toBe('#/docs/intro');
    expect(routeFragment('https://a.example/#!/inbox')).toBe('#!/inbox');
    expect(routeFragment('https://a.example/page#section-2')).toBeUndefined();
    expect(routeFragment('https://a.example/page')).toBeUndefined();
  });
});
