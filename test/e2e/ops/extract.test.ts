import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Site } from '../../helpers/site.js';
import { startSite } from '../../helpers/site.js';
import type { TestService } from '../../helpers/service.js';
import { startService } from '../../helpers/service.js';
import type { BadInputCase } from './helpers.js';
import { badUrlCases, commonBadBodies, usageOf } from './helpers.js';

const PRODUCT = `<!doctype html><html lang="en"><head>
<title>Lamp — Shop</title>
<base href="/shop/">
<meta name="description" content="A desk lamp.">
<meta name="keywords" content="lamp, desk">
<meta property="og:title" content="Desk lamp">
<meta property="og:image" content="https://cdn.example/a.jpg">
<meta property="og:image" content="https://cdn.example/b.jpg">
<meta name="twitter:card" content="summary">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"Product","name":"Desk lamp"},{"@type":"Offer","price":"19.00"}]}</script>
<script type="application/ld+json">{"broken": </script>
<script type="application/ld+json">[{"@context":"https://schema.org","@type":"BreadcrumbList"}]</script>
</head><body>
<h1 id="top">Desk lamp</h1>
<h2>Specs</h2>
<p class="price" data-currency="EUR">19.00</p>
<a href="lamp-2" rel="next">Next lamp</a>
<a href="https://other.example/x#frag">Elsewhere</a>
<a href="javascript:void(0)">JS</a>
<a href="mailto:a@b.example">Mail</a>
<img src="img/lamp.png" alt="The lamp" width="640" height="480">
<img data-src="img/lazy.png">
<table><thead><tr><th>Size</th><th>Watts</th><th>Size</th></tr></thead>
<tbody><tr><td>S</td><td>5</td><td>small</td></tr><tr><td>L</td><td>9</td><td>large</td><td>extra</td></tr></tbody></table>
<table><tr><td>a</td><td>b</td></tr></table>
<ul class="tags"><li>desk</li><li>light</li></ul>
</body></html>`;

