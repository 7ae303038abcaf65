/**
 * Issue 21: whatever a page holds, our Markdown never turns into something that runs script
 * once rendered. Each vector is put in a page in several contexts (paragraph, table cell,
 * list item, heading, quote), converted, rendered with `marked` on its default settings
 * (raw HTML on) and the result parsed with a DOM: no element or attribute that can run
 * script may appear, and every URL attribute must be http(s), mailto, tel, relative or a
 * fragment, read as a browser reads it. The same vectors go through `format: html` (the
 * allow-list writer of issue 17), whose output is parsed directly, with and without
 * main-content detection: no handler, `style`, `srcdoc`, frame, form or unsafe URL.
 */
import type { AnyNode, Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../../src/convert/html/index.js';

const BASE = 'https://safe.example/articles/page.html';
const FILLER =
  '<p>This paragraph is ordinary article text that gives the page enough words to be read as an article with a main body, as real pages do.</p>';

/** Link and markup vectors: page HTML fragments an attacker controls. */
const VECTORS: Array<[string, string]> = [
  ['plain javascript', '<a href="javascript:alert(1)">x</a>'],
  ['mixed case', '<a href="JaVaScRiPt:alert(1)">x</a>'],
  ['entity-encoded scheme', '<a href="&#106;avascript:alert(1)">x</a>'],
  ['hex entities', '<a href="&#x6a;&#x61;vascript:alert(1)">x</a>'],
  ['tab entity inside', '<a href="java&#x09;script:alert(1)">x</a>'],
  ['newline entity inside', '<a href="java&#x0A;script:alert(1)">x</a>'],
  ['CR entity inside', '<a href="java&#x0D;script:alert(1)">x</a>'],
  ['&Tab; named entity', '<a href="java&Tab;script:alert(1)">x</a>'],
  ['&NewLine; named entity', '<a href="java&NewLine;script:alert(1)">x</a>'],
  ['raw tab inside', '<a href="java\tscript:alert(1)">x</a>'],
  ['raw newline inside', '<a href="java\nscript:alert(1)">x</a>'],
  ['leading space', '<a href=" javascript:alert(1)">x</a>'],
  ['leading control char', '<a href="&#x01;javascript:alert(1)">x</a>'],
  ['leading NUL-ish control', '<a href="&#x1f;javascript:alert(1)">x</a>'],
  ['leading newline', '<a href="&#10;javascript:alert(1)">x</a>'],
  ['vbscript', '<a href="vbscript:msgbox(1)">x</a>'],
  ['livescript', '<a href="livescript:alert(1)">x</a>'],
  ['data html', '<a href="data:text/html,<script>alert(1)</script>">x</a>'],
  ['data base64', '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>'],
  ['unknown scheme', '<a href="zzz-scheme:alert(1)">x</a>'],
  ['image javascript src', '<img src="javascript:alert(1)" alt="pic">'],
  ['image data svg', '<img src="data:image/svg+xml,<svg onload=alert(1)>" alt="pic">'],
  ['image srcset javascript', '<img srcset="javascript:alert(1) 2x" alt="pic">'],
  ['image lazy javascript', '<img data-src="javascript:alert(1)" alt="pic">'],
  ['svg xlink', '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>'],
  ['form formaction', '<form><button formaction="javascript:alert(1)">go</button></form>'],
  ['iframe srcdoc', '<iframe srcdoc="<script>alert(1)</script>"></iframe>'],
  ['object data', '<object data="javascript:alert(1)"></object>'],
  ['destination breaks out with )', '<a href="https://x.example/a)(javascript:alert(1)">x</a>'],
  ['destination with angle brackets', '<a href="https://x.example/<img src=x onerror=alert(1)>">x</a>'],
  ['destination with quotes', '<a href=\'https://x.example/a" onclick="alert(1)\'>x</a>'],
  ['destination with spaces and title', '<a href="https://x.example/a &quot;t&quot; onmouseover=alert(1)">x</a>'],
  ['link text with ]( ', '<a href="https://x.example/">a](javascript:alert(1)) [b</a>'],
  ['link text with brackets', '<a href="https://x.example/">[x](javascript:alert(1))</a>'],
  [
    'link text with an image and brackets',
    '<a href="https://x.example/"><img src="https://x.example/i.png" alt="pic">[x](javascript:alert(1))</a>',
  ],
  ['alt text breaks out', '<img src="https://x.example/i.png" alt="a](javascript:alert(1))">'],
  ['markdown link typed as text', '<p>[click](javascript:alert(1))</p>'],
  ['markdown link split by span', '<p>[click]<span></span>(javascript:alert(1))</p>'],
  ['markdown link split by comment', '<p>[click]<!-- c -->(javascript:alert(1))</p>'],
  ['markdown link split by bold', '<p>[click]<b></b>(javascript:alert(1))</p>'],
  ['markdown image typed as text', '<p>![x](javascript:alert(1))</p>'],
  ['reference definition typed as text', '<p>[x]: javascript:alert(1)</p><p>[x]</p>'],
  ['reference split', '<p>[x]<i></i>: javascript:alert(1)</p><p>[x]</p>'],
  ['autolink typed as text', '<p>&lt;javascript:alert(1)&gt;</p>'],
  ['raw html typed as text', '<p>&lt;img src=x onerror=alert(1)&gt;</p>'],
  ['raw html split by bold', '<p>&lt;<b></b>img src=x onerror=alert(1)&gt;</p>'],
  ['raw html split by comment', '<p>&lt;<!-- -->script&gt;alert(1)&lt;/script&gt;</p>'],
  ['raw script typed as text', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'],
  ['svg typed as text', '<p>&lt;svg onload=alert(1)&gt;</p>'],
  ['iframe typed as text', '<p>&lt;iframe src=javascript:alert(1)&gt;</p>'],
  ['html comment trick', '<p>&lt;!--&gt;&lt;img src=x onerror=alert(1)&gt;--&gt;</p>'],
  ['backslash before bracket', '<p>\\[x](javascript:alert(1))</p>'],
  ['double backslash', '<p>\\\\[x](javascript:alert(1))</p>'],
  ['code span breakout', '<p><code>`</code>&lt;img src=x onerror=alert(1)&gt;</p>'],
  ['base href javascript, fragment link', '<base href="javascript:alert(1)//"><a href="#top">x</a>'],
  ['base href javascript, relative link', '<base href="javascript:alert(1)//"><a href="next.html">x</a>'],
  ['base href data', '<base href="data:text/html,x/"><a href="y">x</a>'],
  ['event handler attribute', '<p onclick="alert(1)">text</p>'],
  ['style expression', '<p style="background:url(javascript:alert(1))">text</p>'],
  ['meta refresh', '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">'],
  ['math href', '<math><mi href="javascript:alert(1)">x</mi></math>'],
  ['entity in link text', '<a href="https://x.example/">&lt;img src=x onerror=alert(1)&gt;</a>'],
  ['mailto with script', '<a href="mailto:a@b.example?body=%3Cscript%3E">mail</a>'],
  ['protocol-relative', '<a href="//evil.example/x">x</a>'],
  ['unicode escape scheme', '<a href="\u006aavascript:alert(1)">x</a>'],
  ['fullwidth colon', '<a href="javascript：alert(1)">x</a>'],
];

/** The contexts a vector is tried in. */
const CONTEXTS: Array<[string, (v: string) => string]> = [
  ['paragraph', (v) => `<p>Before ${v} after.</p>`],
  ['table', (v) => `<table><tr><th>a</th><th>b</th></tr><tr><td>${v}</td><td>cell</td></tr></table>`],
  ['list', (v) => `<ul><li>${v}</li><li>second item</li></ul>`],
  ['heading', (v) => `<h2>${v}</h2>`],
  ['quote', (v) => `<blockquote><p>${v}</p></blockquote>`],
];

const SCRIPT_ELEMENTS = new Set([
  'script',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'form',
  'base',
  'meta',
  'link',
  'style',
  'frame',
  'frameset',
  'applet',
]);
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'poster', 'background', 'srcset', 'srcdoc']);
const SAFE_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:']);

