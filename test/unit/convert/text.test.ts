import { describe, expect, it } from 'vitest';
import { looksLikeCode, markdownPassthrough, plainTextToMarkdown } from '../../../src/convert/formats/text.js';
import { firstParagraph } from '../../../src/convert/markdown.js';

describe('plainTextToMarkdown', () => {
  it('returns prose as is (CRLF normalised)', () => {
    expect(plainTextToMarkdown('Hello\r\n\r\nWorld\r\n', 'text/plain', '').markdown).toBe('Hello\n\nWorld\n');
  });
  it('fences code by media type, by URL extension, and by shape', () => {
    expect(plainTextToMarkdown('a { color: red }', 'text/css', '').markdown).toBe('```css\na { color: red }\n```\n');
    expect(plainTextToMarkdown('x = 1', 'text/plain', 'py').markdown).toBe('```python\nx = 1\n```\n');
    expect(plainTextToMarkdown('int main() {\n  return 0;\n}\n', 'text/plain', '').markdown.startsWith('```\n')).toBe(true);
  });
  it('tells code from prose', () => {
    expect(looksLikeCode('import os\nimport sys\n\ndef main():\n    return 1\n')).toBe(true);
    expect(looksLikeCode('Dear reader,\nthis is a letter.\nRegards,\nMe')).toBe(false);
  });
});

describe('markdownPassthrough', () => {
  it('keeps Markdown and takes the title from the first heading', () => {
    const result = markdownPassthrough('Intro\n\n# Real title\n\ntext');
    expect(result.markdown).toBe('Intro\n\n# Real title\n\ntext\n');
    expect(result.title).toBe('Real title');
  });
  it('prefers a setext heading that comes first', () => {
    expect(markdownPassthrough('Title\n=====\n\n# Later').title).toBe('Title');
  });
});

describe('firstParagraph', () => {
  it('skips headings, fences, comments and lists', () => {
    expect(firstParagraph('# H\n\n```\ncode\n\nmore\n```\n\n<!-- page 2 -->\n\n- a\n- b\n\nThe *real* [one](x).')).toBe('The real one.');
  });
  it('clips long paragraphs at a word', () => {
    const text = firstParagraph('word '.repeat(200)) ?? '';
    expect(text.length).toBeLessThanOrEqual(301);
    expect(text.endsWith('…')).toBe(true);
  });
});
