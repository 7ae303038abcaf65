import { describe, expect, it } from 'vitest';
import { escapeLineStart, escapeText, inlineCode } from '../../../../src/convert/html/markdown-escape.js';

describe('minimal escaping', () => {
  it('leaves ordinary prose alone', () => {
    for (const s of ['snake_case_name', '2 * 3 = 6', 'a < b', 'AT&T', 'C# and F#', 'cost: $5', 'a ~ b']) {
      expect(escapeText(s)).toBe(s);
    }
  });

  it('escapes what would become emphasis, code, HTML or entities', () => {
    expect(escapeText('*stars*')).toBe('\\*stars\\*');
    expect(escapeText('_under_')).toBe('\\_under\\_');
    expect(escapeText('use `x`')).toBe('use \\`x\\`');
    expect(escapeText('<div>')).toBe('\\<div>');
    expect(escapeText('&copy;')).toBe('\\&copy;');
    expect(escapeText('~~gone~~')).toBe('\\~\\~gone\\~\\~');
    expect(escapeText('~struck~')).toBe('\\~struck\\~');
    expect(escapeText('[a](b)')).toBe('[a\\](b)');
  });

  it('escapes block syntax only at the start of a line', () => {
    expect(escapeLineStart('# not a heading')).toBe('\\# not a heading');
    expect(escapeLineStart('1. not a list')).toBe('1\\. not a list');
    expect(escapeLineStart('- not a bullet')).toBe('\\- not a bullet');
    expect(escapeLineStart('> not a quote')).toBe('\\> not a quote');
    expect(escapeLineStart('---')).toBe('\\---');
    expect(escapeLineStart('#hashtag')).toBe('#hashtag');
    expect(escapeLineStart('2024 was a year')).toBe('2024 was a year');
  });

  it('fences inline code around backtick runs', () => {
    expect(inlineCode('plain')).toBe('`plain`');
    expect(inlineCode('a`b')).toBe('``a`b``');
    expect(inlineCode('`')).toBe('`` ` ``');
    expect(inlineCode('  ')).toBe('');
  });
});
