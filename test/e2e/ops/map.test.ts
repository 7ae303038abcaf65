import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAP_LIMITS } from '../../../src/ops/map.js';
import type { Site } from '../../helpers/site.js';
import { startSite } from '../../helpers/site.js';
import type { TestService } from '../../helpers/service.js';
import { startService } from '../../helpers/service.js';
import type { BadInputCase } from './helpers.js';
import { badUrlCases, commonBadBodies, usageOf } from './helpers.js';

const urlset = (locs: string[]): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n${locs
    .map((l) => `<url><loc>${l}</loc><lastmod>2026-11-01</lastmod><image:image><image:loc>${l}.png</image:loc></image:image></url>`)
    .join('\n')}\n</urlset>\n`;
const sitemapIndex = (locs: string[]): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs.map((l) => `<sitemap><loc>${l}</loc></sitemap>`).join('\n')}\n</sitemapindex>\n`;

/**
 * www.mapsite.test: robots.txt names a sitemap index of three gzip sitemaps and a nested
 * index; the nested index and /sitemap.xml point back at the first (cycles). 10,000
 * distinct same-site URLs, with overlaps, fragments, case variants and off-site URLs.
 */
function mapSiteFiles(port: number): Map<string, { type: string; body: Buffer | string }> {
  const o = `http://www.mapsite.test:${port}`;
  const p = (i: number): string => `${o}/p/${i}`;
  const range = (a: number, b: number): string[] => Array.from({ length: b - a }, (_, i) => p(a + i));
  const gz = (xml: string) => ({ type: 'application/x-gzip', body: gzipSync(xml) });
  return new Map<string, { type: string; body: Buffer | string }>([
    ['/robots.txt', { type: 'text/plain', body: `User-agent: *\nAllow: /\n\nSitemap: ${o}/sitemap_index.xml\n` }],
    [
      '/sitemap_index.xml',
      { type: 'application/xml', body: sitemapIndex([1, 2, 3].map((i) => `${o}/sm/part-${i}.xml.gz`).concat(`${o}/sm/nested-index.xml`)) },
    ],
    ['/sm/nested-index.xml', { type: 'application/xml', body: sitemapIndex([`${o}/sitemap_index.xml`, `${o}/sm/part-1.xml.gz`]) }],
    ['/sitemap.xml', { type: 'application/xml', body: sitemapIndex([`${o}/sitemap_index.xml`]) }],
    ['/sm/part-1.xml.gz', gz(urlset([...range(0, 4000), `${o}/p/1#top`, `HTTP://WWW.MAPSITE.TEST:${port}/p/2`]))],
    ['/sm/part-2.xml.gz', gz(urlset(range(3500, 7500)))],
    [
      '/sm/part-3.xml.gz',
      gz(
        urlset([
          ...range(7500, 9998),
          `http://blog.mapsite.test:${port}/post/1`,
          `http://blog.mapsite.test:${port}/post/2`,
          'http://other.test/x',
          'https://elsewhere.example/y',
        ]),
      ),
    ],
    [
      '/',
      {
        type: 'text/html; charset=utf-8',
        body: `<html><body><nav><a href="/p/0">Zero</a> <a href="/about">About the site</a> <a href="/contact#form">Contact us</a>
<a href="https://elsewhere.example/z">Elsewhere</a> <a href="#top">Top</a> <a href="mailto:x@mapsite.test">Mail</a></nav><p>Home page</p></body></html>`,
      },
    ],
  ]);
}

