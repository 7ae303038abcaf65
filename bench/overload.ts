/**
 * Overload (issue 13, item 5): 100 concurrent `fresh` reads of a 10 MB page served from
 * loopback, against the built server (`node dist/cli/main.js serve`, one process with its
 * worker threads). While they run, `/healthz` is called every 50 ms. Printed per setup: the
 * status counts (every answer must be 200 or 503), peak RSS of the server process (VmHWM,
 * worker threads included), `/healthz` latency (p50 / p99 / max), and the wall time.
 *
 * The page is served twice: with Content-Length (a static file; the body memory budget admits
 * or refuses it whole at its headers) and chunked (a dynamic page; counted as it streams).
 * Reference in the same run: the same server with the body memory budget lifted
 * (BODY_MEMORY_MB=100000), i.e. only the worker pool's own admission left. Each server is
 * warmed with one small read first, as a production server is.
 *
 *   npm run bench:overload [-- --requests 100 --mb 10 --only-default]
 *   SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' npx tsx bench/overload.ts   # profile the server
 * JSON goes to bench/results/overload.json.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { createAccount } from '../src/billing/accounts.js';
import { openStores } from '../src/store/open.js';
import { PROJECT_ROOT } from '../test/store/instances.js';

const arg = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const REQUESTS = arg('requests', 100);
const PAGE_MB = arg('mb', 10);

/** An article-like page of `mb` MB: headings, paragraphs with links, lists and a table. */
function bigPage(mb: number): string {
  const section = (i: number): string =>
    `<h2>Section ${i}</h2><p>Paragraph ${i} tells a long story about harbours, tides and the boats that leave at dawn, with <a href="/s/${i}">a link</a> and <em>emphasis</em>.</p>` +
    `<ul><li>Item one of ${i}</li><li>Item two of ${i}</li></ul><table><tr><td>${i}</td><td>value</td></tr></table>`;
  const parts: string[] = ['<!doctype html><html lang="en"><head><title>Big page</title></head><body><main><article><h1>Big page</h1>'];
  let size = parts[0]?.length ?? 0;
  for (let i = 0; size < mb * 1024 * 1024 - 1024; i++) {
    const s = section(i);
    parts.push(s);
    size += s.length;
  }
  parts.push('</article></main></body></html>');
  return parts.join('');
}

/** A loopback HTTP server in a child process that answers every path with `page`. */
async function startTargetSite(page: string): Promise<{ origin: string; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'pith-overload-site-'));
  const file = join(dir, 'page.html');
  writeFileSync(file, page);
  const script = `
    const http = require('node:http');
    const page = require('node:fs').readFileSync(process.argv[1]);
    const server = http.createServer((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      if (req.url === '/warm.html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><main><p>Warm-up page with a little text.</p></main></body></html>');
      // /chunked: no Content-Length (a dynamic page); anything else declares its length (a static file)
      const declared = req.url.startsWith('/chunked') ? {} : { 'content-length': page.length };
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...declared }).end(page);
    });
    server.listen(0, '127.0.0.1', () => process.stdout.write('port ' + server.address().port + '\\n'));
  `;
  const child = spawn(process.execPath, ['-e', script, file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve(Number(/port (\d+)/.exec(d.toString())?.[1])));
    child.once('exit', (code) => reject(new Error(`target site exited ${code}`)));
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    origin: `http://127.0.0.1:${port}`,
    close: async () => {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface Server {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

async function startServer(env: Record<string, string>): Promise<Server> {
  // e.g. SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the server under the load
  const nodeArgs = process.env.SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, join(PROJECT_ROOT, 'dist', 'cli', 'main.js'), 'serve'], {
    cwd: PROJECT_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'error',
      RENDER: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      const m = /pith is ready at (http:\/\/\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    url,
    pid: child.pid as number,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function rssMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return kb / 1024;
}

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1)))] ?? Number.NaN;
};

interface RunResult {
  setup: string;
  statuses: Record<string, number>;
  codes: Record<string, number>;
  peak_rss_mb: number;
  healthz_ms: { p50: number; p99: number; max: number; n: number };
  wall_s: number;
}

