import { describe, expect, it } from 'vitest';
import type { PdfPage, PdfTextItem } from '../../../src/convert/pdf/pdf-layout.js';
import { layoutPdf } from '../../../src/convert/pdf/pdf-layout.js';

/** A run of text at (x, baseline y) in a 10-unit font; width ~0.5 units per char. */
const run = (x: number, y: number, text: string, size = 10): PdfTextItem => ({
  x,
  y,
  width: text.length * size * 0.5,
  size,
  text,
  rotated: false,
});
const page = (items: PdfTextItem[]): PdfPage => ({ width: 612, height: 792, items });

describe('layoutPdf', () => {
  it('reads two columns one after the other, not interleaved', () => {
    const items: PdfTextItem[] = [];
    for (let i = 0; i < 8; i++) {
      items.push(run(72, 100 + i * 12, `left line ${i} words`));
      items.push(run(320, 100 + i * 12, `right line ${i} words`));
    }
    const { markdown } = layoutPdf([page(items)]);
    expect(markdown.indexOf('left line 7')).toBeLessThan(markdown.indexOf('right line 0'));
    expect(markdown).toContain('left line 0 words left line 1 words');
  });

  it('joins words hyphenated across lines, keeps real hyphens mid-line', () => {
    const { markdown } = layoutPdf([page([run(72, 100, 'a well-known exam-'), run(72, 112, 'ple of text')])]);
    expect(markdown).toBe('a well-known example of text\n');
  });

  it('makes headings from larger fonts, levels by size', () => {
    const { markdown, firstHeading } = layoutPdf([
      page([run(72, 80, 'Title', 24), run(72, 120, 'Section', 16), run(72, 150, 'Body text here.'), run(72, 162, 'More body text.')]),
    ]);
    expect(markdown).toBe('# Title\n\n## Section\n\nBody text here. More body text.\n');
    expect(firstHeading).toBe('Title');
  });

  it('splits paragraphs at larger vertical gaps', () => {
    const { markdown } = layoutPdf([
      page([run(72, 100, 'First one.'), run(72, 112, 'Still first.'), run(72, 140, 'Second.'), run(72, 152, 'Still second.')]),
    ]);
    expect(markdown).toBe('First one. Still first.\n\nSecond. Still second.\n');
  });

  it('turns bullet glyphs into list items and escapes Markdown at block starts', () => {
    const { markdown } = layoutPdf([page([run(72, 100, '• one'), run(72, 112, '• two'), run(72, 140, '# not a heading')])]);
    expect(markdown).toBe('- one\n- two\n\n\\# not a heading\n');
  });

  it('marks page breaks and reports empty pages', () => {
    const result = layoutPdf([page([run(72, 100, 'one')]), page([]), page([run(72, 100, 'three')])]);
    expect(result.markdown).toBe('one\n\n<!-- page 2 -->\n\n<!-- page 3 -->\n\nthree\n');
    expect(result.emptyPages).toEqual([2]);
  });
});

describe('layoutPdf across pages', () => {
  it('continues a sentence over a page break, the marker after the paragraph', () => {
    const { markdown } = layoutPdf([
      page([run(72, 100, 'Intro.'), run(72, 130, 'This sentence runs over')]),
      page([run(72, 100, 'the page break.'), run(72, 130, 'Next one.')]),
    ]);
    expect(markdown).toBe('Intro.\n\nThis sentence runs over the page break.\n\n<!-- page 2 -->\n\nNext one.\n');
  });
});

describe('layoutPdf, scripts without spaces', () => {
  it('joins CJK lines without a space', () => {
    const { markdown } = layoutPdf([page([run(72, 100, '日本語の文章は'), run(72, 112, '空白なしで続く。')])]);
    expect(markdown).toBe('日本語の文章は空白なしで続く。\n');
  });
});

describe('layoutPdf, fixed-pitch text', () => {
  const mono = (x: number, y: number, text: string): PdfTextItem => ({ ...run(x, y, text), mono: true });

  it('keeps a variable-width run glued between fixed-pitch runs inside one code span', () => {
    const { markdown } = layoutPdf([
      page([run(72, 100, 'Use'), mono(92, 100, '"'), run(97, 100, 'YYMMDD'), mono(127, 100, '"'), run(135, 100, 'here.')]),
    ]);
    expect(markdown).toBe('Use `"YYMMDD"` here.\n');
  });

  it('makes whole fixed-pitch lines a fenced block with indentation', () => {
    const { markdown } = layoutPdf([
      page([run(72, 100, 'Example:'), mono(72, 116, 'if (x) {'), mono(84, 128, 'y();'), mono(72, 140, '}'), run(72, 170, 'Done.')]),
    ]);
    expect(markdown).toBe('Example:\n\n```\nif (x) {\n  y();\n}\n```\n\nDone.\n');
  });

  it('joins an all-capitals word hyphenated over a line', () => {
    const { markdown } = layoutPdf([page([run(72, 100, 'If it is OP-'), run(72, 112, 'TIONAL, skip it.')])]);
    expect(markdown).toBe('If it is OPTIONAL, skip it.\n');
  });
});

describe('layoutPdf, tables', () => {
  const mono = (x: number, y: number, text: string): PdfTextItem => ({ ...run(x, y, text), mono: true });

  it('turns rows of aligned short cells into a GFM table, pipes escaped', () => {
    const items = [run(72, 80, 'Intro paragraph that is long enough to span the page width easily.')];
    [
      ['Name', 'Qty'],
      ['a|b', '1'],
      ['c', '22'],
    ].forEach((row, i) => row.forEach((cell, j) => items.push(run(72 + j * 150, 110 + i * 14, cell))));
    const { markdown } = layoutPdf([page(items)]);
    expect(markdown).toBe(
      'Intro paragraph that is long enough to span the page width easily.\n\n| Name | Qty |\n| --- | --- |\n| a\\|b | 1 |\n| c | 22 |\n',
    );
  });

  it('keeps aligned fixed-pitch columns as code, spacing preserved', () => {
    const items = [0, 1, 2].flatMap((i) => [mono(72, 100 + i * 12, `-${i}`), mono(132, 100 + i * 12, `option ${i}`)]);
    const { markdown } = layoutPdf([page(items)]);
    expect(markdown).toBe('```\n-0          option 0\n-1          option 1\n-2          option 2\n```\n');
  });

  it('never reads two columns of running text as a table', () => {
    const items: PdfTextItem[] = [];
    for (let i = 0; i < 8; i++) {
      items.push(run(72, 100 + i * 12, `left column prose line number ${i} with words`));
      items.push(run(320, 100 + i * 12, `right column prose line number ${i} with words`));
    }
    expect(layoutPdf([page(items)]).markdown).not.toContain('|');
  });
});
