import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../src/errors.js';
import type { FetchedResource, Fetcher, ResourceFetcher } from '../../../src/fetch/types.js';
import { compileFilter, compileGlob, passesFilter, rankByRelevance, tokenize } from '../../../src/ops/map-rank.js';
import { gunzipCapped, parseSitemap, xmlText } from '../../../src/ops/map-sitemap.js';
import { mapSite, siteOf } from '../../../src/ops/map.js';

describe('sitemap parsing', () => {
  it('urlset with lastmod, CDATA, entities and image extensions', () => {
    const xml = `<?xml version="1.0"?><urlset xmlns="x" xmlns:image="y">
      <url><image:image><image:loc>https://e.com/i.png</image:loc></image:image><loc>https://e.com/a?x=1&amp;y=2</loc><lastmod> 2026-01-02 </lastmod></url>
      <url><loc><![CDATA[https://e.com/b]]></loc></url><url><loc>  </loc></url></urlset>`;
    expect(parseSitemap(xml)).toEqual({
      kind: 'urlset',
      entries: [{ loc: 'https://e.com/a?x=1&y=2', lastmod: '2026-01-02' }, { loc: 'https://e.com/b' }],
    });
  });

  it('sitemap index, namespaced tags, and a truncated file keeps the complete entries', () => {
    const xml =
      '<sm:sitemapindex xmlns:sm="x"><sm:sitemap><sm:loc>https://e.com/1.xml.gz</sm:loc></sm:sitemap><sm:sitemap><sm:loc>https://e.com/2';
    expect(parseSitemap(xml)).toEqual({ kind: 'index', entries: [{ loc: 'https://e.com/1.xml.gz' }] });
  });

  it('plain-text sitemaps list absolute URLs one per line', () => {
    expect(parseSitemap('https://e.com/a\n\nnot a url\r\nhttp://e.com/b \n/relative\n').entries).toEqual([
      { loc: 'https://e.com/a' },
      { loc: 'http://e.com/b' },
    ]);
  });

  it('xmlText decodes numeric references and leaves unknown ones', () => {
    expect(xmlText('a&#38;b&#x26;c&nbsp;&#0;')).toBe('a&b&c&nbsp;&#0;');
  });

  it('gunzipCapped cuts at the cap and survives corrupt input', async () => {
    const big = gzipSync(Buffer.alloc(5_000_000, 'a'));
    const cut = await gunzipCapped(big, 1_000_000);
    // Buffer.equals, not a deep toEqual: vitest compares a 1 MB buffer byte by byte as an object (seconds)
    expect(cut.truncated).toBe(true);
    expect(cut.data.equals(Buffer.alloc(1_000_000, 'a'))).toBe(true);
    const whole = await gunzipCapped(gzipSync('hello'), 100);
    expect(whole).toEqual({ data: Buffer.from('hello'), truncated: false });
    const corrupt = await gunzipCapped(Buffer.from([0x1f, 0x8b, 1, 2, 3]), 100);
    expect(corrupt.data.length).toBe(0);
  });
});

