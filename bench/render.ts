/**
 * JavaScript rendering, measured on the loopback SPA fixtures (test/e2e/render/spa-site.ts)
 * with Debian's chromium. Four sections, each against a reference measured in the same run:
 * 1. driver: playwright-core against a minimal raw-CDP driver (bench/render-cdp.ts) doing the
 *    same fixed steps through the same guard proxy: browser start, and one fixed render
 *    (context → page → navigate → HTML → close), interleaved.
 * 2. render time of each SPA fixture through the renderer (guard proxy, fresh context,
 *    settle, bounded scroll, DOM), median and p95; reference: playwright's own
 *    `networkidle` wait on the same page through the same proxy, and a static read.
 * 3. peak browser memory with RENDER_CONCURRENCY tabs busy (RSS summed over the browser's
 *    processes, and PSS, which counts shared pages once); reference: the idle browser.
 * 4. static-read throughput when nothing needs rendering: `render: "auto"` reads of a
 *    server-rendered page with the renderer configured (browser running) against RENDER=off.
 * Run: npm run bench:render [-- rounds]   (default 15). JSON goes to bench/results/.
 */
import { execSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';
import { createFetcher } from '../src/fetch/fetcher.js';
import type { ReadDeps } from '../src/ops/read.js';
import { readPage } from '../src/ops/read.js';
import { ByteBudget } from '../src/render/byte-budget.js';
import { chromiumArgs } from '../src/render/chromium-args.js';
import { startGuardProxy } from '../src/render/guard-proxy.js';
import { processTree, proportionalBytes } from '../src/render/process-tree.js';
import { createRenderer } from '../src/render/renderer.js';
import { memoryCache } from '../test/e2e/fetch/helpers.js';
import { startSpaSite } from '../test/e2e/render/spa-site.js';
import { RawCdp } from './render-cdp.js';

const ROUNDS = Number(process.argv[2] ?? 15);
const CHROMIUM = '/usr/bin/chromium';
const CONCURRENCY = Math.max(1, Math.min(8, availableParallelism())); // the service's default
const MB = 1024 * 1024;

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1)))] ?? Number.NaN;
};
const stats = (xs: number[]) => ({ median: quantile(xs, 0.5), p95: quantile(xs, 0.95), n: xs.length });
async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

const site = await startSpaSite();
const fetcher = createFetcher({
  allowPrivateTargets: [`127.0.0.1:${site.port}`],
  cache: memoryCache(),
  now: () => Date.now(),
  logger: { warn: () => {} },
});
const never = new AbortController();
const proxy = await startGuardProxy({ ...fetcher.guard, budget: new ByteBudget(Number.MAX_SAFE_INTEGER), signal: never.signal });
const args = chromiumArgs({ proxyHost: '127.0.0.1', jsHeapMb: 256 });

// --- 1. driver ----------------------------------------------------------------------------
const pwLaunch: number[] = [];
const cdpLaunch: number[] = [];
const pwFixed: number[] = [];
const cdpFixed: number[] = [];
{
  let browser: Browser | null = null;
  let raw: RawCdp | null = null;
  for (let i = 0; i < 3; i++) {
    pwLaunch.push(
      await timed(async () => {
        browser = await chromium.launch({
          executablePath: CHROMIUM,
          headless: true,
          args,
          proxy: { server: 'http://127.0.0.1:9', bypass: '<-loopback>' },
        });
      }),
    );
    cdpLaunch.push(
      await timed(async () => {
        raw = await RawCdp.launch(CHROMIUM, [...args, '--no-first-run']);
      }),
    );
    if (i < 2) {
      await (browser as Browser | null)?.close();
      await (raw as RawCdp | null)?.close();
    }
  }
  const url = `${site.origin}/static`;
  const pwRender = async (): Promise<void> => {
    const context = await (browser as unknown as Browser).newContext({ proxy: { server: proxy.url, bypass: '<-loopback>' } });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    await page.content();
    await context.close();
  };
  const cdpRender = async (): Promise<void> => {
    await (raw as unknown as RawCdp).render(url, proxy.url);
  };
  for (let i = 0; i < 3; i++) {
    await pwRender();
    await cdpRender();
  }
  for (let r = 0; r < ROUNDS * 2; r++) {
    if (r % 2 === 0) {
      pwFixed.push(await timed(pwRender));
      cdpFixed.push(await timed(cdpRender));
    } else {
      cdpFixed.push(await timed(cdpRender));
      pwFixed.push(await timed(pwRender));
    }
  }
  await (browser as unknown as Browser).close();
  await (raw as unknown as RawCdp).close();
}

