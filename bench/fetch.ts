/**
 * Fetch + decode of a 200 KB page from a loopback server: pith's safe fetcher
 * (guarded connector, robots gate with a warm cache, deadline, streaming caps, charset
 * decoding) against a plain undici `request` + TextDecoder, same process, interleaved.
 * Run: npx tsx bench/fetch.ts [rounds] [iterationsPerRound]
 * Prints a markdown table and writes JSON to bench/results/fetch-<time>.json.
 */
import { execSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { decodeBody } from '../src/convert/decode.js';
import { createFetcher } from '../src/fetch/fetcher.js';
import type { CacheStore } from '../src/store/types.js';
import { startSite } from '../test/helpers/site.js';

const ROUNDS = Number(process.argv[2] ?? 30);
const PER_ROUND = Number(process.argv[3] ?? 50);

function page(bytes: number): Buffer {
  const para = '<p>Lorem ipsum dolor sit amet, <a href="/x">consectetur</a> adipiscing elit, sed do eiusmod tempor — café.</p>\n';
  let html = '<!doctype html><html><head><meta charset="utf-8"><title>bench</title></head><body>\n';
  while (Buffer.byteLength(html) < bytes - 20) html += para;
  return Buffer.from(`${html.slice(0, bytes - 16)}</body></html>\n`);
}

function memoryCache(): CacheStore {
  const m = new Map<string, string>();
  return {
    get: async (k) => m.get(k) ?? null,
    set: async (k, v) => void m.set(k, v),
    delete: async (k) => void m.delete(k),
  };
}

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1)))] ?? NaN;
};

async function main(): Promise<void> {
  const body = page(200 * 1024);
  const site = await startSite((req, res) => {
    if (req.url === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end('User-agent: *\nDisallow: /private\n');
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  const url = `${site.origin}/page`;
  const fetcher = createFetcher({
    allowPrivateTargets: [`127.0.0.1:${site.port}`],
    cache: memoryCache(),
    now: () => Date.now(),
    logger: { warn: () => {} },
  });
  const plain = new Agent({ keepAliveTimeout: 4_000 });

  const ours = async (): Promise<number> => {
    const doc = await fetcher.fetch(url);
    return decodeBody(doc.body, doc.headers['content-type']).text.length;
  };
  const reference = async (): Promise<number> => {
    const res = await request(url, { dispatcher: plain });
    const buf = Buffer.from(await res.body.arrayBuffer());
    return new TextDecoder('utf-8').decode(buf).length;
  };

  const time = async (fn: () => Promise<number>): Promise<number> => {
    const t0 = performance.now();
    for (let i = 0; i < PER_ROUND; i++) await fn();
    return (performance.now() - t0) / PER_ROUND;
  };

  // warm-up (JIT, keep-alive sockets, robots cache)
  for (let i = 0; i < 100; i++) {
    await ours();
    await reference();
  }
  const oursMs: number[] = [];
  const refMs: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    // alternate which goes first so drift and GC hit both sides alike
    let o: number;
    let p: number;
    if (r % 2 === 0) {
      o = await time(ours);
      p = await time(reference);
    } else {
      p = await time(reference);
      o = await time(ours);
    }
    oursMs.push(o);
    refMs.push(p);
    ratios.push(o / p);
  }
  await fetcher.close();
  await plain.close();
  await site.close();

  let commit = 'unknown';
  try {
    commit = execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
  } catch {
    // not a git checkout
  }
  const result = {
    bench: 'fetch',
    page_bytes: body.length,
    rounds: ROUNDS,
    iterations_per_round: PER_ROUND,
    ours_ms_median: quantile(oursMs, 0.5),
    reference_ms_median: quantile(refMs, 0.5),
    ratio_median: quantile(ratios, 0.5),
    ratio_p10: quantile(ratios, 0.1),
    ratio_p90: quantile(ratios, 0.9),
    overhead_percent_median: (quantile(ratios, 0.5) - 1) * 100,
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cpus: cpus().length,
    commit,
    date: new Date().toISOString(),
  };
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(new URL(`./results/fetch-${Date.now()}.json`, import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
  const f = (n: number, d = 3): string => n.toFixed(d);
  console.log(`| page | pith fetch+decode (ms) | undici request+decode (ms) | ratio median | ratio p10–p90 | overhead |`);
  console.log(`|---|---|---|---|---|---|`);
  console.log(
    `| ${Math.round(body.length / 1024)} KB | ${f(result.ours_ms_median)} | ${f(result.reference_ms_median)} | ${f(result.ratio_median, 2)} | ${f(result.ratio_p10, 2)}–${f(result.ratio_p90, 2)} | ${f(result.overhead_percent_median, 1)}% |`,
  );
  console.log(
    `\n${ROUNDS} rounds × ${PER_ROUND} fetches each, interleaved; Node ${result.node}; ${result.cpu} ×${result.cpus}; commit ${commit}`,
  );
  console.log(JSON.stringify(result));
}

await main();