/** What a browser would do with the attribute value: resolve it, then its scheme. */
function schemeOf(value: string): string | null {
  try {
    return new URL(value, BASE).protocol;
  } catch {
    return null;
  }
}

function dangers(html: string): string[] {
  const found: string[] = [];
  const walk = (node: AnyNode): void => {
    if (node.type === 'tag' || node.type === 'script' || node.type === 'style') {
      const el = node as Element;
      if (SCRIPT_ELEMENTS.has(el.name)) found.push(`<${el.name}>`);
      for (const [name, value] of Object.entries(el.attribs)) {
        if (name.startsWith('on')) found.push(`${el.name}[${name}]`);
        if (URL_ATTRIBUTES.has(name)) {
          if (name === 'srcdoc') found.push(`${el.name}[srcdoc]`);
          const scheme = schemeOf(value);
          if (scheme !== null && !SAFE_SCHEMES.has(scheme)) found.push(`${el.name}[${name}=${value}]`);
        }
      }
    }
    if ('children' in node) for (const c of node.children) walk(c as AnyNode);
  };
  walk(parseDocument(html));
  return found;
}

describe('output safety: Markdown rendered by marked runs no script', () => {
  it(`covers ${VECTORS.length} vectors (at least 60)`, () => {
    expect(VECTORS.length).toBeGreaterThanOrEqual(60);
  });

  for (const [name, vector] of VECTORS) {
    it(`${name}: no executable element or URL in any context`, () => {
      for (const [context, wrap] of CONTEXTS) {
        const page = `<!doctype html><html><head><title>Vector page</title></head><body><main><article><h1>Vector page</h1>${FILLER}${wrap(vector)}${FILLER}</article></main></body></html>`;
        const { markdown } = htmlToMarkdown(page, BASE);
        const rendered = marked.parse(markdown, { mangle: false, headerIds: false }) as string;
        expect({ context, dangers: dangers(rendered) }).toEqual({ context, dangers: [] });
      }
    });
  }

  it('keeps the text of a refused link and the alt text of a refused image', () => {
    const page = `<html><body><main><article>${FILLER}<p>Read <a href="java&#x09;script:alert(1)">the guide</a> and see <img src="javascript:alert(1)" alt="the chart">.</p>${FILLER}</article></main></body></html>`;
    const { markdown } = htmlToMarkdown(page, BASE);
    expect(markdown).toContain('Read the guide and see the chart.');
    expect(markdown).not.toContain('javascript');
  });

  it('safe links stay links: http(s), mailto, tel, relative and fragments resolved against the page', () => {
    const page = `<html><body><main><article>${FILLER}<p><a href="/docs">docs</a>, <a href="other.html#part">part</a>, <a href="mailto:a@b.example">mail</a>, <a href="tel:+441234">call</a>.</p>${FILLER}</article></main></body></html>`;
    const { markdown } = htmlToMarkdown(page, BASE);
    expect(markdown).toContain('[docs](https://safe.example/docs)');
    expect(markdown).toContain('[part](https://safe.example/articles/other.html#part)');
    expect(markdown).toContain('[mail](mailto:a@b.example)');
    expect(markdown).toContain('[call](tel:+441234)');
  });
});