describe('globs, filters and BM25', () => {
  it('globs: * within a segment, ** across, ? one character; paths vs whole URLs', () => {
    expect(compileGlob('/blog/*', 'include[0]').matches('/blog/a')).toBe(true);
    expect(compileGlob('/blog/*', 'include[0]').matches('/blog/a/b')).toBe(false);
    expect(compileGlob('/blog/**', 'include[0]').matches('/blog/a/b')).toBe(true);
    expect(compileGlob('/p/?', 'include[0]').matches('/p/12')).toBe(false);
    expect(compileGlob('/a.b(c)', 'include[0]').matches('/a.b(c)')).toBe(true);
    expect(compileGlob('/a.b', 'include[0]').matches('/axb')).toBe(false);
    expect(() => compileGlob('blog/*', 'include[3]')).toThrow(/include\[3\]/);
    expect(() => compileGlob('blog/*', 'include[3]')).toThrow(ServiceError);
    const f = compileFilter(['/docs/**', 'https://api.e.com/**'], ['/docs/old/**']);
    expect(passesFilter(f, 'https://e.com/docs/a?x=1')).toBe(true);
    expect(passesFilter(f, 'https://e.com/docs/old/a')).toBe(false);
    expect(passesFilter(f, 'https://API.e.com/v1')).toBe(true);
    expect(passesFilter(f, 'https://e.com/blog')).toBe(false);
  });

  it('tokenize splits URLs and keeps non-Latin words', () => {
    expect(tokenize('https://e.com/Über-uns/Preise?q=日本')).toEqual(['https', 'e', 'com', 'über', 'uns', 'preise', 'q', '日本']);
  });

  it('BM25: more matched terms first, rarer terms weigh more, zero scores dropped, ties in input order', () => {
    const items = [
      { url: 'https://e.com/pricing' },
      { url: 'https://e.com/docs/api' },
      { url: 'https://e.com/docs/guide', title: 'API guide' },
      { url: 'https://e.com/docs/intro' },
      { url: 'https://e.com/blog/api' },
    ];
    expect(rankByRelevance(items, 'api guide').map((i) => i.url)).toEqual([
      'https://e.com/docs/guide',
      'https://e.com/docs/api',
      'https://e.com/blog/api',
    ]);
    expect(rankByRelevance(items, '   ')).toEqual(items);
    expect(rankByRelevance(items, 'nothing')).toEqual([]);
  });

  it('siteOf: registrable domain through the public-suffix list', () => {
    expect(siteOf('a.b.example.co.uk')).toBe('example.co.uk');
    expect(siteOf('www.mapsite.test')).toBe('mapsite.test');
    expect(siteOf('127.0.0.1')).toBe('127.0.0.1');
  });
});

describe('mapSite time budget', () => {
  it('a sitemap that never answers ends discovery at the budget, not the call', async () => {
    const hang = (signal?: AbortSignal): Promise<never> =>
      new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true }));
    const fetcher: Fetcher & ResourceFetcher = {
      fetch: async (url) => ({
        url,
        status: 200,
        headers: {},
        contentType: 'text/html',
        body: Buffer.from('<a href="/one">One</a>'),
      }),
      fetchResource: async (url, opts): Promise<FetchedResource> => {
        if (url.endsWith('/robots.txt'))
          return { url, status: 404, headers: {}, contentType: null, body: Buffer.alloc(0), truncated: false };
        return hang(opts?.signal);
      },
    };
    const cache = { get: async () => null, set: async () => {}, delete: async () => {} };
    const result = await mapSite(
      { fetcher, cache, engineVersion: 't', now: () => 0, limits: { budgetMs: 50 } },
      { url: 'https://e.com/', limit: 10, include: [], exclude: [], search: null, sameDomain: true },
    );
    expect(result.links).toEqual([{ url: 'https://e.com/one', source: 'page', title: 'One' }]);
    expect(result.stats.boundsHit).toEqual(['time']);
  });

  it('keeps at most maxCollected URLs and never fetches sitemap files of another site', async () => {
    const fetched: string[] = [];
    const res = (url: string, status: number, body: string): FetchedResource => ({
      url,
      status,
      headers: {},
      contentType: null,
      body: Buffer.from(body),
      truncated: false,
    });
    const fetcher: Fetcher & ResourceFetcher = {
      fetch: async (url) => ({ url, status: 200, headers: {}, contentType: 'text/plain', body: Buffer.from('not html') }),
      fetchResource: async (url) => {
        fetched.push(url);
        if (url === 'https://www.e.com/robots.txt')
          return res(url, 200, 'Sitemap: https://cdn.other.com/s.xml\nSitemap: https://docs.e.com/s.xml\n');
        if (url === 'https://docs.e.com/s.xml')
          return res(url, 200, ['a', 'b', 'c', 'd', 'e'].map((x) => `https://docs.e.com/${x}`).join('\n'));
        return res(url, 404, '');
      },
    };
    const cache = { get: async () => null, set: async () => {}, delete: async () => {} };
    const result = await mapSite(
      { fetcher, cache, engineVersion: 't', now: () => 0, limits: { maxCollected: 3 } },
      { url: 'https://www.e.com/', limit: 10, include: [], exclude: [], search: null, sameDomain: true },
    );
    expect(result.links.map((l) => l.url)).toEqual(['https://docs.e.com/a', 'https://docs.e.com/b', 'https://docs.e.com/c']);
    expect(result.stats).toMatchObject({ urlsFound: 3, boundsHit: ['urls'], sitemapsRead: 2 });
    expect(fetched).toEqual(['https://www.e.com/robots.txt', 'https://docs.e.com/s.xml', 'https://www.e.com/sitemap.xml']);
  });
});
