import { describe, expect, it } from 'vitest';
import { jsonToMarkdown, reindent } from '../../../src/convert/formats/json.js';
import { MAX_MARKDOWN_CHARS } from '../../../src/convert/markdown.js';

describe('jsonToMarkdown', () => {
  it('pretty-prints into a json fence, keeping numbers and escapes as sent', () => {
    const { markdown, warnings } = jsonToMarkdown('{"n":12345678901234567890,"f":1.50,"s":"a\\"b\\u00e9","e":[],"o":{}}');
    expect(markdown).toBe(
      '```json\n{\n  "n": 12345678901234567890,\n  "f": 1.50,\n  "s": "a\\"b\\u00e9",\n  "e": [],\n  "o": {}\n}\n```\n',
    );
    expect(warnings).toEqual([]);
  });

  it('keeps strings with brackets, commas and colons intact', () => {
    expect(reindent('["a,b:[c]{d}", 1]', 1000).text).toBe('[\n  "a,b:[c]{d}",\n  1\n]');
  });

  it('uses a longer fence when the JSON holds backtick runs', () => {
    expect(jsonToMarkdown('["```"]').markdown.startsWith('````json\n')).toBe(true);
  });

  it('shows invalid JSON as text with INVALID_JSON', () => {
    const { markdown, warnings } = jsonToMarkdown('{"a": [1,,2]');
    expect(markdown).toBe('```text\n{"a": [1,,2]\n```\n');
    expect(warnings.map((w) => w.code)).toEqual(['INVALID_JSON']);
  });

  it('takes title and description hints from a top-level object', () => {
    expect(jsonToMarkdown('{"name":"pkg","description":"d"}').hints).toEqual({ title: 'pkg', description: 'd' });
    expect(jsonToMarkdown('[{"name":"x"}]').hints).toEqual({ title: null, description: null });
  });

  it('bounds a 10 MB single-line array with TRUNCATED and a closed fence', () => {
    const big = `[${Array.from({ length: 1_400_000 }, (_, i) => i).join(',')}]`;
    expect(big.length).toBeGreaterThan(9_000_000);
    const { markdown, warnings } = jsonToMarkdown(big);
    expect(markdown.length).toBeLessThan(MAX_MARKDOWN_CHARS + 100);
    expect(markdown.endsWith('…\n```\n')).toBe(true);
    expect(warnings.map((w) => w.code)).toEqual(['TRUNCATED']);
  });

  it('does not pretty-print pathological nesting (indentation would explode)', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const { markdown, warnings } = jsonToMarkdown(deep);
    expect(warnings.map((w) => w.code)).toEqual(['JSON_TOO_DEEP']);
    expect(markdown.length).toBeLessThan(250_000);
  });
});

describe('JSON Lines', () => {
  it('keeps one record per line in a json fence, without INVALID_JSON', () => {
    const { markdown, warnings } = jsonToMarkdown('{"a":1}\n{"a":2}\n\n[3]\n');
    expect(markdown).toBe('```json\n{"a":1}\n{"a":2}\n[3]\n```\n');
    expect(warnings).toEqual([]);
  });
});
