/**
 * Runs inside a fresh network namespace made by ssrf-netns.test.ts: loopback only, with
 * 10.0.0.1 and 169.254.169.254 added to `lo`, and a bind-mounted /etc/hosts. Every
 * "private" target of the pages below is therefore an address inside this namespace,
 * where a canary listens: a packet that reached one could not have left the machine, and
 * the canaries count every connection (and every UDP datagram). The pages attack those
 * targets with every way a page can make the browser connect; each is rendered with
 * `render: true` through the real read path (fetcher → renderer → converter). Prints one
 * JSON object: canary counts, what the guard refused, and each page's outcome.
 * `--open-guard` is the control: the same attack with the guard opened to everything.
 */
import { createSocket } from 'node:dgram';
import type { Server, Socket } from 'node:net';
import { createServer } from 'node:net';
import { isServiceError } from '../../../src/errors.js';
import { createFetcher, defaultLookup } from '../../../src/fetch/fetcher.js';
import { fetchAndConvert } from '../../../src/ops/read.js';
import { createRenderer } from '../../../src/render/renderer.js';
import { startSite } from '../../helpers/site.js';
import { memoryCache } from '../fetch/helpers.js';
import { attackPage, ARTICLE_JSON, navigationPage, SAFE_TEXT } from './netns-pages.js';

const PRIVATE_HOSTS = ['127.0.0.1', '127.0.0.2', '10.0.0.1', '169.254.169.254', '::1'];
const FIXED_PORTS = [80, 443, 8080];

// --- the site (the only allowed target: 127.0.0.1 on its own port) ---------------------
let sitePort = 0;
const rebindSecond = { count: 0 };
const site = await startSite((req, res) => {
  const url = new URL(req.url ?? '/', 'http://site.test');
  const html = (body: string): void => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(body);
  };
  switch (url.pathname) {
    case '/robots.txt':
      res.statusCode = 404;
      return res.end();
    case '/attack':
      return html(attackPage(targets(), sitePort));
    case '/nav':
      return html(navigationPage(url.searchParams.get('how') ?? 'location', targets(), sitePort));
    case '/api/article.json':
      res.setHeader('content-type', 'application/json');
      return res.end(ARTICLE_JSON);
    case '/api/first':
    case '/api/second':
      if (url.pathname === '/api/second') rebindSecond.count++;
      res.setHeader('content-type', 'application/json');
      return res.end('{"ok":true}');
    case '/worker.js':
      res.setHeader('content-type', 'text/javascript');
      return res.end(
        `const T = ${JSON.stringify(targets())}; for (const t of T) { fetch(t + 'worker').catch(() => {}); try { new WebSocket(t.replace(/^http/, 'ws')); } catch (e) {} }`,
      );
    case '/sw.js':
      res.setHeader('content-type', 'text/javascript');
      return res.end(
        `self.addEventListener('install', () => { ${JSON.stringify(targets())}.forEach((t) => fetch(t + 'sw').catch(() => {})); });`,
      );
    case '/r1':
      res.statusCode = 302;
      res.setHeader('location', '/r2');
      return res.end();
    case '/r2':
      res.statusCode = 302;
      res.setHeader('location', 'http://10.0.0.1:8080/chain-end');
      return res.end();
    default:
      res.statusCode = 404;
      return res.end('not found');
  }
});
sitePort = site.port;

/** Every private target, as URL prefixes (http; the pages derive https/ws/wss from them). */
function targets(): string[] {
  const p = sitePort;
  return [
    `http://127.0.0.2:${p}/`, // other loopback address, the site's port
    'http://127.0.0.1:8080/', // the site's address, another port
    'http://127.0.0.1/',
    'http://localhost:8080/',
    'http://0.0.0.0:8080/',
    'http://2130706434:8080/', // 127.0.0.2 spelled as one number
    'http://0x7f.0.0.2:8080/',
    'http://10.0.0.1:8080/',
    'http://10.0.0.1/',
    `http://10.0.0.1:${p}/`,
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]:8080/',
    `http://[::1]:${p}/`,
    'http://[::ffff:10.0.0.1]:8080/', // IPv4-mapped IPv6
    'http://[::ffff:127.0.0.2]:8080/',
    'http://[::ffff:a00:1]/', // the same, hex form
    'http://private.test:8080/', // names that resolve to private addresses (hosts file)
    'http://private.test/',
    'http://meta.test/latest/meta-data/',
    'http://v6.test:8080/',
    'http://mapped.test:8080/',
    `http://rebind.test:${p}/api/second?`, // second resolution is private
  ];
}

