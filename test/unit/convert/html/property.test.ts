import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isServiceError } from '../../../../src/errors.js';
import { htmlToMarkdown } from '../../../../src/convert/html/index.js';

/** Random HTML: a tree of real tags, attributes that matter to us, text with markup characters. */
const TAGS = [
  'div',
  'p',
  'span',
  'a',
  'ul',
  'ol',
  'li',
  'table',
  'tr',
  'td',
  'th',
  'pre',
  'code',
  'h1',
  'h2',
  'blockquote',
  'em',
  'strong',
  'img',
  'br',
  'script',
  'style',
  'math',
  'sup',
  'dl',
  'dt',
  'dd',
  'details',
  'summary',
  'nav',
  'article',
  'main',
  'section',
  'noscript',
  'svg',
  'template',
];
const ATTRS = [
  'class="content"',
  'class="sidebar"',
  'class="language-js"',
  'href="/x"',
  'href="javascript:x()"',
  'src="data:x"',
  'srcset="a.png 1x, b.png 2x"',
  'hidden',
  'style="display:none"',
  'colspan="3"',
  'start="5"',
  'aria-hidden="true"',
  'id="root"',
];
const SECRET = 'SECRET_SCRIPT_PAYLOAD';

const text = fc.string({
  unit: fc.constantFrom('a', ' ', '*', '_', '`', '|', '#', '<', '>', '&', '\n', 'é', '😀', '\u0000', '\ud800', '[', ']', '$'),
  maxLength: 20,
});
const node: fc.Memo<string> = fc.memo((depth) =>
  depth <= 1
    ? text
    : fc.oneof(
        text,
        fc
          .record({
            tag: fc.constantFrom(...TAGS),
            attrs: fc.array(fc.constantFrom(...ATTRS), { maxLength: 2 }),
            kids: fc.array(node(depth - 1), { maxLength: 4 }),
            close: fc.boolean(),
          })
          .map(({ tag, attrs, kids, close }) => {
            const inner = tag === 'script' ? `var s = "${SECRET}";` : kids.join('');
            return `<${tag}${attrs.length ? ` ${attrs.join(' ')}` : ''}>${inner}${close || tag === 'script' ? `</${tag}>` : ''}`;
          }),
      ),
);
const page = fc.oneof(
  node(6),
  fc.string({ maxLength: 200 }),
  fc.array(node(5), { maxLength: 6 }).map((parts) => `<html><body>${parts.join('')}</body></html>`),
);

describe('property: any HTML', () => {
  it('never throws (except EXTRACTION_FAILED), gives valid UTF-8 and no script content', () => {
    fc.assert(
      fc.property(page, (html) => {
        let md: string;
        try {
          md = htmlToMarkdown(html, 'https://x.test/a/').markdown;
        } catch (err) {
          return isServiceError(err) && err.code === 'EXTRACTION_FAILED';
        }
        expect(Buffer.from(md, 'utf8').toString('utf8')).toBe(md);
        expect(md).not.toContain(SECRET);
        expect(md).not.toMatch(/<script/i);
        expect(md).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
        return true;
      }),
      { numRuns: 400, seed: 5 },
    );
  });
});
