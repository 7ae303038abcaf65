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

/** Distinct pictures, one per item, under one parent: `count` items of `unit(i)`. */
function items(unit: (i: number) => string, count: number): string {
  return Array.from({ length: count }, (_, i) => unit(i)).join('');
}

describe('pictures by the ten thousand on a landing page (lean rules read a bounded few siblings each)', () => {
  const shapes: Array<[string, string]> = [
    ['one list of 60,000 logos', `<ul>${items((i) => `<li><img src="/l/${i}.svg" alt="Maker ${i}"></li>`, 60_000)}</ul>`],
    [
      '40,000 pictures beside their captions',
      items((i) => `<div class="c"><div><img src="/i/${i}.png" alt="Brand ${i}"></div><p>Brand ${i}</p></div>`, 40_000),
    ],
  ];
  for (const [name, body] of shapes) {
    it(`${name}: converted within 15 s of CPU (about 1 s measured)`, () => {
      const html = `<html><body><main><h1>Partners</h1>${body}</main></body></html>`;
      let markdown = '';
      const ms = cpuMs(() => {
        markdown = htmlToMarkdown(html, 'https://wide.example/partners', { pageType: 'service' }).markdown;
      });
      expect(markdown.length).toBeGreaterThan(100_000);
      expect(ms).toBeLessThan(15_000);
    });
  }
});
