/**
 * Regexes of the fetcher and the operations on hostile text (sitemaps, firewall pages,
 * host names), at the size cap that applies, within a generous CPU bound; plus agreement
 * with the regexes they replaced on small generated inputs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHttpUrl } from '../../../src/fetch/url.js';
import { detectWaf, WAF_BODY_SNIFF_BYTES } from '../../../src/fetch/waf.js';
import { MAP_LIMITS } from '../../../src/ops/map.js';
import { parseSitemap, xmlText } from '../../../src/ops/map-sitemap.js';
import { cpuMs, fill } from './cpu.js';

describe('sitemap parsing at the map byte budget (50 MB decoded)', () => {
  const cap = MAP_LIMITS.maxSitemapBytes;

  it.each([
    ['unclosed <url> blocks (quadratic before)', fill('<url>', cap, '<?xml version="1.0"?><urlset>')],
    ['unclosed <url attributes', fill('<url ', cap, '<?xml version="1.0"?><urlset>')],
    ['one block of unclosed <loc>', fill('<loc>', cap, '<?xml version="1.0"?><urlset><url>', '</url>')],
    ['unclosed <sitemap> blocks in an index', fill('<sitemap>', cap, '<sitemapindex>')],
  ])('%s: ≤ 2 s CPU', (_name, body) => {
    let entries = -1;
    // Measured: 100-400 ms for 50 MB.
    const ms = cpuMs(() => {
      entries = parseSitemap(body).entries.length;
    });
    expect(entries).toBe(0);
    expect(ms).toBeLessThan(2000);
  });

  it('finds the entries the block regexes found', () => {
    const BLOCK = /<(?:[\w-]+:)?url\b[^>]*>([\s\S]*?)<\/(?:[\w-]+:)?url>/g;
    const LOC = /<((?:[\w-]+:)?)loc>([\s\S]*?)<\/(?:[\w-]+:)?loc>/g;
    const LASTMOD = /<(?:[\w-]+:)?lastmod>([\s\S]*?)<\/(?:[\w-]+:)?lastmod>/;
    const oldEntries = (text: string): Array<{ loc: string; lastmod?: string }> => {
      const out: Array<{ loc: string; lastmod?: string }> = [];
      for (const m of text.matchAll(BLOCK)) {
        const inner = m[1] ?? '';
        let loc: string | null = null;
        for (const l of inner.matchAll(LOC)) {
          if (['image:', 'video:', 'news:', 'xhtml:'].includes((l[1] ?? '').toLowerCase())) continue;
          loc = xmlText(l[2] ?? '');
          break;
        }
        if (!loc) continue;
        const lastmod = LASTMOD.exec(inner)?.[1];
        out.push(lastmod ? { loc, lastmod: xmlText(lastmod) } : { loc });
      }
      return out;
    };
    const token = fc.constantFrom('<url>', '</url>', '<url a="1">', '<url', '<urlset>', '<loc>', '</loc>', '<image:loc>', '</image:loc>');
    const more = fc.constantFrom('<lastmod>', '</lastmod>', 'https://e.test/a', ' ', '>', 'x', '<s:url>', '</s:url>');
    fc.assert(
      fc.property(fc.array(fc.oneof(token, more), { maxLength: 14 }), (tokens) => {
        const text = `<?xml version="1.0"?><urlset>${tokens.join('')}`;
        expect(parseSitemap(text).entries).toEqual(oldEntries(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads an ordinary sitemap as before', () => {
    const xml =
      '<?xml version="1.0"?><urlset xmlns:image="x"><url><loc>https://e.test/a</loc><lastmod>2024-01-02</lastmod></url>' +
      '<url><image:image><image:loc>https://e.test/i.png</image:loc></image:image><loc><![CDATA[https://e.test/b?x=1&amp;y=2]]></loc></url></urlset>';
    expect(parseSitemap(xml)).toEqual({
      kind: 'urlset',
      entries: [{ loc: 'https://e.test/a', lastmod: '2024-01-02' }, { loc: 'https://e.test/b?x=1&y=2' }],
    });
  });
});

describe('firewall signatures on a 64 KB error body (the sniffed cap)', () => {
  const denied = "You don't have permission to access ";

  it('Akamai text repeated without its reference number (quadratic before): ≤ 1 s CPU', () => {
    const body = fill(denied, WAF_BODY_SNIFF_BYTES, '<title>Access Denied</title>');
    let vendor: string | null = 'x';
    // Measured: < 5 ms.
    const ms = cpuMs(() => {
      vendor = detectWaf({ status: 403, headers: {}, body });
    });
    expect(vendor).toBeNull();
    expect(ms).toBeLessThan(1000);
  });

  it('still recognises an Akamai block page, and agrees with the old regex', () => {
    const page = `<html><head><title>Access Denied</title></head><body>${denied}"http://e.test/" on this server.<p>Reference #18.5c2c1002.1700000000.abcdef</body></html>`;
    expect(detectWaf({ status: 403, headers: {}, body: page })).toBe('akamai');
    const OLD = /You don't have permission to access[\s\S]*Reference\s*#\d+\.[0-9a-f.]+/i;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(denied, 'Reference #1.a', 'reference', ' #', '1', '.', 'z'), { maxLength: 8 }), (parts) => {
        const body = `<title>Access Denied</title>${parts.join('')}`;
        expect(detectWaf({ status: 403, headers: {}, body }) === 'akamai').toBe(OLD.test(body));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('host names ending in dots', () => {
  it('a host of 8,000 trailing dots (quadratic before): ≤ 1 s CPU, and the dots still go', () => {
    const raw = fill('.', 8000, 'http://a');
    let host = '';
    const ms = cpuMs(() => {
      host = parseHttpUrl(raw).hostname;
    });
    expect(host).toBe('a');
    expect(ms).toBeLessThan(1000);
    expect(parseHttpUrl('https://example.com../x').href).toBe('https://example.com/x');
  });
});
