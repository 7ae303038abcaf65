import { describe, expect, it } from 'vitest';
import { parseHtml, textOf } from '../../../../src/convert/html/dom.js';
import { htmlToMarkdown } from '../../../../src/convert/html/index.js';

const para = (i: number): string =>
  `<p>Paragraph ${i} of the page says something of its own, in a sentence long enough to count as prose.</p>`;

describe('a stray <![CDATA[ in HTML', () => {
  it('is a bogus comment that ends at the next >, as a browser reads it', () => {
    const doc = parseHtml(`<body><![CDATA[<div><p>the thread</p></div>]]></body>`);
    expect(textOf(doc)).toContain('the thread');
  });

  it('keeps a whole forum page that follows it', () => {
    const posts = Array.from({ length: 3 }, (_, i) => `<article class="message">${para(i)}</article>`).join('');
    const md = htmlToMarkdown(
      `<html><body><![CDATA[<div class="p-body">${posts}</div></body></html>`,
      'https://x.test/threads/a.1/',
    ).markdown;
    expect(md).toContain('Paragraph 2 of the page');
  });

  it('is still character data inside SVG', () => {
    const doc = parseHtml('<body><svg><text><![CDATA[a < b]]></text></svg><p>after</p></body>');
    expect(textOf(doc)).toContain('a < b');
    expect(textOf(doc)).toContain('after');
  });
});

describe('a cloak over the whole page', () => {
  const page = (inner: string): string =>
    `<html><head><title>Dark roast</title></head><body><nav><a href="/">Home</a><a href="/shop">Shop</a></nav><main>${inner}</main><footer>© Shop</footer></body></html>`;

  it('is shown: a hidden wrapper holding most of the text and the heading is the page', () => {
    const html = page(
      `<div class="lockdown-content" style="display:none;"><h1>Dark roast</h1>${[1, 2, 3, 4, 5, 6].map(para).join('')}</div>`,
    );
    expect(htmlToMarkdown(html, 'https://shop.test/products/dark-roast').markdown).toContain('Paragraph 6 of the page');
  });

  it("is shown when the site's mega menus hold more text than the page, counting the words outside links", () => {
    const menu = Array.from({ length: 400 }, (_, i) => `<li><a href="/c/${i}">Category number ${i} of the shop</a></li>`).join('');
    const html = `<html><head><title>Dark roast</title></head><body><header><ul class="mega-menu">${menu}</ul></header>
      <div class="product-wrapper" style="display: none"><article><h1>Dark roast</h1>${[1, 2, 3, 4, 5, 6].map(para).join('')}</article></div>
      <footer>© Shop</footer></body></html>`;
    expect(htmlToMarkdown(html, 'https://shop.test/products/dark-roast').markdown).toContain('Paragraph 6 of the page');
  });

  it('does not show a hidden menu or dialog beside the content', () => {
    const html = page(
      `<h1>Dark roast</h1>${[1, 2, 3, 4, 5, 6, 7, 8].map(para).join('')}<div class="modal" style="display:none"><p>Sign up for ten per cent off your first order, and hear about new roasts before anyone else does.</p></div>`,
    );
    const md = htmlToMarkdown(html, 'https://shop.test/products/dark-roast').markdown;
    expect(md).toContain('Paragraph 8 of the page');
    expect(md).not.toContain('Sign up');
  });
});

describe('blocks the page repeats for another layout', () => {
  const url = 'https://shop.test/products/wallet';
  const features =
    '<h3>Slim</h3><p>Holds twelve cards in the space of four, with a strap for cash.</p><h3>Tough</h3><p>Aluminium plates that shrug off drops and keys.</p>';

  it('keeps one copy of a section rendered for desktop and again for mobile', () => {
    const html = `<html><body><main><h1>Wallet</h1>${para(1)}${para(2)}<div class="features features--desktop">${features}</div><div class="features-mobile"><div class="mobile-stack">${features}</div></div>${para(3)}</main></body></html>`;
    const md = htmlToMarkdown(html, url).markdown;
    expect(md.match(/Holds twelve cards/g)).toHaveLength(1);
    expect(md).toContain('Paragraph 3');
  });

  it('keeps equal paragraphs in a row and the same note in every card', () => {
    const card = (name: string): string =>
      `<li class="card"><h3 class="card__title">${name}</h3><p class="card__note">Must be presented before the start of work, one per visit.</p></li>`;
    const html = `<html><body><main><h1>Offers</h1>${para(1)}<ul class="offers">${card('Ten off a tune-up')}${card('Free brake check')}</ul><div class="chorus"><p>Again and again, the same line of a song that the page repeats.</p><p>Again and again, the same line of a song that the page repeats.</p></div></main></body></html>`;
    const md = htmlToMarkdown(html, 'https://shop.test/offers').markdown;
    expect(md.match(/Must be presented/g)).toHaveLength(2);
    expect(md.match(/Again and again/g)).toHaveLength(2);
  });

  it('keeps one copy of a linked title a card renders twice, and a story listed as latest and as popular', () => {
    const title = (slug: string, name: string): string =>
      `<div class="event-card__title"><a href="/e/${slug}">${name}</a> <a href="/e/${slug}/dates">Thu, Apr 2, 12:00 PM EDT</a></div>`;
    const event = (slug: string, name: string): string =>
      `<div class="event-card"><div class="event-card__wide">${title(slug, name)}<p>Hosted by Northside Makers</p></div>` +
      `<div class="event-card__narrow">${title(slug, name)}</div></div>`;
    const events = [
      ['soldering-101', 'Soldering for complete beginners'],
      ['repair-cafe', 'Repair café: bring your broken lamp'],
      ['synth-night', 'Build a pocket synthesizer in one evening'],
    ];
    const html =
      `<html><body><main><h1>Maker events</h1><div class="events">${events.map(([s, n]) => event(s as string, n as string)).join('')}</div>` +
      `<section class="popular"><h2>Popular</h2>${title('repair-cafe', 'Repair café: bring your broken lamp')}</section></main></body></html>`;
    const md = htmlToMarkdown(html, 'https://makers.test/events').markdown;
    expect(md.match(/Soldering for complete beginners/g)).toHaveLength(1);
    expect(md.match(/Build a pocket synthesizer/g)).toHaveLength(1);
    // the same story in two lists far apart on the page is the page's own repetition
    expect(md.match(/Repair café/g)).toHaveLength(2);
  });
});