describe('POST /v1/extract', () => {
  let site: Site;
  let svc: TestService;
  let fetches = 0;

  beforeAll(async () => {
    site = await startSite((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      if (req.url?.startsWith('/missing')) return void res.writeHead(404).end();
      fetches++;
      if (req.url?.startsWith('/data.json')) return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":1}');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PRODUCT);
    });
    svc = await startService();
  });
  afterAll(async () => {
    await svc.close();
    await site.close();
  });

  it('returns the DESIGN §2 data shape, deterministic and absolute', async () => {
    const { apiKey, accountId } = await svc.newAccount('starter');
    const url = `${site.origin}/p/lamp`;
    const res = await svc.call('/v1/extract', {
      key: apiKey,
      body: {
        url,
        fields: {
          price: { selector: 'p.price' },
          currency: { selector: '.price', attr: 'data-currency' },
          tags: { selector: 'ul.tags > li', all: true },
          next: { selector: 'a[rel=next]', attr: 'href' },
          missing: { selector: '.nope' },
          none: { selector: '.nope', all: true },
        },
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(['data', 'stats', 'status', 'url']);
    const d = res.json.data;
    expect(d.json_ld).toEqual([
      { '@context': 'https://schema.org', '@type': 'Product', name: 'Desk lamp' },
      { '@context': 'https://schema.org', '@type': 'Offer', price: '19.00' },
      { '@context': 'https://schema.org', '@type': 'BreadcrumbList' },
    ]);
    expect(d.open_graph).toEqual({
      'og:title': 'Desk lamp',
      'og:image': ['https://cdn.example/a.jpg', 'https://cdn.example/b.jpg'],
      'twitter:card': 'summary',
    });
    expect(d.meta).toEqual({ description: 'A desk lamp.', keywords: 'lamp, desk' });
    expect(d.headings).toEqual([
      { level: 1, text: 'Desk lamp', id: 'top' },
      { level: 2, text: 'Specs', id: null },
    ]);
    expect(d.links).toEqual([
      { url: `${site.origin}/shop/lamp-2`, text: 'Next lamp', rel: 'next' },
      { url: 'https://other.example/x', text: 'Elsewhere', rel: null },
    ]);
    expect(d.images).toEqual([
      { url: `${site.origin}/shop/img/lamp.png`, alt: 'The lamp', width: 640, height: 480 },
      { url: `${site.origin}/shop/img/lazy.png`, alt: null, width: null, height: null },
    ]);
    expect(d.tables).toEqual([
      [
        { Size: 'S', Watts: '5', Size_2: 'small' },
        { Size: 'L', Watts: '9', Size_2: 'large', column_4: 'extra' },
      ],
      [{ column_1: 'a', column_2: 'b' }],
    ]);
    expect(d.fields).toEqual({
      price: '19.00',
      currency: 'EUR',
      tags: ['desk', 'light'],
      next: `${site.origin}/shop/lamp-2`,
      missing: null,
      none: [],
    });
    expect(res.headers['x-service-cache']).toBe('MISS');
    expect(await usageOf(svc, accountId)).toEqual({ planUsed: 1, boughtBalance: 0 });
  });

  it('is cached 1 h per URL and field specs; fresh skips the lookup; HIT costs 1 credit', async () => {
    const { apiKey, accountId } = await svc.newAccount('starter');
    const url = `${site.origin}/p/cache`;
    const before = fetches;
    const a = await svc.call('/v1/extract', { key: apiKey, body: { url } });
    const b = await svc.call('/v1/extract', { key: apiKey, body: { url } });
    expect([a.headers['x-service-cache'], b.headers['x-service-cache']]).toEqual(['MISS', 'HIT']);
    expect(b.json).toEqual(a.json);
    // other fields → another entry; read's cache is separate too
    const c = await svc.call('/v1/extract', { key: apiKey, body: { url, fields: { h: { selector: 'h1' } } } });
    expect(c.headers['x-service-cache']).toBe('MISS');
    expect(c.json.data.fields).toEqual({ h: 'Desk lamp' });
    const d = await svc.call('/v1/extract', { key: apiKey, body: { url, fields: { h: { selector: 'h1' } } } });
    expect(d.headers['x-service-cache']).toBe('HIT');
    const read = await svc.call('/v1/read', { key: apiKey, body: { url } });
    expect(read.headers['x-service-cache']).toBe('MISS');
    const fresh = await svc.call('/v1/extract', { key: apiKey, body: { url, fresh: true } });
    expect(fresh.headers['x-service-cache']).toBe('MISS');
    expect(fetches - before).toBe(4);
    expect(await usageOf(svc, accountId)).toEqual({ planUsed: 6, boughtBalance: 0 });
  });

  it('refunds failures: 404 and a non-HTML target (UNSUPPORTED_TYPE)', async () => {
    const { apiKey, accountId } = await svc.newAccount('starter');
    const missing = await svc.call('/v1/extract', { key: apiKey, body: { url: `${site.origin}/missing` } });
    expect(missing.status).toBe(404);
    const json = await svc.call('/v1/extract', { key: apiKey, body: { url: `${site.origin}/data.json` } });
    expect(json.status).toBe(415);
    expect(json.json.code).toBe('UNSUPPORTED_TYPE');
    expect(json.json.message).toContain('application/json');
    expect(await usageOf(svc, accountId)).toEqual({ planUsed: 0, boughtBalance: 0 });
  });

  describe('bad input → 4xx, nothing charged', () => {
    const ok = 'https://example.com/';
    const f =
      (fields: unknown): BadInputCase['opts'] =>
      (k) => ({ key: k, body: { url: ok, fields } });
    const cases: BadInputCase[] = [
      ...commonBadBodies(),
      ...badUrlCases(),
      { name: 'fresh is a string', opts: (k) => ({ key: k, body: { url: ok, fresh: 'yes' } }), status: 400, code: 'BAD_REQUEST' },
      { name: 'fields is an array', opts: f([{ selector: 'a' }]), status: 400, code: 'BAD_REQUEST' },
      { name: 'fields is a string', opts: f('h1'), status: 400, code: 'BAD_REQUEST' },
      { name: 'field without selector', opts: f({ a: { attr: 'href' } }), status: 400, code: 'BAD_REQUEST' },
      { name: 'field selector empty', opts: f({ a: { selector: '' } }), status: 400, code: 'BAD_REQUEST' },
      { name: 'field selector a number', opts: f({ a: { selector: 1 } }), status: 400, code: 'BAD_REQUEST' },
      { name: 'field is a string', opts: f({ a: 'h1' }), status: 400, code: 'BAD_REQUEST' },
      { name: 'field all is a string', opts: f({ a: { selector: 'h1', all: 'yes' } }), status: 400, code: 'BAD_REQUEST' },
      { name: 'field attr empty', opts: f({ a: { selector: 'h1', attr: '' } }), status: 400, code: 'BAD_REQUEST' },
      { name: 'invalid selector: unbalanced', opts: f({ a: { selector: 'div[' } }), status: 400, code: 'BAD_REQUEST' },
      { name: 'invalid selector: unknown pseudo', opts: f({ a: { selector: 'p:frobnicate' } }), status: 400, code: 'BAD_REQUEST' },
      { name: 'invalid selector: empty sub-selector', opts: f({ a: { selector: 'a,,b' } }), status: 400, code: 'BAD_REQUEST' },
      { name: 'invalid selector: pseudo-element', opts: f({ a: { selector: 'p::before' } }), status: 400, code: 'BAD_REQUEST' },
      {
        name: '51 fields',
        opts: f(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`f${i}`, { selector: 'a' }]))),
        status: 400,
        code: 'BAD_REQUEST',
      },
      { name: 'field name too long', opts: f({ ['n'.repeat(101)]: { selector: 'a' } }), status: 400, code: 'BAD_REQUEST' },
      { name: 'selector too long', opts: f({ a: { selector: 'a'.repeat(1001) } }), status: 400, code: 'BAD_REQUEST' },
    ];
    it.each(cases)('$name → $status $code', async ({ opts, status, code }) => {
      const { apiKey, accountId } = await svc.newAccount('starter');
      const res = await svc.call('/v1/extract', opts(apiKey));
      expect(res.status).toBe(status);
      expect(res.json).toMatchObject({ status: 'error', code });
      expect(await usageOf(svc, accountId)).toEqual({ planUsed: 0, boughtBalance: 0 });
    });

    it('names the bad field in the message', async () => {
      const { apiKey } = await svc.newAccount('starter');
      const res = await svc.call('/v1/extract', {
        key: apiKey,
        body: { url: `${site.origin}/p`, fields: { price: { selector: 'div[' } } },
      });
      expect(res.json.message).toMatch(/^fields\.price\.selector is not a valid CSS selector/);
    });
  });
});
