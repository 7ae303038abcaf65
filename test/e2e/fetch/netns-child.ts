/**
 * Runs inside a fresh network namespace (loopback only) with a bind-mounted /etc/hosts,
 * started by netns.test.ts. Uses the real resolver (getaddrinfo → /etc/hosts). Prints
 * one JSON object: case name → status or error code.
 */
import { ServiceError } from '../../../src/errors.js';
import { createFetcher } from '../../../src/fetch/fetcher.js';
import { startSite } from '../../helpers/site.js';
import { memoryCache } from './helpers.js';

const site = await startSite((req, res) => {
  if (req.url === '/robots.txt') {
    res.statusCode = 404;
    return res.end();
  }
  if (req.url === '/to-private') {
    res.statusCode = 302;
    res.setHeader('location', 'http://private.test/');
    return res.end();
  }
  res.end('inside');
});
const other = await startSite((_req, res) => res.end('other port'));
const fetcher = createFetcher({
  allowPrivateTargets: [`127.0.0.1:${site.port}`],
  cache: memoryCache(),
  now: () => 0,
  logger: { warn: () => {} },
  limits: { totalTimeoutMs: 5_000 },
});

const cases: Record<string, string> = {
  private: 'http://private.test/',
  metadata: 'http://metadata.test/latest/meta-data/',
  cgnat: 'http://cgnat.test/',
  ula: 'http://ula.test/',
  mapped: 'http://mapped.test/',
  loopbackAllowedPort: `http://loop.test:${site.port}/`,
  loopbackOtherPort: `http://loop.test:${other.port}/`,
  redirectToPrivate: `http://loop.test:${site.port}/to-private`,
  nxdomain: 'http://nx.test/',
};
const results: Record<string, string | number> = {};
for (const [name, url] of Object.entries(cases)) {
  try {
    results[name] = (await fetcher.fetch(url)).status;
  } catch (err) {
    results[name] = err instanceof ServiceError ? err.code : `unexpected: ${String(err)}`;
  }
}
await fetcher.close();
await site.close();
await other.close();
process.stdout.write(`${JSON.stringify(results)}\n`);
