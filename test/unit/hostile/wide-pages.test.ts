/**
 * Pages a few MB wide rather than deep: hundreds of thousands of sibling elements. Any
 * `array.push(...children)` passes each child as an argument on the stack and overflowed it
 * (EXTRACTION_FAILED on a page a browser shows without trouble); the engine appends in
 * loops (dom.ts pushAll). Bounds are ~10x the measured CPU time, so only a stall breaks them.
 */
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/convert/html/index.js';
import { cpuMs, fill, MB } from './cpu.js';

const WIDE: Array<[string, string, string]> = [
  ['tiny paragraphs', '<p>a</p>', '<html><body><main>'],
  ['tiny list items', '<li>a</li>', '<html><body><main><ul>'],
  ['tiny divs in the body', '<div>a b</div>', '<html><body>'],
  ['table cells in one row', '<td>a</td>', '<html><body><table><tr>'],
  ['definition terms and descriptions', '<dt>a</dt><dd>b</dd>', '<html><body><main><dl>'],
];

describe('3 MB pages of sibling elements convert (no stack overflow), in linear time', () => {
  for (const [name, unit, prefix] of WIDE) {
    it(`${name}: converted within 30 s of CPU (2–5 s measured on a loaded machine)`, () => {
      const html = fill(unit, 3 * MB, prefix);
      let markdown = '';
      const ms = cpuMs(() => {
        markdown = htmlToMarkdown(html, 'https://wide.example/').markdown;
      });
      expect(markdown.length).toBeGreaterThan(100_000);
      expect(ms).toBeLessThan(30_000);
    });
  }
});
