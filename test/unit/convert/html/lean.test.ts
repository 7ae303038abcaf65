/**
 * Lean Markdown (issue 22) at the unit level: which images are decoration, and how
 * unrendered shortcodes and placeholders leave the text. The golden cases `lean-*` show the
 * same on whole pages; here the edges, the agreement of the linear scanner with the regexes
 * it replaced, and its bound on hostile text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../../src/convert/html/index.js';
import { stripUnrendered } from '../../../../src/convert/html/lean.js';
import { cpuMs, fill, MB } from '../../hostile/cpu.js';

const read = (body: string) => htmlToMarkdown(`<html><body><article>${body}</article></body></html>`, 'https://shop.test/a').markdown;
const PROSE = '<p>The harbour master posts the tide table every morning at six, and the boats leave an hour later.</p>';

describe('decorative images', () => {
  it('a figure stays whatever its file is called; avatars, badges, pixels and icons go', () => {
    const md = read(
      `${PROSE}<figure><img src="/img/pixel.png" alt="Pages per second"><figcaption>Throughput</figcaption></figure>` +
        `<p><img src="/u/avatars/81.jpg" alt=""> Posted by Ana</p>` +
        `<p><img src="/t.gif" width="1" height="1" alt="">${PROSE.slice(3, -4)}</p>` +
        `<p><img src="/i/check.svg" width="16" height="16" alt="yes"> Free returns</p>` +
        `<span class="rank-badge"><img src="/ranks/gold.png" alt="Gold"></span>` +
        `<p><img src="/photos/tent-blue.jpg" alt="A blue two-person tent pitched on a beach at dusk"></p>`,
    );
    expect(md).toContain('![Pages per second](https://shop.test/img/pixel.png)');
    expect(md).toContain('![A blue two-person tent pitched on a beach at dusk](https://shop.test/photos/tent-blue.jpg)');
    for (const gone of ['avatars/81', 't.gif', 'check.svg', 'gold.png']) expect(md).not.toContain(gone);
    expect(md).toContain('Posted by Ana');
    expect(md).toContain('Free returns');
  });

  it('a picture laid out at icon size by its sizes attribute goes, even in a figure; a photo laid out wide stays', () => {
    const md = read(
      `${PROSE}<figure><img src="/i/water-flow.svg" srcset="/i/water-flow.svg?w=80 80w, /i/water-flow.svg?w=96 96w" sizes="32px" width="96" height="96" alt="Precision water flow"></figure><p>Precision water flow</p>` +
        `<p><img src="/p/kettle.jpg" srcset="/p/kettle.jpg?w=800 800w" sizes="(max-width: 600px) 100vw, 600px" alt="The kettle on a white counter"></p>`,
    );
    expect(md).not.toContain('water-flow.svg');
    expect(md).toContain('kettle.jpg');
  });

  it('an image that is a link’s only label stays; one repeated as an ornament goes', () => {
    const md = read(
      `${PROSE}<p><a href="https://store.test/app"><img src="/badges/google-play.png" alt="Get it on Google Play"></a></p>` +
        '<ul>' +
        ['Waterproof', 'Light', 'Warm'].map((t) => `<li><img src="/i/tick.png" alt="">${t} enough for a week outside</li>`).join('') +
        '</ul>',
    );
    expect(md).toContain('[![Get it on Google Play](https://shop.test/badges/google-play.png)](https://store.test/app)');
    expect(md).not.toContain('tick.png');
    expect(md).toContain('Warm enough for a week outside');
  });

  it('logos go by alt or file name, linked or not; a figure of a logo and a photo named after a brand stay', () => {
    const md = read(
      `${PROSE}<div class="trusted"><span>Trusted by</span>` +
        '<img src="/brands/harbour-co.svg" alt="Harbour Co logo">' +
        '<a href="https://partner.test/"><img src="/up/partner_logo.png" alt="Partner"></a>' +
        '<img src="/up/LOGOS/ferry-lines.png" alt="Ferry Lines">' +
        '<img src="/img/logos/customers/faded/tidewater.svg" alt="Tidewater"></div>' +
        '<p><img src="/blog/logo-design-tips/2026/sketchbook.jpg" alt="A sketchbook of early ideas for the harbour mark"></p>' +
        '<figure><img src="/up/new-logo.png" alt="Our new logo"><figcaption>The redesigned mark</figcaption></figure>' +
        '<p><img src="/up/catalogue-cover.jpg" alt="The autumn catalogue cover on a wooden table"></p>',
    );
    for (const gone of ['harbour-co.svg', 'partner_logo', 'ferry-lines', 'tidewater']) expect(md).not.toContain(gone);
    expect(md).toContain('sketchbook.jpg');
    expect(md).not.toContain('partner.test');
    expect(md).toContain('Trusted by');
    expect(md).toContain('![Our new logo](https://shop.test/up/new-logo.png)');
    expect(md).toContain('catalogue-cover.jpg');
  });

  it('a thread names its posters and dates its posts without profile and permalink URLs; the links list keeps them; a story keeps its links', () => {
    const post = (who: string, href: string, text: string) =>
      `<div class="post"><div class="author"><a href="${href}">${who}</a> wrote: <a href="/t/tide-table/9/2">Oct 28, 2025 at 9:14 AM</a> <a href="/t/tide-table/9#p2">#2</a></div><p>${text} ${PROSE.slice(3, -4)}</p></div>`;
    const page =
      '<html><body><main>' +
      post('mara_k', '/u/mara_k', 'The tide table moved again.') +
      post('devon', '/memberlist.php?mode=viewprofile&u=48', 'It did, check the harbour board.') +
      post('ivy', 'https://forum.test/members/ivy.77/', 'See the <a href="/t/tides/12">older thread</a>.') +
      '</main></body></html>';
    const thread = htmlToMarkdown(page, 'https://forum.test/t/tide-table/9', { pageType: 'forum', links: true });
    for (const who of ['mara_k', 'devon', 'ivy']) expect(thread.markdown).toContain(`${who} wrote:`);
    for (const gone of ['/u/mara_k', 'viewprofile', '/members/ivy', '/9/2', '#p2']) expect(thread.markdown).not.toContain(gone);
    // the post's date stays, as text (a bare "#2" is thread chrome)
    expect(thread.markdown).toContain('mara_k wrote: Oct 28, 2025 at 9:14 AM\n');
    expect(thread.markdown).toContain('[older thread](https://forum.test/t/tides/12)');
    expect(thread.links?.map((l) => l.url)).toContain('https://forum.test/u/mara_k');
    const story = htmlToMarkdown(page, 'https://forum.test/t/tide-table/9', { pageType: 'article' });
    expect(story.markdown).toContain('[mara_k](https://forum.test/u/mara_k)');
  });

  it('a picture linked to itself or to a bigger copy is written once, without the link', () => {
    const md = read(
      `${PROSE}<p><a href="/up/chart.png?sig=abc"><img src="/up/chart.png?sig=abc" alt="Tide heights in March"></a></p>` +
        `<p><a href="/up/pier-2048.JPG"><img src="/up/pier-640.jpg" alt="The north pier at low water"></a></p>` +
        `<p><a href="/walks/pier"><img src="/up/pier-map.png" alt="Map of the pier walk from the harbour office"></a></p>`,
    );
    expect(md).toContain('![Tide heights in March](https://shop.test/up/chart.png?sig=abc)\n');
    expect(md.split('chart.png').length - 1).toBe(1);
    expect(md).toContain('![The north pier at low water](https://shop.test/up/pier-640.jpg)');
    expect(md).not.toContain('pier-2048');
    // a picture linking to a page is a link to that page
    expect(md).toContain(
      '[![Map of the pier walk from the harbour office](https://shop.test/up/pier-map.png)](https://shop.test/walks/pier)',
    );
  });
});

/** The regexes the scanner replaced (fast on short inputs), as the reference. */
function byRegex(data: string, shortcodes: ReadonlySet<string>): string {
  const template = /\{\{[^{}\n]{0,300}\}\}|\{%[^\n]{0,300}?%\}|\{#[^\n]{0,300}?#\}/g;
  const quoted = /[a-z_][\w-]{0,40}[ \t]*=[ \t]*["'\u201c\u201d\u2033]/i;
  const tag = /\[\/?([a-z][a-z0-9_-]{0,40})(?:\s[^\]\n]{0,1000})?\]/g;
  const s = data.replace(template, '');
  return s.replace(tag, (m: string, name: string) => (shortcodes.has(name) || (m[1] !== '/' && quoted.test(m)) ? '' : m));
}

describe('pictures marked alt="" on landing, shop and grid pages', () => {
  const servicePage = (inner: string) =>
    `<html><head><title>Harbour Tours</title></head><body><main><h1>Harbour tours for groups</h1>${inner}` +
    '<section><h2>How it works</h2><p>Book a slot, meet the skipper at the north pontoon and sail for two hours around the bay.</p></section>' +
    '<section><h2>Pricing</h2><p>Groups of up to twelve pay one price; school groups get a discount on weekdays.</p></section>' +
    '<section><h2>FAQ</h2><p>Tours run in light rain; in strong wind we move your slot to another day at no cost.</p></section></main></body></html>';

  it('are decoration there (a background, an illustration); a picture with words, a figure or a link label stays', () => {
    const { markdown, metadata } = htmlToMarkdown(
      servicePage(
        '<img src="/bg/waves-2000.jpg" alt=""><p><img src="/img/boat.jpg" alt="Our boat, the Tern, at the pier"></p>' +
          '<figure><img src="/img/route.png" alt=""><figcaption>The route around the bay</figcaption></figure>' +
          '<p><a href="https://apps.test/harbour"><img src="/img/app-badge.png" alt=""></a></p>',
      ),
      'https://tours.test/',
    );
    expect(metadata.pageType).toBe('service');
    expect(markdown).not.toContain('waves-2000');
    expect(markdown).toContain('boat.jpg');
    expect(markdown).toContain('route.png');
    expect(markdown).toContain('app-badge.png');
  });

  it('a picture named like the heading beside it goes there (still listed); the h1 subject’s photo and a story’s stay', () => {
    const tile = (title: string, file: string) =>
      `<div class="tile"><img src="/img/${file}" alt="${title}"><div class="body"><h3>${title}</h3><p>Our skippers know every rock in the bay and every tern nest on the cliffs.</p></div></div>`;
    const page = servicePage(
      `<p><img src="/img/harbour-tours.jpg" alt="Harbour tours for groups"></p>${tile('Private charters', 'charter.jpg')}${tile('Sunset sails', 'sunset.jpg')}`,
    );
    const { markdown, images } = htmlToMarkdown(page, 'https://tours.test/', { images: true });
    expect(markdown).toContain('harbour-tours.jpg');
    expect(markdown).not.toContain('charter.jpg');
    expect(markdown).not.toContain('sunset.jpg');
    expect(markdown).toContain('### Private charters');
    expect(images?.map((i) => i.url)).toContain('https://tours.test/img/charter.jpg');
    const story = read(`${PROSE.repeat(3)}${tile('Private charters', 'charter.jpg')}${PROSE.repeat(3)}`);
    expect(story).toContain('charter.jpg');
  });

  it('a picture whose alt says what the short text beside it says goes there; one that says more stays', () => {
    const feature = (alt: string, file: string, caption: string) =>
      `<li><span class="ico"><img src="/img/${file}" alt="${alt}"></span><p>${caption}</p></li>`;
    const page = servicePage(
      `<ul>${feature('Free cancellation', 'cancel.svg', 'Free cancellation')}${feature('Skipper', 'skipper.svg', 'Skipper')}` +
        `${feature('Life jackets for every passenger', 'jackets.jpg', 'Life jackets')}</ul>`,
    );
    const { markdown, images } = htmlToMarkdown(page, 'https://tours.test/', { images: true });
    expect(markdown).not.toContain('cancel.svg');
    expect(markdown).not.toContain('skipper.svg');
    expect(markdown).toContain('jackets.jpg');
    expect(markdown).toContain('Free cancellation');
    expect(images?.map((i) => i.url)).toContain('https://tours.test/img/cancel.svg');
    const story = read(`${PROSE.repeat(3)}<ul>${feature('Skipper', 'skipper.svg', 'Skipper')}</ul>${PROSE.repeat(3)}`);
    expect(story).toContain('skipper.svg');
  });

  it('a wall of marks alone (a logo strip) goes there, a gallery keeps its first; linked, with words or in a story they stay', () => {
    const logos = (names: string[]) =>
      `<ul class="customers">${names.map((n) => `<li><img src="/img/c/${n}.svg" alt="${n}"></li>`).join('')}</ul>`;
    const names = ['Ferrybank', 'Gullwing', 'Saltmarsh', 'Tidewater', 'Northpier'];
    const page = servicePage(`<h2>Trusted by</h2>${logos(names)}`);
    const { markdown, images } = htmlToMarkdown(page, 'https://tours.test/', { images: true });
    for (const n of names) expect(markdown).not.toContain(`${n}.svg`);
    expect(images?.map((i) => i.url)).toContain('https://tours.test/img/c/Northpier.svg');
    const photos = `<div>${names.map((n) => `<div><img src="/img/g/${n}.jpg" alt="The tour boat moored at ${n} pier at dusk"></div>`).join('')}</div>`;
    const galleryMd = htmlToMarkdown(servicePage(photos), 'https://tours.test/').markdown;
    expect(galleryMd).toContain('Ferrybank.jpg');
    for (const n of names.slice(1)) expect(galleryMd).not.toContain(`${n}.jpg`);
    // each picture is the only label of its link: the links need them
    const linked = `<ul>${names.map((n) => `<li><a href="/boats/${n}"><img src="/img/b/${n}.svg" alt="${n}"></a></li>`).join('')}</ul>`;
    const links = htmlToMarkdown(servicePage(linked), 'https://tours.test/').markdown;
    for (const n of names) expect(links).toContain(`(https://tours.test/boats/${n})`);
    // each item also has words: cards, not a wall
    const cards = `<ul>${names.map((n) => `<li><img src="/img/boats/${n}.jpg" alt="${n}"><p>The ${n}, twelve seats</p></li>`).join('')}</ul>`;
    const withWords = htmlToMarkdown(servicePage(cards), 'https://tours.test/').markdown;
    for (const n of names) expect(withWords).toContain(`${n}.jpg`);
    const gallery = `<div class="gallery">${names.map((n) => `<figure><img src="/photos/${n}.jpg" alt="The ${n} at sea in a westerly"></figure>`).join('')}</div>`;
    const story = read(`${PROSE.repeat(3)}${gallery}${PROSE.repeat(3)}`);
    for (const n of names) expect(story).toContain(`${n}.jpg`);
    // pictures that say what they show, without figures: still the story's gallery
    const bare = `<div>${names.map((n) => `<img src="/photos/${n}-deck.jpg" alt="The deck of the ${n}">`).join('')}</div>`;
    const told = read(`${PROSE.repeat(3)}${bare}${PROSE.repeat(3)}`);
    for (const n of names) expect(told).toContain(`${n}-deck.jpg`);
  });

  it('a story keeps its bare picture (editors leave alts empty)', () => {
    const md = read(`${PROSE.repeat(3)}<p><img src="/photos/pier-at-dawn.jpg" alt=""></p>${PROSE.repeat(3)}`);
    expect(md).toContain('pier-at-dawn.jpg');
  });
});

describe('links to a place in the page itself', () => {
  it('are written as their text: citations, a contents list, a post title; a way-back arrow goes', () => {
    const md = read(
      `${PROSE}<p>Tides follow the moon<sup><a href="#fn1">1</a></sup>, as <a href="https://shop.test/a#sources">the sources</a> say [<a href="/a#b13">13</a>].</p>` +
        `<ol id="notes"><li id="fn1">Newton, Principia. <a href="#ref1">↩</a></li></ol>`,
    );
    expect(md).toContain('Tides follow the moon<sup>1</sup>, as the sources say [13].');
    expect(md).toContain('1. Newton, Principia.');
    expect(md).not.toContain('https://shop.test/a#');
    expect(md).not.toContain('↩');
  });

  it('the page itself, bare or with a trailing slash, and a card linking to a place in it are text', () => {
    const md = read(
      `${PROSE}<p>You are reading <a href="https://shop.test/a">this guide</a>, also at <a href="/a/">its own address</a>; <a href="/a?page=2">page two</a> goes on.</p>` +
        `<a href="#faq"><h3>Questions we hear</h3><p>Answers about tides and tickets.</p></a>${PROSE}`,
    );
    expect(md).toContain('You are reading this guide, also at its own address;');
    expect(md).toContain('[page two](https://shop.test/a?page=2)');
    expect(md).toContain('### Questions we hear');
    expect(md).not.toContain('https://shop.test/a)');
    expect(md).not.toContain('#faq');
  });

  it('links elsewhere, hash routes and a fragment under a <base> elsewhere stay links', () => {
    const md = read(
      `${PROSE}<p>See <a href="/b#tides">the tide page</a>, the <a href="#/inbox">inbox</a> view, the <a href="#!/item/4">item</a> and <a href="#">top</a>.</p>`,
    );
    expect(md).toContain('[the tide page](https://shop.test/b#tides)');
    expect(md).toContain('[inbox](https://shop.test/a#/inbox)');
    expect(md).toContain('[item](https://shop.test/a#!/item/4)');
    const based = htmlToMarkdown(
      `<html><head><base href="https://cdn.test/blog/"></head><body><article>${PROSE}<p>One <a href="#history">section</a> below.</p></article></body></html>`,
      'https://shop.test/a',
    ).markdown;
    expect(based).toContain('[section](https://cdn.test/blog/#history)');
  });
});

describe('unrendered markup', () => {
  it('shortcodes and placeholders go, the text they wrap stays; prose brackets stay', () => {
    const closed = new Set(['vc_row', 'vc_column']);
    expect(stripUnrendered('[vc_row type="full"][vc_column]Tents for two[/vc_column][/vc_row]', closed)).toBe('Tents for two');
    expect(stripUnrendered('Hello {{ customer.first_name }}, your order {% if paid %}is paid{% endif %}.', closed)).toBe(
      'Hello , your order is paid.',
    );
    expect(stripUnrendered('[button link="/buy"]Buy[/button]', new Set())).toBe('Buy[/button]');
    for (const prose of ['see [2] and [INST] here', 'a [note] in passing', '#tags and [links](x)', 'set {a, b}']) {
      expect(stripUnrendered(prose, closed)).toBe(prose);
    }
  });

  it('agrees with the regexes it replaced on generated text', () => {
    const alphabet = ['[', ']', '/', 'a', 'vc', ' ', '=', '"', "'", '{', '}', '%', '#', '\n', 'x', '_', '1'];
    const text = fc.array(fc.constantFrom(...alphabet), { maxLength: 30 }).map((a) => a.join(''));
    fc.assert(
      fc.property(text, fc.subarray(['a', 'vc', 'x']), (data, names) => {
        const set = new Set(names);
        expect(stripUnrendered(data, set)).toBe(byRegex(data, set));
      }),
      { numRuns: 4000 },
    );
  });

  it.each([
    ['[a [a [a … never closed', fill('[a ', 3 * MB)],
    ['[a x="1" … never closed', fill('[a x="1" ', 3 * MB)],
    ['{% {% … never closed', fill('{% ', 3 * MB)],
    ['{{ {{ … never closed', fill('{{ x ', 3 * MB)],
  ])('%s at 3 MB: linear (≤ 2 s CPU)', (_name, body) => {
    // Measured: 20-80 ms each (the regexes took seconds: each start read up to its bound).
    expect(cpuMs(() => stripUnrendered(body, new Set(['a'])))).toBeLessThan(2000);
  });
});