/** Attributes the `format: html` allow-list never writes, whatever their value. */
const NEVER_WRITTEN = new Set(['style', 'class', 'id', 'srcdoc', 'srcset', 'formaction', 'action', 'target']);

/** Attributes under `node` that the allow-list must never write (a `language-x` class on code is ours). */
function neverWritten(node: AnyNode): string[] {
  if (node.type !== 'tag') return [];
  const el = node as Element;
  const ours = (a: string): boolean => a === 'class' && el.name === 'code' && /^language-[\w+#.-]+$/.test(el.attribs.class ?? '');
  const own = Object.keys(el.attribs)
    .filter((a) => NEVER_WRITTEN.has(a) && !ours(a))
    .map((a) => `${el.name}[${a}]`);
  return [...own, ...el.children.flatMap((c) => neverWritten(c as AnyNode))];
}

describe('output safety: format html (the allow-list sanitiser) runs no script', () => {
  for (const [name, vector] of VECTORS) {
    it(`${name}: no executable element, handler, style or unsafe URL in the html output`, () => {
      for (const [context, wrap] of CONTEXTS) {
        const page = `<!doctype html><html><head><title>Vector page</title></head><body><main><article><h1>Vector page</h1>${FILLER}${wrap(vector)}${FILLER}</article></main></body></html>`;
        for (const options of [{ format: 'html' as const }, { format: 'html' as const, mainContent: false }]) {
          const { html = '' } = htmlToMarkdown(page, BASE, options);
          const extra = [...parseDocument(html).children].flatMap(neverWritten);
          expect({ context, options, dangers: [...dangers(html), ...extra] }).toEqual({ context, options, dangers: [] });
        }
      }
    });
  }

  it('links and images keep working under the URL policy; numbered references render safely too', () => {
    const page = `<html><body><main><article>${FILLER}<p><a href="/docs" onclick="x()">docs</a>, <a href="javascript:alert(1)">bad</a>, <img src="/a.png" alt="chart" onerror="x()">, <a href="/docs">again</a>.</p>${FILLER}</article></main></body></html>`;
    const { html = '' } = htmlToMarkdown(page, BASE, { format: 'html' });
    expect(html).toContain('<a href="https://safe.example/docs">docs</a>');
    expect(html).toContain('<img src="https://safe.example/a.png" alt="chart">');
    expect(html).toContain(', bad,');
    const { markdown } = htmlToMarkdown(page, BASE, { linkMode: 'references' });
    expect(dangers(marked.parse(markdown, { mangle: false, headerIds: false }))).toEqual([]);
    expect(markdown).toContain('[docs][1]');
    expect(markdown).toContain('[again][1]');
  });
});
