/**
 * Child process for bench/server.ts: starts either the real pith service (SQLite in a temp
 * dir, enterprise account, the page already cached) or a bare Fastify route that returns
 * the same JSON, and prints one line `{"url", "key", "body"}` when ready.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { request } from 'undici';
import type * as AccountsModule from '../src/billing/accounts.js';
import type * as ConfigModule from '../src/config.js';
import type * as ServerModule from '../src/server.js';

// The pith target runs the compiled build that `npm start` runs (bench:server builds it
// first), not the tsx-transpiled sources: those carry source maps and helper calls.
const BUILD = new URL('../dist/', import.meta.url);
async function fromBuild<T>(path: string): Promise<T> {
  return (await import(new URL(path, BUILD).href)) as T;
}

const PAGE = `<!doctype html><html lang="en"><head><title>Benchmark article</title></head><body><main><article>
<h1>Benchmark article</h1>${'<p>Paragraph of benchmark text that looks like a real article body, with some words.</p>'.repeat(40)}
</article></main></body></html>`;

async function startTargetSite(): Promise<string> {
  const server = createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  if (addr === null || typeof addr === 'string') throw new Error('no address');
  return `http://127.0.0.1:${addr.port}`;
}

async function main(): Promise<void> {
  const mode = process.argv[2];
  const site = await startTargetSite();
  const pageUrl = `${site}/article.html`;
  if (mode === 'pith') {
    const { createAccount } = await fromBuild<typeof AccountsModule>('billing/accounts.js');
    const { loadConfig } = await fromBuild<typeof ConfigModule>('config.js');
    const { startServer } = await fromBuild<typeof ServerModule>('server.js');
    const config = loadConfig({
      DATA_DIR: mkdtempSync(join(tmpdir(), 'pith-bench-')),
      PORT: '0',
      LOG_LEVEL: 'error',
      ENGINE_VERSION: 'bench',
      ALLOW_PRIVATE_TARGETS: '127.0.0.1/32',
    });
    const server = await startServer(config);
    const { apiKey } = await createAccount({ stores: server.stores, now: Date.now, randomBytes }, { plan: 'enterprise' });
    const body = JSON.stringify({ url: pageUrl });
    const warm = await request(`${server.url}/v1/read`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body,
    });
    const json = await warm.body.text();
    if (warm.statusCode !== 200) throw new Error(`warm-up failed: ${json}`);
    process.stdout.write(`READY ${JSON.stringify({ url: `${server.url}/v1/read`, key: apiKey, body })}\n`);
  } else if (mode === 'bare') {
    // Same JSON a cache hit returns, from a route with no auth, billing, slots or cache.
    const app = Fastify({ logger: false });
    const payload = {
      status: 'success',
      url: pageUrl,
      markdown: `# Benchmark article\n\n${'Paragraph of benchmark text that looks like a real article body, with some words.\n\n'.repeat(40)}`,
      metadata: { title: 'Benchmark article', description: null, language: 'en' },
      stats: { raw_html_size_kb: 3.9, markdown_size_kb: 3.3, reduction_percent: 15.2, extraction_time_ms: 1 },
      cache: { hit: true, ttl_seconds: 3600 },
    };
    app.post('/v1/read', async () => payload);
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    process.stdout.write(`READY ${JSON.stringify({ url: `${url}/v1/read`, key: 'none', body: JSON.stringify({ url: pageUrl }) })}\n`);
  } else {
    throw new Error('usage: server-targets.ts pith|bare');
  }
}

process.once('SIGINT', () => process.exit(0));
process.once('SIGTERM', () => process.exit(0));

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
