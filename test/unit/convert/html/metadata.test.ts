import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../../src/convert/html/index.js';
import { cleanTitle } from '../../../../src/convert/html/metadata.js';

const BODY =
  '<body><article><p>Some article text that is long enough to be the main content of this page, with a comma, and more.</p></article></body>';

describe('metadata', () => {
  it('cleans the site name off <title>', () => {
    expect(cleanTitle('Council approves cycle lanes | The Courier', null)).toBe('Council approves cycle lanes');
    expect(cleanTitle('The Courier - Council approves new cycle lanes for the centre', 'The Courier')).toBe(
      'Council approves new cycle lanes for the centre',
    );
    expect(cleanTitle('Pros and cons - a balanced view of everything here', null)).toBe(
      'Pros and cons - a balanced view of everything here',
    );
    expect(cleanTitle('京都の紅葉、今年は例年より一週間遅れ - 関西ニュース', null)).toBe('京都の紅葉、今年は例年より一週間遅れ');
  });

  it('prefers og:title, then <title>, then the first h1', () => {
    const og = htmlToMarkdown(
      `<html><head><meta property="og:title" content="OG"><title>T | Site</title></head>${BODY}</html>`,
      'https://x.test/',
    );
    expect(og.metadata.title).toBe('OG');
    const t = htmlToMarkdown(`<html><head><title>Headline here | Site</title></head>${BODY}</html>`, 'https://x.test/');
    expect(t.metadata.title).toBe('Headline here');
    const h1 = htmlToMarkdown(`<html><body><h1>Only heading</h1>${BODY}</body></html>`, 'https://x.test/');
    expect(h1.metadata.title).toBe('Only heading');
  });

  it('reads author, date and site name from JSON-LD', () => {
    const ld =
      '{"@context":"https://schema.org","@graph":[{"@type":"NewsArticle","headline":"H","author":[{"name":"A. One"},{"name":"B. Two"}],"datePublished":"2026-01-02T03:04:05Z","publisher":{"name":"Pub"}}]}';
    const r = htmlToMarkdown(`<html><head><script type="application/ld+json">${ld}</script></head>${BODY}</html>`, 'https://x.test/');
    expect(r.metadata).toMatchObject({ title: 'H', author: 'A. One, B. Two', publishedAt: '2026-01-02T03:04:05Z', siteName: 'Pub' });
  });

  it('survives broken JSON-LD', () => {
    const r = htmlToMarkdown(
      `<html><head><script type="application/ld+json">{"@type": "Article", </script><title>Fine</title></head>${BODY}</html>`,
      'https://x.test/',
    );
    expect(r.metadata.title).toBe('Fine');
  });

  it('falls back to the first paragraph for the description', () => {
    const r = htmlToMarkdown(`<html>${BODY}</html>`, 'https://x.test/');
    expect(r.metadata.description).toBe(
      'Some article text that is long enough to be the main content of this page, with a comma, and more.',
    );
  });

  it('always has title, description and language keys', () => {
    const r = htmlToMarkdown('', 'https://x.test/');
    expect(r.metadata).toEqual({ title: null, description: null, language: null, pageType: 'other' });
  });
});