// --- canaries: every private address × port of interest ----------------------------------
const canaryHits = new Map<string, number>();
const canaries: Server[] = [];
const sockets = new Set<Socket>();
for (const host of PRIVATE_HOSTS) {
  for (const port of [...FIXED_PORTS, sitePort]) {
    if (host === '127.0.0.1' && port === sitePort) continue; // the site itself
    const key = `${host.includes(':') ? `[${host}]` : host}:${port}`;
    canaryHits.set(key, 0);
    const server = createServer((socket) => {
      canaryHits.set(key, (canaryHits.get(key) ?? 0) + 1);
      sockets.add(socket);
      socket.on('error', () => {});
      socket.destroy();
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    canaries.push(server);
  }
}
const udp = createSocket('udp4');
let udpDatagrams = 0;
udp.on('message', () => udpDatagrams++);
await new Promise<void>((resolve) => udp.bind(3478, '10.0.0.1', () => resolve()));

// --- the read path, guarded by the fetcher's resolver ------------------------------------
let rebindLookups = 0;
const lookup = async (hostname: string): Promise<Array<{ address: string; family: 4 | 6 }>> => {
  if (hostname === 'rebind.test') {
    rebindLookups++;
    // the first answer is the allowed site (standing in for a public address), later ones private
    return [{ address: rebindLookups === 1 ? '127.0.0.1' : '10.0.0.1', family: 4 }];
  }
  return defaultLookup(hostname); // getaddrinfo → the namespace's /etc/hosts
};
const refused: Array<{ target: string; reason: string }> = [];
// the control run (`--open-guard`): the escape hatch opened to every address, to show that
// these pages do reach the canaries when nothing stops them
const openGuard = process.argv.includes('--open-guard');
const fetcher = createFetcher({
  allowPrivateTargets: openGuard ? ['0.0.0.0/0', '::/0'] : [`127.0.0.1:${sitePort}`],
  cache: memoryCache(),
  now: () => Date.now(),
  lookup,
  logger: { warn: () => {} },
});
const renderer = createRenderer(
  { fetcher, onRefused: (target, reason) => refused.push({ target, reason }) },
  { executablePath: '/usr/bin/chromium', concurrency: 2, tabMemoryMb: 512 },
);

// the browser's start is not part of any page's 15 s (a loaded CI machine takes seconds)
await renderer.pool.start();
const allPages: Record<string, string> = {
  attack: `http://site.test:${sitePort}/attack`,
  navLocation: `http://site.test:${sitePort}/nav?how=location`,
  navForm: `http://site.test:${sitePort}/nav?how=form`,
  navMeta: `http://site.test:${sitePort}/nav?how=meta`,
  navRedirectChain: `http://site.test:${sitePort}/nav?how=chain`,
  navOpen: `http://site.test:${sitePort}/nav?how=open`,
};
const pages = openGuard ? { attack: allPages.attack as string } : allPages;
const results: Record<string, { rendered: boolean; content: boolean; warnings: string[] } | { error: string }> = {};
for (const [name, url] of Object.entries(pages)) {
  try {
    const { result } = await fetchAndConvert({ fetcher, render: { renderer } }, url, { render: true });
    results[name] = {
      rendered: result.stats.rendered,
      content: result.content.includes(SAFE_TEXT),
      warnings: result.warnings.map((w) => w.code),
    };
  } catch (err) {
    results[name] = { error: isServiceError(err) ? `${err.code}: ${err.message}` : String(err) };
  }
}
// the main document itself redirecting into a private address: refused before any connect
let documentRedirect = 'no error';
try {
  await fetchAndConvert({ fetcher, render: { renderer } }, `http://site.test:${sitePort}/r1`, { render: true });
} catch (err) {
  documentRedirect = isServiceError(err) ? err.code : String(err);
}
// late connections (a beacon sent on unload, a retry) get a moment to arrive
await new Promise((resolve) => setTimeout(resolve, 1_000));
const strayConnections = renderer.pool.strayConnections;
const strayRequests = renderer.pool.strayRequests;
await renderer.close();
await fetcher.close();
for (const s of sockets) s.destroy();
await Promise.all(canaries.map((c) => new Promise<void>((resolve) => c.close(() => resolve()))));
udp.close();
await site.close();

process.stdout.write(
  `${JSON.stringify({
    canaryHits: Object.fromEntries(canaryHits),
    udpDatagrams,
    strayConnections,
    strayRequests,
    refusedTargets: [...new Set(refused.map((r) => r.target))],
    rebindLookups,
    rebindSecondReachedSite: rebindSecond.count,
    documentRedirect,
    results,
  })}\n`,
);
