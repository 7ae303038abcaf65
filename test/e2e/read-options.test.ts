/**
 * Issue 17: the read options of read, read-and-score and batch — every field, the
 * combinations that matter, the cache key, bad values (BAD_REQUEST naming the field, free)
 * and the raw answers of each format.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers/service.js';
import { startService } from '../helpers/service.js';
import type { Site } from '../helpers/site.js';
import { startSite } from '../helpers/site.js';
import { usageOf } from './ops/helpers.js';

const PAGE = `<!doctype html><html lang="en"><head><title>Tide tables</title></head><body>
<header><nav><a href="/">Home</a> <a href="/about">About</a> <a href="/contact">Contact</a></nav></header>
<div id="cookie-banner"><p>We use cookies to measure the audience of this site.</p></div>
<main><article>
<h1>Tide tables</h1>
<p>Tide tables list the times of high and low water for each day. <a href="/harbours/north">The north harbour</a> publishes its own, and <a href="/harbours/north">its office</a> prints them weekly.</p>
<p class="lead">Read them with the chart datum in mind: heights are measured from the lowest astronomical tide, so a height of zero is rare.</p>
<figure><img src="/img/tides.png" alt="A week of tides"><figcaption>A week of tides.</figcaption></figure>
<table><thead><tr><th>Day</th><th>High</th><th>Low</th></tr></thead><tbody><tr><td>Mon</td><td>06:12</td><td>12:30</td></tr><tr><td>Tue</td><td>06:55</td><td>13:14</td></tr></tbody></table>
<p>Storm surges can add a metre to the predicted height; <a href="https://met.example.org/surge">the met office</a> warns a day ahead. See <a href="javascript:alert(1)">this</a>.</p>
<section class="comments"><h2>Comments</h2><p>Great table, thanks! <a href="/users/ola">Ola</a></p></section>
</article></main>
<footer><p>© Coast Guide · <a href="/privacy">Privacy</a></p></footer>
</body></html>`;

interface Call {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: any;
}

describe('read options', () => {
  let site: Site;
  let svc: TestService;
  let apiKey: string;
  let accountId: string;
  let n = 0;
  /** A URL no other test read: every test starts from an empty cache. */
  const fresh = (): string => `${site.origin}/tides?n=${++n}`;
  const read = (body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Call> =>
    svc.call('/v1/read', { key: apiKey, body, headers });

  beforeAll(async () => {
    site = await startSite((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    });
    svc = await startService();
    ({ apiKey, accountId } = await svc.newAccount('starter'));
  });
  afterAll(async () => {
    await svc.close();
    await site.close();
  });

  it('target_selector: the matched elements in document order, LOW_CONTENT when nothing matches', async () => {
    const picked = await read({ url: fresh(), target_selector: ['table', '.lead'] });
    expect(picked.status).toBe(200);
    const md: string = picked.json.markdown;
    expect(md.indexOf('chart datum')).toBeLessThan(md.indexOf('| Day |'));
    expect(md).not.toContain('Tide tables list');
    expect(picked.json.warnings).toBeUndefined();
    const none = await read({ url: fresh(), target_selector: '#nowhere' });
    expect(none.json.markdown).toContain('Tide tables list the times');
    const low = none.json.warnings.find((w: { code: string }) => w.code === 'LOW_CONTENT');
    expect(low.message).toContain('"#nowhere" matched nothing');
    expect(low.message).toContain('main content was extracted instead');
  });

  it('target_selector + format html: sanitised HTML of the match, absolute URLs, no script link', async () => {
    const res = await read({ url: fresh(), target_selector: 'article', format: 'html' });
    expect(res.json.markdown).toBeUndefined();
    const html: string = res.json.html;
    expect(html).toContain(`<a href="${site.origin}/harbours/north">The north harbour</a>`);
    expect(html).toContain(`<img src="${site.origin}/img/tides.png" alt="A week of tides">`);
    expect(html).toContain('<th>Day</th>');
    expect(html).toContain('See this.');
    expect(html).not.toMatch(/javascript|<script|onclick|style=/i);
    expect(html).toContain('Great table'); // the selector asked for the whole article
  });

  it('remove_selector + main_content false: the whole body without the removed parts', async () => {
    const whole = await read({ url: fresh(), main_content: false });
    expect(whole.json.markdown).toContain('We use cookies');
    expect(whole.json.markdown).toContain('Privacy');
    const res = await read({ url: fresh(), main_content: false, remove_selector: ['#cookie-banner', '.comments'] });
    const md: string = res.json.markdown;
    expect(md).toContain('[About]');
    expect(md).toContain('Privacy');
    expect(md).toContain('Tide tables list the times');
    expect(md).not.toContain('We use cookies');
    expect(md).not.toContain('Great table');
  });

  it('link_mode references: one number per URL, the list at the end; text: link text only', async () => {
    const res = await read({ url: fresh(), link_mode: 'references' });
    const md: string = res.json.markdown;
    expect(md).toContain('[The north harbour][1]');
    expect(md).toContain('[its office][1]');
    expect(md).toContain('[the met office][2]');
    expect(md).toMatch(/\n\[1\]: http:\/\/[^\n]+\/harbours\/north\n\[2\]: https:\/\/met\.example\.org\/surge\n?/);
    const text = await read({ url: fresh(), link_mode: 'text' });
    expect(text.json.markdown).toContain('Tide tables list the times of high and low water for each day. The north harbour publishes');
    expect(text.json.markdown).not.toContain('[The north harbour]');
    expect(text.json.markdown).toContain('![A week of tides]'); // images are image_mode's
  });

  it('image_mode alt and drop; images and links lists', async () => {
    const alt = await read({ url: fresh(), image_mode: 'alt', images: true, links: true });
    expect(alt.json.markdown).not.toContain('![');
    expect(alt.json.markdown).toContain('A week of tides');
    expect(alt.json.images).toEqual([{ url: `${site.origin}/img/tides.png`, alt: 'A week of tides' }]);
    expect(alt.json.links).toEqual([
      { url: `${site.origin}/harbours/north`, text: 'The north harbour' },
      { url: 'https://met.example.org/surge', text: 'the met office' },
    ]);
    // home, about, contact, privacy and the dropped comment's link: distinct links outside the content
    expect(alt.json.links_elsewhere).toBe(5);
    const drop = await read({ url: fresh(), image_mode: 'drop' });
    expect(drop.json.markdown).not.toContain('A week of tides');
    expect(drop.json.images).toBeUndefined();
    expect(drop.json.links).toBeUndefined();
  });

  it('format text: plain text, no Markdown syntax', async () => {
    const res = await read({ url: fresh(), format: 'text' });
    const text: string = res.json.text;
    expect(text).toContain('Tide tables list the times of high and low water for each day. The north harbour publishes');
    expect(text).toContain('Day\tHigh\tLow');
    expect(text).not.toMatch(/\]\(|\*\*|^#/m);
    expect(res.json.stats.markdown_size_kb).toBeCloseTo(Buffer.byteLength(text) / 1024, 2);
  });

  it('stats.tokens on every read, and X-Markdown-Tokens', async () => {
    const res = await read({ url: fresh() });
    expect(res.json.stats.tokens).toBeGreaterThan(50);
    expect(res.headers['x-markdown-tokens']).toBe(String(res.json.stats.tokens));
    const text = await read({ url: fresh(), format: 'text', link_mode: 'text' });
    expect(text.json.stats.tokens).toBeLessThan(res.json.stats.tokens);
  });

  it('Accept: text/html and text/plain return that format raw; text/markdown Markdown whatever format says', async () => {
    const url = fresh();
    const html = await read({ url }, { accept: 'text/html' });
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.text).toContain('<table>');
    expect(html.headers['x-markdown-tokens']).toMatch(/^\d+$/);
    const plain = await read({ url }, { accept: 'text/plain' });
    expect(plain.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(plain.text).toContain('Day\tHigh\tLow');
    const md = await read({ url, format: 'html' }, { accept: 'text/markdown' });
    expect(md.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(md.text).toContain('| Day | High | Low |');
    // the common `application/json, text/plain, */*` of HTTP clients still gets JSON
    const json = await read({ url }, { accept: 'application/json, text/plain, */*' });
    expect(json.json.markdown).toContain('Tide tables');
  });

  it('cache: other options are another entry; the same options in another order are the same entry', async () => {
    const url = fresh();
    const a = await read({ url, target_selector: ['table', '.lead'], links: true, format: 'html' });
    expect(a.headers['x-service-cache']).toBe('MISS');
    const same = await read({ format: 'html', links: true, target_selector: [' .lead', 'table', 'table'], url });
    expect(same.headers['x-service-cache']).toBe('HIT');
    expect(same.json.html).toBe(a.json.html);
    const other = await read({ url, target_selector: ['table', '.lead'], links: true, format: 'text' });
    expect(other.headers['x-service-cache']).toBe('MISS');
    const plain = await read({ url });
    expect(plain.headers['x-service-cache']).toBe('MISS');
    // defaults spelled out share the plain read's entry
    const defaults = await read({ url, format: 'markdown', main_content: true, link_mode: 'inline', image_mode: 'keep', links: false });
    expect(defaults.headers['x-service-cache']).toBe('HIT');
  });

  it('a read with options costs exactly 1 credit, as a plain read does (fresh, cached, read-and-score, batch per URL)', async () => {
    const all = {
      target_selector: ['table', '.lead'],
      remove_selector: '.comments',
      main_content: false,
      format: 'html',
      links: true,
      images: true,
      image_mode: 'alt',
      link_mode: 'references',
      clean_urls: false,
      keep_hidden: true,
    };
    const url = fresh();
    const costOf = async (call: () => Promise<Call>): Promise<number> => {
      const before = await usageOf(svc, accountId);
      const res = await call();
      expect(res.status, res.text).toBe(200);
      const after = await usageOf(svc, accountId);
      expect(after.boughtBalance).toBe(before.boughtBalance);
      return after.planUsed - before.planUsed;
    };
    expect(await costOf(() => read({ url, ...all }))).toBe(1);
    expect(await costOf(() => read({ url, ...all }))).toBe(1); // a cache HIT costs the same
    expect(await costOf(() => svc.call('/v1/read-and-score', { key: apiKey, body: { url: fresh(), ...all } }))).toBe(1);
    expect(await costOf(() => svc.call('/v1/batch', { key: apiKey, body: { urls: [fresh(), fresh()], ...all } }))).toBe(2);
  });

  it('bad values are BAD_REQUEST naming the field, and cost nothing', async () => {
    const before = await usageOf(svc, accountId);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ target_selector: 'div[' }, 'target_selector'],
      [{ remove_selector: ['main', 'a:nope(1)'] }, 'remove_selector[1]'],
      [{ target_selector: Array.from({ length: 11 }, (_, i) => `.c${i}`) }, 'target_selector'],
      [{ target_selector: `.${'a'.repeat(600)}` }, 'target_selector'],
      [{ format: 'pdf' }, 'format'],
      [{ image_mode: 'blur' }, 'image_mode'],
      [{ link_mode: 'footnotes' }, 'link_mode'],
      [{ links: 'yes' }, 'links'],
      [{ main_content: 'no' }, 'main_content'],
      [{ target_selector: '' }, 'target_selector'],
    ];
    for (const [options, field] of cases) {
      const res = await read({ url: fresh(), ...options });
      expect({ options, status: res.status, code: res.json.code }).toEqual({ options, status: 400, code: 'BAD_REQUEST' });
      expect(res.json.message).toContain(field);
    }
    const after = await usageOf(svc, accountId);
    expect(after).toEqual(before);
  });

  it('read-and-score and every batch item take the options', async () => {
    const scored = await svc.call('/v1/read-and-score', { key: apiKey, body: { url: fresh(), format: 'text', links: true } });
    expect(scored.json.text).toContain('Tide tables list');
    expect(scored.json.links).toHaveLength(2);
    expect(scored.json.score.value).toBeGreaterThan(0);
    expect(scored.headers['x-markdown-tokens']).toBe(String(scored.json.stats.tokens));
    const batch = await svc.call('/v1/batch', {
      key: apiKey,
      body: { urls: [fresh(), fresh()], target_selector: 'table', format: 'html' },
    });
    for (const item of batch.json.results) {
      expect(item.ok).toBe(true);
      expect(item.html).toMatch(/^<table>/);
      expect(item.stats.tokens).toBeGreaterThan(0);
    }
    const bad = await svc.call('/v1/batch', { key: apiKey, body: { urls: [fresh()], remove_selector: '<<' } });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain('remove_selector');
  });
});
