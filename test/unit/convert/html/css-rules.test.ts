/**
 * The stylesheet reader behind the hidden-text check (issue 21): top-level rules only, with
 * comments, strings and escapes read as CSS reads them, in one linear pass.
 */
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { topLevelRules } from '../../../../src/convert/html/css-rules.js';
import { planVisibility } from '../../../../src/convert/html/visibility.js';

const rules = (css: string) => topLevelRules(css).map((r) => [r.selectors, Object.fromEntries(r.declarations)]);

describe('topLevelRules', () => {
  it('reads selectors and declarations, lower-cased, with !important dropped', () => {
    expect(rules('.a, #B > p { Display: NONE !important; color:#FFF }\nspan{font-size:0}')).toEqual([
      ['.a, #B > p', { display: 'none', color: '#fff' }],
      ['span', { 'font-size': '0' }],
    ]);
  });

  it('skips at-rules whole: media, supports, font-face, and statement at-rules', () => {
    const css = `@charset "utf-8"; @import url("x.css") screen;
      @media (max-width: 600px) { .m { display: none } .n { opacity: 0 } }
      @supports (display: grid) { @media print { .p { display: none } } }
      @font-face { font-family: X; src: url(x.woff) }
      .kept { visibility: hidden }`;
    expect(rules(css)).toEqual([['.kept', { visibility: 'hidden' }]]);
  });

  it('comments, strings and escapes never end a block or a declaration', () => {
    const css = `/* .c { display: none } */ .a /* note */ { content: "}; display: none"; color: red /* ; display:none */ }
      .b\\{ { font-size: 0 } .q[title='a{b}'] { opacity: 0 }`;
    expect(rules(css)).toEqual([
      ['.a', { content: '"}; display: none"', color: 'red' }],
      ['.b\\{', { 'font-size': '0' }],
      [".q[title='a{b}']", { opacity: '0' }],
    ]);
  });

  it('a semicolon inside parentheses is part of the value (data URLs)', () => {
    expect(rules('.i { background: url(data:image/png;base64,AAA); display: none }')).toEqual([
      ['.i', { background: 'url(data:image/png;base64,aaa)', display: 'none' }],
    ]);
  });

  it('nested rules are not the parent element’s declarations', () => {
    expect(rules('.card { color: red; .title { display: none } &:hover { opacity: 0 } margin: 0 }')).toEqual([
      ['.card', { color: 'red', margin: '0' }],
    ]);
  });

  it('stray braces, unclosed blocks and unclosed comments end cleanly', () => {
    expect(rules('} .a { display: none } } .b { opacity: 0')).toEqual([
      ['.a', { display: 'none' }],
      ['.b', { opacity: '0' }],
    ]);
    expect(rules('.a { display: none } /* never closed .b { opacity: 0 }')).toEqual([['.a', { display: 'none' }]]);
    expect(rules('')).toEqual([]);
  });

  it('reads hostile sheets in linear time', () => {
    // every shape that could make a scanner look back: braces, quotes, comments, parentheses
    for (const unit of ['{', '}', '"', "'", '/*', '(', '\\', '@x{', 'a{b:c;', 'a{(;']) {
      const css = unit.repeat((256 * 1024) / unit.length);
      const t0 = performance.now();
      topLevelRules(css);
      // generous: a linear pass over 256 KB takes a few ms; a quadratic one takes minutes
      expect(performance.now() - t0).toBeLessThan(2_000);
    }
  });
});

describe('sheet rules are matched as a browser would', () => {
  const hiddenBy = (html: string): string[] =>
    [...planVisibility(parseDocument(html)).bySheet].map(([el, why]) => `${el.attribs.id ?? el.name}:${why}`).sort();

  it('by class, id, tag, attribute and compound selectors, in one walk', () => {
    const html = `<style>.ghost{opacity:0} #gone{display:none} aside{visibility:hidden} [data-x="1"]{font-size:0}
      div.box > p.note{position:absolute;left:-9999px} *[hidden]{display:none} SECTION.Up{display:none}</style>
      <p class="a ghost" id="g1">x</p><div id="gone">x</div><aside id="as">x</aside><i data-x="1" id="dx">x</i>
      <div class="box"><p class="note" id="n1">x</p></div><p class="note" id="n2">x</p><b hidden id="h1">x</b>
      <section class="Up" id="s1">x</section><section class="up" id="s2">x</section>`;
    expect(hiddenBy(html)).toEqual([
      'as:sheet-ui',
      'dx:invisible',
      'g1:invisible',
      'gone:sheet-ui',
      'h1:sheet-ui',
      'n1:invisible',
      's1:sheet-ui',
    ]);
  });

  it('invisible wins over plain show/hide whatever the rule order', () => {
    const html =
      '<style>.t{display:none} .t{font-size:0}</style><p class="t" id="a">x</p><style>.u{opacity:0} .u{display:none}</style><p class="u" id="b">x</p>';
    expect(hiddenBy(html)).toEqual(['a:invisible', 'b:invisible']);
  });

  it('selectors a browser drops, states and pseudo-elements hide nothing', () => {
    const html = `<style>.14e05{display:none} #1a{display:none} .x::before{display:none} .y:hover{display:none}
      .z:focus-within .w{display:none} :unknown-pseudo(1){display:none} .ok\\:1{display:none}</style>
      <p class="14e05" id="d">x</p><p id="1a">x</p><p class="x" id="x">x</p><p class="y" id="y">x</p>
      <div class="z"><p class="w" id="w">x</p></div><p class="ok:1" id="ok">x</p>`;
    expect(hiddenBy(html)).toEqual(['ok:sheet-ui']);
  });

  it('rules do not reach into a template’s inert content', () => {
    const html = '<style>.v{display:none}</style><template><p class="v" id="in">x</p></template><p class="v" id="out">x</p>';
    expect(hiddenBy(html)).toEqual(['out:sheet-ui']);
  });
});
