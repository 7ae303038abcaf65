import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../../src/convert/html/index.js';

const POSTS = Array.from(
  { length: 4 },
  (_, i) =>
    `<div class="topic-body"><span class="creator">user${i}</span><div class="post"><p>Reply number ${i} explains, in a few sentences, what worked for this problem and why it did.</p></div></div>`,
).join('');

describe('content served outside the visible DOM', () => {
  it('reads a thread served in <noscript> when the rest of the page is a script shell', () => {
    const html = `<html><head><title>Thread</title></head><body><section id="main"></section>
      <noscript><div id="main-outlet"><h1>How do I renew?</h1>${POSTS}</div></noscript>
      <script>window.app = {}</script></body></html>`;
    const r = htmlToMarkdown(html, 'https://forum.test/t/how-do-i-renew/42');
    expect(r.markdown).toContain('Reply number 3 explains');
    expect(r.warnings.map((w) => w.code)).not.toContain('JS_SHELL');
  });

  it('leaves <noscript> out when the visible page has the content', () => {
    const body = Array.from({ length: 6 }, (_, i) => `<p>Visible paragraph ${i} with enough words, and commas, to be the story.</p>`).join(
      '',
    );
    const html = `<body><article>${body}</article><noscript><div>${POSTS}${POSTS}${POSTS}</div></noscript></body>`;
    const r = htmlToMarkdown(html, 'https://x.test/');
    expect(r.markdown).toContain('Visible paragraph 5');
    expect(r.markdown).not.toContain('Reply number');
  });

  it('does not let a self-closed tracking iframe in <noscript> swallow the page', () => {
    const body = Array.from(
      { length: 6 },
      (_, i) => `<p>Paragraph ${i} of the story, long enough, with commas, to count as prose.</p>`,
    ).join('');
    const html = `<body><noscript><iframe src="https://tags.test/ns.html" height="0" width="0" style="display:none" /></noscript><article>${body}</article></body>`;
    const r = htmlToMarkdown(html, 'https://x.test/');
    expect(r.markdown).toContain('Paragraph 5 of the story');
  });

  it('shows React streamed segments (hidden S:n divs) where their placeholder was', () => {
    const html = `<body><main><h1>Black Edition</h1><template id="B:0"></template><p>Loading…</p><footer>Footer links</footer></main>
      <div hidden id="S:0"><p>A complete meal in a shake, with forty grams of protein, fibre and all the vitamins.</p>
      <p>Mix two scoops with cold water, shake for ten seconds, and drink it, morning or evening.</p></div>
      <script>$RC("B:0","S:0")</script></body>`;
    const r = htmlToMarkdown(html, 'https://shop.test/products/black');
    expect(r.markdown).toContain('A complete meal in a shake');
    expect(r.markdown.indexOf('A complete meal')).toBeLessThan(
      r.markdown.indexOf('Loading') < 0 ? Infinity : r.markdown.indexOf('Loading'),
    );
  });

  it('still drops ordinary hidden elements', () => {
    const html = `<body><article><p>Shown paragraph with enough words, and commas, to be content here.</p><div hidden id="S-menu"><p>Hidden menu text</p></div></article></body>`;
    expect(htmlToMarkdown(html, 'https://x.test/').markdown).not.toContain('Hidden menu text');
  });

  it('reads markup after a stray </body></html> as part of the body, as a browser does', () => {
    const body = Array.from(
      { length: 5 },
      (_, i) => `<p>Paragraph ${i} of the story, long enough, with commas, to count as prose.</p>`,
    ).join('');
    const html = `<html><body><header>Site</header></body></html><article>${body}</article>`;
    expect(htmlToMarkdown(html, 'https://x.test/2026/01/story').markdown).toContain('Paragraph 4 of the story');
  });
});
