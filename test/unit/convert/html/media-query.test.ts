import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../../src/convert/html/index.js';
import { mediaAppliesOnDesktop } from '../../../../src/convert/html/media-query.js';

describe('mediaAppliesOnDesktop', () => {
  it('applies sheets for every screen and for wide screens', () => {
    for (const q of [
      undefined,
      '',
      'all',
      'screen',
      'only screen',
      '(min-width: 1080px)',
      'all and (min-width: 64em)',
      'screen and (max-width: 1600px)',
    ])
      expect(mediaAppliesOnDesktop(q), String(q)).toBe(true);
  });

  it('does not apply sheets for phones, tablets, print or what it cannot read', () => {
    for (const q of [
      '(max-width: 767px)',
      'all and (min-width: 904px) and (max-width: 1079.98px)',
      'print',
      'speech',
      '(prefers-color-scheme: dark)',
      'screen and (min-resolution: 2dppx)',
      '(min-width: calc(100px + 2em))',
    ])
      expect(mediaAppliesOnDesktop(q), q).toBe(false);
  });

  it('reads lists and negations', () => {
    expect(mediaAppliesOnDesktop('print, (min-width: 900px)')).toBe(true);
    expect(mediaAppliesOnDesktop('not all and (max-width: 600px)')).toBe(true);
    expect(mediaAppliesOnDesktop('not print')).toBe(true);
    expect(mediaAppliesOnDesktop('not screen and (min-width: 600px)')).toBe(false);
  });
});

describe('per-breakpoint style sheets', () => {
  // CSS-in-JS pages: one <style media> per breakpoint, a copy of the layout for each width.
  const teaser = (title: string): string =>
    `<article><h2><a href="/posts/${title.length}">${title}</a></h2><p>A short line about what the post covers and who wrote it for the team.</p></article>`;
  const titles = ['Moving our queues to a new broker', 'What we learned from a year of canaries', 'Rewriting the image pipeline in Rust'];
  const html =
    '<html><head><title>Engineering blog</title>' +
    '<style media="all and (min-width: 1080px)">.m1{display:none}</style>' +
    '<style media="all and (max-width: 1079.98px)">.d1{display:none}</style>' +
    '</head><body><main>' +
    `<div class="d1">${titles.map(teaser).join('')}</div>` +
    `<div class="m1"><p>Phone layout: ${titles.join(' / ')}</p></div>` +
    '</main></body></html>';

  it('reads the page as a desktop screen shows it', () => {
    const md = htmlToMarkdown(html, 'https://blog.example.com/').markdown;
    for (const t of titles) expect(md).toContain(t);
    expect(md).not.toContain('Phone layout');
  });
});