async function run(setup: string, env: Record<string, string>, pageUrl: string): Promise<RunResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pith-overload-'));
  const server = await startServer({ DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: '127.0.0.1/32', ...env });
  const stores = await openStores({ dataDir, databaseUrl: null, redisUrl: null });
  const { apiKey } = await createAccount({ stores, now: Date.now, randomBytes }, { plan: 'enterprise' });
  await stores.close();
  const dispatcher = new Agent({ connections: REQUESTS + 10, headersTimeout: 120_000, bodyTimeout: 120_000 });
  // a server in production is warm: load the lazily loaded parts (HTTP parser, engine) first
  const warm = await request(`${server.url}/v1/read`, {
    method: 'POST',
    dispatcher,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${new URL(pageUrl).origin}/warm.html` }),
  });
  await warm.body.text();
  const health: number[] = [];
  let pinging = true;
  const pinger = (async () => {
    while (pinging) {
      const t0 = performance.now();
      const res = await request(`${server.url}/healthz`, { dispatcher });
      await res.body.text();
      health.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const statuses: Record<string, number> = {};
  const codes: Record<string, number> = {};
  const started = performance.now();
  await Promise.all(
    Array.from({ length: REQUESTS }, async () => {
      const res = await request(`${server.url}/v1/read`, {
        method: 'POST',
        dispatcher,
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: pageUrl, fresh: true }),
      });
      const body = (await res.body.json()) as { code?: string };
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      const code = body.code ?? 'ok';
      codes[code] = (codes[code] ?? 0) + 1;
    }),
  );
  const wall = (performance.now() - started) / 1000;
  pinging = false;
  await pinger;
  const peak = rssMb(server.pid, 'VmHWM');
  await server.stop();
  await dispatcher.close();
  rmSync(dataDir, { recursive: true, force: true });
  return {
    setup,
    statuses,
    codes,
    peak_rss_mb: Math.round(peak),
    healthz_ms: {
      p50: Math.round(quantile(health, 0.5)),
      p99: Math.round(quantile(health, 0.99)),
      max: Math.round(Math.max(...health)),
      n: health.length,
    },
    wall_s: Math.round(wall * 10) / 10,
  };
}

// The target site runs in a process of its own: serving 1 GB must not slow the /healthz
// client down, or its own event loop would be what the latency measures.
const site = await startTargetSite(bigPage(PAGE_MB));
const results = [
  await run('default, page with Content-Length', {}, `${site.origin}/big.html`),
  await run('default, chunked page (no Content-Length)', {}, `${site.origin}/chunked/big.html`),
];
if (!process.argv.includes('--only-default')) {
  results.push(await run('reference: no body budget, Content-Length', { BODY_MEMORY_MB: '100000' }, `${site.origin}/big.html`));
}
await site.close();

console.log(`\n${REQUESTS} concurrent fresh reads of a ${PAGE_MB} MB page (loopback), ${cpus().length} cores, Node ${process.version}\n`);
console.log('| setup | statuses | codes | peak RSS | /healthz p50 / p99 / max | wall |');
console.log('|---|---|---|---|---|---|');
for (const r of results) {
  const st = Object.entries(r.statuses)
    .map(([k, v]) => `${k}×${v}`)
    .join(' ');
  const cs = Object.entries(r.codes)
    .map(([k, v]) => `${k}×${v}`)
    .join(' ');
  console.log(
    `| ${r.setup} | ${st} | ${cs} | ${r.peak_rss_mb} MB | ${r.healthz_ms.p50} / ${r.healthz_ms.p99} / ${r.healthz_ms.max} ms | ${r.wall_s} s |`,
  );
}
mkdirSync(join(PROJECT_ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(
  join(PROJECT_ROOT, 'bench', 'results', 'overload.json'),
  JSON.stringify({ requests: REQUESTS, page_mb: PAGE_MB, cpus: cpus().length, node: process.version, results }, null, 2),
);