describe('POST /v1/map', () => {
  let site: Site;
  let svc: TestService;
  let files: Map<string, { type: string; body: Buffer | string }>;
  const served: string[] = [];
  let origin: string;
  let waveInFlight = 0;
  let wavePeak = 0;
  const waveWaiting: Array<() => void> = [];

  beforeAll(async () => {
    let bomb: Buffer | null = null;
    const bombOf = (port: number): Buffer =>
      (bomb ??= gzipSync(
        Buffer.concat([
          Buffer.from(`<urlset><url><loc>http://bomb.test:${port}/first</loc></url>`),
          Buffer.alloc(60 * 1024 * 1024, ' '),
          Buffer.from(`<url><loc>http://bomb.test:${port}/after-the-cap</loc></url></urlset>`),
        ]),
      ));
    site = await startSite((req, res) => {
      const host = (req.headers.host ?? '').split(':')[0] ?? '';
      const path = req.url ?? '/';
      served.push(`${host}${path}`);
      const port = site.port;
      if (host === 'www.mapsite.test') {
        const file = files.get(path);
        if (!file) return void res.writeHead(404).end();
        return void res.writeHead(200, { 'content-type': file.type }).end(file.body);
      }
      if (host === 'many.test') {
        // 60 sitemaps of one URL each: only 50 files are read
        if (path === '/robots.txt') return void res.writeHead(200).end(`Sitemap: http://many.test:${port}/index.xml\n`);
        if (path === '/index.xml')
          return void res.writeHead(200).end(sitemapIndex(Array.from({ length: 60 }, (_, i) => `http://many.test:${port}/s/${i}.xml`)));
        const m = /^\/s\/(\d+)\.xml$/.exec(path);
        if (m) return void res.writeHead(200).end(urlset([`http://many.test:${port}/page/${m[1]}`]));
        return void res.writeHead(404).end();
      }
      if (host === 'bomb.test') {
        // 60 MB of XML in 60 KB of gzip: decoding stops at the 50 MB cap
        if (path === '/sitemap.xml') return void res.writeHead(200, { 'content-type': 'application/gzip' }).end(bombOf(port));
        return void res.writeHead(404).end();
      }
      if (host === 'wave.test') {
        // 8 sitemaps; each answer waits until 4 are in flight (or 300 ms), to see the parallelism
        if (path === '/robots.txt') return void res.writeHead(200).end(`Sitemap: http://wave.test:${port}/index.xml\n`);
        if (path === '/index.xml')
          return void res.writeHead(200).end(sitemapIndex(Array.from({ length: 8 }, (_, i) => `http://wave.test:${port}/s/${i}.xml`)));
        const m = /^\/s\/(\d+)\.xml$/.exec(path);
        if (!m) return void res.writeHead(404).end();
        waveInFlight++;
        wavePeak = Math.max(wavePeak, waveInFlight);
        const answer = (): void => {
          waveInFlight--;
          res.writeHead(200).end(urlset([`http://wave.test:${port}/page/${m[1]}`]));
        };
        waveWaiting.push(answer);
        if (waveWaiting.length >= 4) for (const go of waveWaiting.splice(0)) go();
        else setTimeout(() => waveWaiting.includes(answer) && waveWaiting.splice(waveWaiting.indexOf(answer), 1) && answer(), 300);
        return;
      }
      if (host === 'hub.test') {
        // robots.txt lists sitemaps on two other hosts: one allows PithBot, one does not
        if (path === '/robots.txt')
          return void res
            .writeHead(200)
            .end(`Sitemap: http://cdn-open.test:${port}/s.xml\nSitemap: http://cdn-closed.test:${port}/s.xml\n`);
        return void res.writeHead(404).end();
      }
      if (host === 'cdn-open.test' || host === 'cdn-closed.test') {
        if (path === '/robots.txt') {
          const rules = host === 'cdn-closed.test' ? 'User-agent: *\nDisallow: /\n' : 'User-agent: *\nAllow: /\n';
          return void res.writeHead(200, { 'content-type': 'text/plain' }).end(rules);
        }
        if (path === '/s.xml') return void res.writeHead(200).end(urlset([`http://${host}:${port}/listed`]));
        return void res.writeHead(404).end();
      }
      if (host === 'nosite.test') return void res.writeHead(404).end();
      if (host === 'onlysitemap.test') {
        if (path === '/sitemap.xml')
          return void res.writeHead(200).end(`http://onlysitemap.test:${port}/a\nhttp://onlysitemap.test:${port}/b\n`);
        return void res.writeHead(404).end();
      }
      res.writeHead(404).end();
    });
    files = mapSiteFiles(site.port);
    origin = `http://www.mapsite.test:${site.port}`;
    svc = await startService();
  });
  afterAll(async () => {
    await svc.close();
    await site.close();
  });

  it('reads robots Sitemap lines, indexes, gz sitemaps and page links; dedupes; skips cycles; stays on the site', async () => {
    const { apiKey, accountId } = await svc.newAccount('starter');
    served.length = 0;
    const res = await svc.call('/v1/map', { key: apiKey, body: { url: `${origin}/`, limit: 5000 } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.url).toBe(`${origin}/`);
    expect(res.json.stats).toEqual({
      sitemaps_read: 6,
      sitemap_bytes: expect.any(Number),
      page_links: 5,
      urls_found: 10_003,
      urls_matched: 10_003,
      returned: 5000,
      bounds_hit: [],
    });
    // each sitemap file fetched exactly once despite the cycles
    const sitemapFetches = served.filter((s) => s.includes('sitemap') || s.includes('/sm/'));
    expect(sitemapFetches.sort()).toEqual(
      ['/sitemap_index.xml', '/sitemap.xml', '/sm/nested-index.xml', '/sm/part-1.xml.gz', '/sm/part-2.xml.gz', '/sm/part-3.xml.gz']
        .map((p) => `www.mapsite.test${p}`)
        .sort(),
    );
    const links = res.json.links as Array<{ url: string; source: string; lastmod?: string; title?: string }>;
    expect(new Set(links.map((l) => l.url)).size).toBe(5000);
    // page links first (the one also in a sitemap is reported as a sitemap URL with its lastmod)
    expect(links.slice(0, 3)).toEqual([
      { url: `${origin}/p/0`, source: 'sitemap', lastmod: '2026-11-01', title: 'Zero' },
      { url: `${origin}/about`, source: 'page', title: 'About the site' },
      { url: `${origin}/contact`, source: 'page', title: 'Contact us' },
    ]);
    // "#top" is the page itself
    expect(links[3]).toEqual({ url: `${origin}/`, source: 'page', title: 'Top' });
    expect(links[4]).toEqual({ url: `${origin}/p/1`, source: 'sitemap', lastmod: '2026-11-01' });
    expect(links.some((l) => l.url.includes('elsewhere') || l.url.includes('other.test') || l.url.endsWith('.png'))).toBe(false);
    expect(await usageOf(svc, accountId)).toEqual({ planUsed: 1, boughtBalance: 0 });
    expect(res.headers['x-service-cache']).toBe('MISS');
  });

  it('limit defaults to 1000; subdomains of the registrable domain count as the site', async () => {
    const { apiKey } = await svc.newAccount('starter');
    const res = await svc.call('/v1/map', { key: apiKey, body: { url: `${origin}/` } });
    expect(res.json.links).toHaveLength(1000);
    expect(res.json.stats.returned).toBe(1000);
    const blog = await svc.call('/v1/map', { key: apiKey, body: { url: `${origin}/`, include: ['/post/*'] } });
    expect(blog.json.links.map((l: any) => l.url)).toEqual([
      `http://blog.mapsite.test:${site.port}/post/1`,
      `http://blog.mapsite.test:${site.port}/post/2`,
    ]);
  });

  it('include/exclude globs and same_domain: false', async () => {
    const { apiKey } = await svc.newAccount('starter');
    const inc = await svc.call('/v1/map', { key: apiKey, body: { url: `${origin}/`, include: ['/p/1?'] } });
    expect(inc.json.links.map((l: any) => l.url)).toEqual(Array.from({ length: 10 }, (_, i) => `${origin}/p/1${i}`));
    const exc = await svc.call('/v1/map', { key: apiKey, body: { url: `${origin}/`, exclude: ['/p/**'] } });
    expect(exc.json.links.map((l: any) => new URL(l.url).pathname).sort()).toEqual(['/', '/about', '/contact', '/post/1', '/post/2']);
    const full = await svc.call('/v1/map', {
      key: apiKey,
      body: { url: `${origin}/`, include: [`http://blog.mapsite.test:${site.port}/**`] },
    });
    expect(full.json.links).toHaveLength(2);
    const all = await svc.call('/v1/map', { key: apiKey, body: { url: `${origin}/`, same_domain: false, exclude: ['/p/**'] } });
    expect(all.json.stats.urls_found).toBe(10_006);
    expect(all.json.links.map((l: any) => l.url)).toEqual(
      expect.arrayContaining(['http://other.test/x', 'https://elsewhere.example/y', 'https://elsewhere.example/z']),
    );
  });

  it('search ranks by BM25 over URL and title and drops non-matching URLs', async () => {
    const { apiKey } = await svc.newAccount('starter');
    const res = await svc.call('/v1/map', { key: apiKey, body: { url: `${origin}/`, search: 'contact us' } });
    expect(res.json.links.map((l: any) => l.url)).toEqual([`${origin}/contact`]);
    const post = await svc.call('/v1/map', { key: apiKey, body: { url: `${origin}/`, search: 'blog post 2' } });
    // post/2 matches all three words, post/1 two (blog, post), p/2 one
    expect(post.json.links.slice(0, 3).map((l: any) => new URL(l.url).pathname)).toEqual(['/post/2', '/post/1', '/p/2']);
    expect(post.json.stats.urls_matched).toBe(post.json.links.length);
  });

  it('fetches sitemaps four at a time and still lists their URLs in sitemap order', async () => {
    const { apiKey } = await svc.newAccount('starter');
    const res = await svc.call('/v1/map', { key: apiKey, body: { url: `http://wave.test:${site.port}/` } });
    expect(res.status, res.text).toBe(200);
    expect(wavePeak).toBe(4);
    expect(res.json.stats.sitemaps_read).toBe(10); // index, /sitemap.xml (404) and the 8
    expect(res.json.links.map((l: any) => l.url)).toEqual(Array.from({ length: 8 }, (_, i) => `http://wave.test:${site.port}/page/${i}`));
  });

  it('is bounded: at most 50 sitemap files', async () => {
    const { apiKey } = await svc.newAccount('starter');
    const res = await svc.call('/v1/map', { key: apiKey, body: { url: `http://many.test:${site.port}/` } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.stats.sitemaps_read).toBe(50);
    expect(res.json.stats.bounds_hit).toEqual(['sitemap_files']);
    // the index, /sitemap.xml (404) and 48 of the 60 sitemaps
    expect(res.json.links).toHaveLength(48);
  });

  it('is bounded: a gzip bomb is decoded only up to the 10 MB per-file cap', async () => {
    const { apiKey } = await svc.newAccount('starter');
    const res = await svc.call('/v1/map', { key: apiKey, body: { url: `http://bomb.test:${site.port}/` } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.stats.sitemap_bytes).toBe(MAP_LIMITS.maxSitemapFileBytes);
    expect(res.json.stats.bounds_hit).toEqual(['sitemap_bytes']);
    expect(res.json.links.map((l: any) => l.url)).toEqual([`http://bomb.test:${site.port}/first`]);
  });

  it("a sitemap on another host is read only when that host's robots.txt allows PithBot", async () => {
    const { apiKey } = await svc.newAccount('starter');
    served.length = 0;
    const res = await svc.call('/v1/map', { key: apiKey, body: { url: `http://hub.test:${site.port}/`, same_domain: false } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.links.map((l: { url: string }) => l.url)).toEqual([`http://cdn-open.test:${site.port}/listed`]);
    expect(served).toContain('cdn-closed.test/robots.txt');
    expect(served).not.toContain('cdn-closed.test/s.xml');
  });

  it('a page that fails is fine when sitemaps answer; with nothing found the page error is returned and refunded', async () => {
    const { apiKey, accountId } = await svc.newAccount('starter');
    const only = await svc.call('/v1/map', { key: apiKey, body: { url: `http://onlysitemap.test:${site.port}/` } });
    expect(only.status).toBe(200);
    expect(only.json.links).toEqual([
      { url: `http://onlysitemap.test:${site.port}/a`, source: 'sitemap' },
      { url: `http://onlysitemap.test:${site.port}/b`, source: 'sitemap' },
    ]);
    const none = await svc.call('/v1/map', { key: apiKey, body: { url: `http://nosite.test:${site.port}/` } });
    expect(none.status).toBe(404);
    expect(none.json.code).toBe('URL_NOT_FOUND');
    expect(await usageOf(svc, accountId)).toEqual({ planUsed: 1, boughtBalance: 0 });
  });

  it('is cached 1 h per URL and options; a HIT costs 1 credit and fetches nothing', async () => {
    const { apiKey, accountId } = await svc.newAccount('starter');
    const body = { url: `${origin}/`, limit: 10, search: 'about' };
    const a = await svc.call('/v1/map', { key: apiKey, body });
    served.length = 0;
    const b = await svc.call('/v1/map', { key: apiKey, body });
    expect([a.headers['x-service-cache'], b.headers['x-service-cache']]).toEqual(['MISS', 'HIT']);
    expect(b.json).toEqual(a.json);
    expect(served).toEqual([]);
    const c = await svc.call('/v1/map', { key: apiKey, body: { ...body, limit: 11 } });
    expect(c.headers['x-service-cache']).toBe('MISS');
    expect(await usageOf(svc, accountId)).toEqual({ planUsed: 3, boughtBalance: 0 });
  });

  describe('bad input → 4xx, nothing charged', () => {
    const ok = 'https://example.com/';
    const m =
      (extra: Record<string, unknown>): BadInputCase['opts'] =>
      (k) => ({ key: k, body: { url: ok, ...extra } });
    const cases: BadInputCase[] = [
      ...commonBadBodies(),
      ...badUrlCases(),
      { name: 'fresh: true', opts: m({ fresh: true }), status: 400, code: 'BAD_REQUEST' },
      { name: 'fresh: false', opts: m({ fresh: false }), status: 400, code: 'BAD_REQUEST' },
      { name: 'limit 0', opts: m({ limit: 0 }), status: 400, code: 'BAD_REQUEST' },
      { name: 'limit 5001', opts: m({ limit: 5001 }), status: 400, code: 'BAD_REQUEST' },
      { name: 'limit 1.5', opts: m({ limit: 1.5 }), status: 400, code: 'BAD_REQUEST' },
      { name: 'limit a string', opts: m({ limit: '10' }), status: 400, code: 'BAD_REQUEST' },
      { name: 'include a string', opts: m({ include: '/blog/*' }), status: 400, code: 'BAD_REQUEST' },
      { name: 'include without a leading slash', opts: m({ include: ['blog/*'] }), status: 400, code: 'BAD_REQUEST' },
      { name: 'exclude with an empty pattern', opts: m({ exclude: [''] }), status: 400, code: 'BAD_REQUEST' },
      { name: 'exclude with a number', opts: m({ exclude: [1] }), status: 400, code: 'BAD_REQUEST' },
      {
        name: '51 include patterns',
        opts: m({ include: Array.from({ length: 51 }, (_, i) => `/${i}`) }),
        status: 400,
        code: 'BAD_REQUEST',
      },
      { name: 'search empty', opts: m({ search: '' }), status: 400, code: 'BAD_REQUEST' },
      { name: 'search a number', opts: m({ search: 3 }), status: 400, code: 'BAD_REQUEST' },
      { name: 'same_domain a string', opts: m({ same_domain: 'no' }), status: 400, code: 'BAD_REQUEST' },
    ];
    it.each(cases)('$name → $status $code', async ({ opts, status, code }) => {
      const { apiKey, accountId } = await svc.newAccount('starter');
      const res = await svc.call('/v1/map', opts(apiKey));
      expect(res.status).toBe(status);
      expect(res.json).toMatchObject({ status: 'error', code });
      expect(await usageOf(svc, accountId)).toEqual({ planUsed: 0, boughtBalance: 0 });
    });
  });
});
