import type { Site } from '../../helpers/site.js';
import { startSite } from '../../helpers/site.js';
import { Gate } from '../../helpers/gate.js';

/** An article page with a title, headings, a list, a table and a link: enough for every tool. */
export const ARTICLE_HTML = `<!doctype html>
<html lang="en"><head>
<title>Pith fixture article</title>
<meta name="description" content="A local page for ecosystem tests.">
<meta property="og:title" content="Pith fixture article">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"Pith fixture article"}</script>
</head><body>
<nav><a href="/">Home</a> <a href="/docs/one.html">One</a></nav>
<main><article>
<h1>Reading the web for agents</h1>
<p>Pith turns <strong>web pages</strong> into clean Markdown for language models. This paragraph is long enough to count as
real content: it talks about headings, lists, tables and links, which every good converter keeps intact.</p>
<h2>Why Markdown</h2>
<ul><li>It is compact.</li><li>It keeps structure.</li></ul>
<table><thead><tr><th>plan</th><th>credits</th></tr></thead><tbody><tr><td>free</td><td>1000</td></tr></tbody></table>
<p>See <a href="/docs/two.html">the second page</a> for more about the fixture and why it exists in the test suite at all.</p>
</article></main>
</body></html>`;

/** An article with a figure whose image lives on the fixture site (`/pixel.png` counts its hits). */
export const FIGURE_HTML = `<!doctype html>
<html lang="en"><head><title>Figure page</title></head><body><main><article>
<h1>A page with a picture</h1>
<p>The chart below shows how many pages a reader service converts per second on one core, measured on a quiet machine.</p>
<figure><img src="/pixel.png" alt="Pages per second chart"><figcaption>Pages per second</figcaption></figure>
<p>Images in converted Markdown point at other servers, so a viewer should not load them without being asked to.</p>
</article></main></body></html>`;

/** An article with a paragraph styled to be invisible (left out unless keep_hidden). */
export const HIDDEN_HTML = `<!doctype html>
<html lang="en"><head><title>Ferry times</title></head><body><main><article>
<h1>Ferry times</h1>
<p>The morning ferry leaves the north harbour at seven and reaches the island an hour later, weather permitting.</p>
<p style="font-size:0">A line no reader of this page can see.</p>
<p>Tickets are sold on board; bicycles travel free on every crossing except the last one of the day.</p>
</article></main></body></html>`;

export interface FixtureSite extends Site {
  /** Requests the site received for `/pixel.png`. */
  pixelHits(): number;
  /** Requests to `/slow…` wait here until the test opens them. */
  gate: Gate;
  openGates(): void;
}

/** A loopback site: `/article.html`, `/docs/*.html`, `/shell.html` (JS shell), `/missing` (404), `/slow…` (gated), robots 404, a sitemap. */
export async function startFixtureSite(): Promise<FixtureSite> {
  const gate = new Gate();
  let origin = '';
  let pixelHits = 0;
  const site = await startSite(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path === '/robots.txt') return void res.writeHead(404).end();
    if (path === '/sitemap.xml') {
      return void res
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(
          `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/article.html</loc></url><url><loc>${origin}/docs/one.html</loc></url></urlset>`,
        );
    }
    if (path === '/shell.html') {
      return void res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          '<!doctype html><html lang="en"><head><title>Shell app</title></head><body><div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript><script src="/static/js/main.js"></script></body></html>',
        );
    }
    if (path === '/figure.html') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(FIGURE_HTML);
    if (path === '/hidden.html') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(HIDDEN_HTML);
    if (path === '/pixel.png') {
      pixelHits++;
      return void res.writeHead(204).end();
    }
    if (path === '/missing') return void res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>nope</h1>');
    if (path.startsWith('/slow')) await gate.pass();
    if (path === '/article.html' || path.startsWith('/slow')) {
      return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE_HTML);
    }
    if (path.startsWith('/docs/')) {
      return void res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<html><head><title>Doc ${path}</title></head><body><main><h1>Doc ${path}</h1><p>Some words about ${path} for the reader.</p></main></body></html>`,
        );
    }
    return void res.writeHead(404).end();
  });
  origin = site.origin;
  return {
    ...site,
    gate,
    pixelHits: () => pixelHits,
    openGates: () => gate.releaseHeld(),
    close: async () => {
      gate.releaseHeld();
      await site.close();
    },
  };
}
