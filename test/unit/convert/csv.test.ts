import { describe, expect, it } from 'vitest';
import { MAX_COLUMNS, MAX_ROWS, csvToMarkdown, hasHeader, parseRows, sniffDialect } from '../../../src/convert/formats/csv.js';
import { MAX_MARKDOWN_CHARS } from '../../../src/convert/markdown.js';

describe('sniffDialect', () => {
  it.each([
    ['a,b,c\n1,2,3\n4,5,6', ','],
    ['a;b;c\n1,5;2;3\n4;5;6', ';'],
    ['a\tb\n1\t2', '\t'],
    ['a|b|c\n1|2|3', '|'],
    ['"x, y";z\n"1, 2";3\n"4, 5";6', ';'],
  ])('%j → %j', (text, delimiter) => {
    expect(sniffDialect(text).delimiter).toBe(delimiter);
  });

  it('detects single-quoted fields', () => {
    expect(sniffDialect("'a,b',c\n'd,e',f")).toEqual({ delimiter: ',', quote: "'" });
  });
});

describe('parseRows', () => {
  it('handles quotes, doubled quotes, CRLF and newlines inside fields', () => {
    const { rows } = parseRows('a,"b ""q"", c"\r\n"multi\nline",x\r\n', { delimiter: ',', quote: '"' });
    expect(rows).toEqual([
      ['a', 'b "q", c'],
      ['multi\nline', 'x'],
    ]);
  });
});

describe('hasHeader', () => {
  it('sees a header over numeric columns', () => {
    expect(
      hasHeader([
        ['name', 'age'],
        ['ada', '36'],
        ['alan', '41'],
      ]),
    ).toBe(true);
  });
  it('sees no header when the first row is numeric or like the rest', () => {
    expect(
      hasHeader([
        ['1', '2'],
        ['3', '4'],
      ]),
    ).toBe(false);
    expect(
      hasHeader([
        ['x', ''],
        ['y', 'z'],
      ]),
    ).toBe(false);
  });
});

describe('csvToMarkdown', () => {
  it('pads ragged rows, escapes pipes and backslashes, turns newlines into <br>', () => {
    const { markdown } = csvToMarkdown('h1,h2,h3\n1,a|b\n2,"x\ny",c\\d,extra\n');
    expect(markdown).toBe(
      ['| h1 | h2 | h3 |  |', '| --- | --- | --- | --- |', '| 1 | a\\|b |  |  |', '| 2 | x<br>y | c\\\\d | extra |', ''].join('\n'),
    );
  });

  it('renders an empty header row when the file has none', () => {
    expect(csvToMarkdown('1,2\n3,4\n').markdown.split('\n')[0]).toBe('|  |  |');
  });

  it('bounds a million-column row with TRUNCATED', () => {
    const wide = `${Array.from({ length: 1_000_000 }, (_, i) => `c${i}`).join(',')}\n${Array.from({ length: 1_000_000 }, () => '1').join(',')}\n`;
    const result = csvToMarkdown(wide);
    expect(result.columns).toBe(MAX_COLUMNS);
    expect(result.warnings.map((w) => w.code)).toContain('TRUNCATED');
    expect(result.warnings[0]?.message).toContain('1000000 columns');
    expect(result.markdown.length).toBeLessThan(10_000);
  });

  it('bounds rows with TRUNCATED', () => {
    const long = `id,v\n${Array.from({ length: MAX_ROWS + 10 }, (_, i) => `${i},x`).join('\n')}\n`;
    const result = csvToMarkdown(long);
    expect(result.rows).toBeLessThanOrEqual(MAX_ROWS);
    expect(result.warnings.map((w) => w.code)).toContain('TRUNCATED');
    expect(result.markdown.length).toBeLessThan(MAX_MARKDOWN_CHARS);
  });
});