// --- 2. render time of the SPA fixtures ---------------------------------------------------
const renderer = createRenderer({ fetcher }, { executablePath: CHROMIUM, concurrency: CONCURRENCY, tabMemoryMb: 512 });
await renderer.pool.start();
const SPA = ['/article', '/late', '/app/#/guide', '/feed'];
const renderMs: Record<string, number[]> = Object.fromEntries(SPA.map((p) => [p, []]));
const networkIdleMs: number[] = [];
const staticReadMs: number[] = [];
const renderedReadMs: number[] = [];
const renderOnce = async (path: string): Promise<number> => {
  const [pathname, fragment] = path.split('#');
  const doc = await fetcher.fetch(`${site.origin}${pathname}`);
  return timed(() =>
    renderer.render({
      document: doc,
      deadlineAt: performance.now() + 15_000,
      maxBytes: 10 * MB,
      ...(fragment ? { fragment: `#${fragment}` } : {}),
    }),
  );
};
const plainBrowser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args,
  proxy: { server: 'http://127.0.0.1:9', bypass: '<-loopback>' },
});
const networkIdle = async (): Promise<number> =>
  timed(async () => {
    const context = await plainBrowser.newContext({ proxy: { server: proxy.url, bypass: '<-loopback>' } });
    const page = await context.newPage();
    await page.goto(`${site.origin}/article`, { waitUntil: 'networkidle' });
    await page.content();
    await context.close();
  });
const readDeps = (withRenderer: boolean): ReadDeps => ({
  fetcher,
  cache: memoryCache(),
  engineVersion: 'bench',
  now: () => Date.now(),
  render: { renderer: withRenderer ? renderer : null },
});
const rendering = readDeps(true);
for (const path of SPA) await renderOnce(path); // warm-up
await networkIdle();
for (let r = 0; r < ROUNDS; r++) {
  for (const path of SPA) renderMs[path]?.push(await renderOnce(path));
  networkIdleMs.push(await networkIdle());
  staticReadMs.push(await timed(() => readPage(rendering, { url: `${site.origin}/static`, fresh: true, render: false })));
  renderedReadMs.push(await timed(() => readPage(rendering, { url: `${site.origin}/article`, fresh: true, render: 'auto' })));
}
await plainBrowser.close();

// --- 3. peak memory with CONCURRENCY tabs busy --------------------------------------------
const memoryOf = (): { rss: number; pss: number } => {
  const tree = renderer.pool.pid === null ? [] : processTree(renderer.pool.pid);
  return { rss: tree.reduce((a, p) => a + p.rss, 0), pss: tree.reduce((a, p) => a + proportionalBytes(p.pid), 0) };
};
await new Promise((resolve) => setTimeout(resolve, 1_000));
const idle = memoryOf();
const peak = { rss: 0, pss: 0 };
const sampler = setInterval(() => {
  const m = memoryOf();
  peak.rss = Math.max(peak.rss, m.rss);
  peak.pss = Math.max(peak.pss, m.pss);
}, 100);
// two waves: tabs that keep changing (restless) and client-rendered articles, all at once
await Promise.all(Array.from({ length: CONCURRENCY }, (_, i) => renderOnce(i % 2 === 0 ? '/restless' : '/feed')));
await Promise.all(Array.from({ length: CONCURRENCY }, () => renderOnce('/article')));
clearInterval(sampler);

// --- 4. static-read throughput, renderer configured vs off --------------------------------
const off = readDeps(false);
const PER_ROUND = 40;
const throughput = async (deps: ReadDeps): Promise<number> => {
  const ms = await timed(async () => {
    for (let i = 0; i < PER_ROUND; i++) await readPage(deps, { url: `${site.origin}/static`, fresh: true });
  });
  return (PER_ROUND * 1000) / ms;
};
for (let i = 0; i < 2; i++) {
  await throughput(rendering);
  await throughput(off);
}
const withRendererRps: number[] = [];
const offRps: number[] = [];
const rpsRatios: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  // alternate which goes first so drift and GC hit both sides alike
  const on = r % 2 === 0 ? await throughput(rendering) : Number.NaN;
  const without = await throughput(off);
  const withRenderer = r % 2 === 0 ? on : await throughput(rendering);
  withRendererRps.push(withRenderer);
  offRps.push(without);
  rpsRatios.push(withRenderer / without);
}

