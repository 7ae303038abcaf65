/**
 * dom.ts speeds up htmlparser2's tokenizer by replacing two of its internal steps (a
 * character-at-a-time skip to `<`, and the per-character text and attribute-value states).
 * They must give exactly the token stream of the unpatched tokenizer — on any input, and on
 * whatever htmlparser2 version the lock file installs (a release that renames these internals
 * fails here, not in production).
 */
import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { fastForwardByIndexOf, skipPlainRuns } from '../../../../src/convert/html/dom.js';

const OPTIONS = { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true } as const;

/** Every callback the parser makes, in order, with its arguments. */
function events(html: string, patch: boolean): string[] {
  const log: string[] = [];
  const record =
    (name: string) =>
    (...args: unknown[]): void => {
      log.push(`${name}:${JSON.stringify(args)}`);
    };
  const handler = Object.fromEntries(
    ['onopentag', 'onclosetag', 'ontext', 'oncomment', 'oncdatastart', 'oncdataend', 'onprocessinginstruction', 'onattribute'].map((n) => [
      n,
      record(n),
    ]),
  );
  const parser = new Parser(handler, OPTIONS);
  if (patch) {
    fastForwardByIndexOf(parser);
    skipPlainRuns(parser);
  }
  parser.end(html);
  return log;
}

const PIECES = [
  '<',
  '>',
  '&',
  '&amp;',
  '&lt',
  '&#x41;',
  '&nbsp',
  '"',
  "'",
  '=',
  '/',
  '-',
  '--',
  '!',
  '?',
  ']',
  ']]>',
  ' ',
  '\n',
  'a',
  'p',
  'div',
  'x y',
];
const TAGS = [
  '<p>',
  '</p>',
  '<a href="',
  "<a href='",
  '<img alt=',
  '<script>',
  '</script>',
  '<style>',
  '</style>',
  '<!--',
  '-->',
  '<![CDATA[',
  '<title>',
  '</title>',
  '<textarea>',
  '<svg>',
  '</svg>',
  '<b class="c">',
];

describe('tokenizer shortcuts', () => {
  it('give the unpatched token stream on real-looking pages', () => {
    const page = `<!doctype html><html><head><title>Tides &amp; times</title><style>p{color:red}</style>
      <script>if (a < b && c > d) { x = "</div>"; }</script></head><body><!-- note --><p class="a" data-x='1 & 2'>Fish &amp; chips &lt;3 &copy 2025</p>
      <a href="/q?a=1&b=2">link</a><textarea>raw &amp; <b>text</b></textarea><svg><![CDATA[ x < y ]]></svg></body></html>`;
    expect(events(page, true)).toEqual(events(page, false));
  });

  it('give the unpatched token stream on any mix of markup pieces', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES, ...TAGS, 'plain words of text'), { maxLength: 60 }), (parts) => {
        const html = parts.join('');
        expect(events(html, true)).toEqual(events(html, false));
      }),
      { numRuns: 400 },
    );
  });

  it('give the unpatched token stream on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (html) => {
        expect(events(html, true)).toEqual(events(html, false));
      }),
      { numRuns: 400 },
    );
  });
});