await renderer.close();
never.abort();
await proxy.close();
await fetcher.close();
await site.close();

let commit = 'unknown';
try {
  commit = execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
} catch {
  // not a git checkout
}
const spa = Object.fromEntries(Object.entries(renderMs).map(([p, xs]) => [p, stats(xs)]));
const result = {
  bench: 'render',
  rounds: ROUNDS,
  concurrency: CONCURRENCY,
  driver: {
    playwright_launch_ms: stats(pwLaunch),
    cdp_launch_ms: stats(cdpLaunch),
    playwright_fixed_render_ms: stats(pwFixed),
    cdp_fixed_render_ms: stats(cdpFixed),
    fixed_render_ratio_median: quantile(pwFixed, 0.5) / quantile(cdpFixed, 0.5),
  },
  spa_render_ms: spa,
  article_render_vs_playwright_networkidle: quantile(renderMs['/article'] ?? [], 0.5) / quantile(networkIdleMs, 0.5),
  playwright_networkidle_ms: stats(networkIdleMs),
  read_ms: { static_article: stats(staticReadMs), rendered_article: stats(renderedReadMs) },
  memory_mb: {
    idle_rss: idle.rss / MB,
    idle_pss: idle.pss / MB,
    peak_rss: peak.rss / MB,
    peak_pss: peak.pss / MB,
    target_rss: 1536,
  },
  static_read: {
    rps_with_renderer_median: quantile(withRendererRps, 0.5),
    rps_render_off_median: quantile(offRps, 0.5),
    ratio_median: quantile(rpsRatios, 0.5),
    ratio_p10: quantile(rpsRatios, 0.1),
    ratio_p90: quantile(rpsRatios, 0.9),
  },
  node: process.version,
  cpu: cpus()[0]?.model ?? 'unknown',
  cpus: cpus().length,
  commit,
  date: new Date().toISOString(),
};
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL(`./results/render-${Date.now()}.json`, import.meta.url), `${JSON.stringify(result, null, 2)}\n`);

const f = (n: number, d = 0): string => n.toFixed(d);
console.log('| measure | median | p95 | reference (same run) | ratio |');
console.log('|---|---|---|---|---|');
console.log(
  `| driver: fixed render, playwright-core | ${f(result.driver.playwright_fixed_render_ms.median)} ms | ${f(result.driver.playwright_fixed_render_ms.p95)} ms | raw CDP ${f(result.driver.cdp_fixed_render_ms.median)} ms | ${f(result.driver.fixed_render_ratio_median, 2)} |`,
);
console.log(
  `| driver: browser start, playwright-core | ${f(result.driver.playwright_launch_ms.median)} ms | | raw CDP ${f(result.driver.cdp_launch_ms.median)} ms | ${f(result.driver.playwright_launch_ms.median / result.driver.cdp_launch_ms.median, 2)} |`,
);
for (const [path, s] of Object.entries(spa)) {
  console.log(
    `| render ${path} | ${f(s.median)} ms | ${f(s.p95)} ms | playwright networkidle /article ${f(result.playwright_networkidle_ms.median)} ms | ${f(s.median / result.playwright_networkidle_ms.median, 2)} |`,
  );
}
console.log(
  `| read /article (fetch+render+convert) | ${f(result.read_ms.rendered_article.median)} ms | ${f(result.read_ms.rendered_article.p95)} ms | static read ${f(result.read_ms.static_article.median, 1)} ms | ${f(result.read_ms.rendered_article.median / result.read_ms.static_article.median, 1)} |`,
);
console.log(
  `| browser memory, ${CONCURRENCY} tabs busy | RSS ${f(result.memory_mb.peak_rss)} MB, PSS ${f(result.memory_mb.peak_pss)} MB | | idle RSS ${f(result.memory_mb.idle_rss)} MB, PSS ${f(result.memory_mb.idle_pss)} MB | target RSS ≤ 1536 MB |`,
);
console.log(
  `| static reads/s, renderer on | ${f(result.static_read.rps_with_renderer_median, 1)} | | RENDER=off ${f(result.static_read.rps_render_off_median, 1)} | ${f(result.static_read.ratio_median, 3)} (p10–p90 ${f(result.static_read.ratio_p10, 2)}–${f(result.static_read.ratio_p90, 2)}) |`,
);
console.log(`\n${ROUNDS} rounds; Node ${result.node}; ${result.cpu} ×${result.cpus}; commit ${commit}`);
console.log(JSON.stringify(result));
