import { describe, expect, it } from 'vitest';
import { parseHtmlString } from '../../../src/ops/html-page.js';
import type { ScoreSignals } from '../../../src/ops/score-rubric.js';
import { computeScore, gradeOf } from '../../../src/ops/score-rubric.js';
import { sitemapLines } from '../../../src/ops/score.js';

const URL_ = 'https://example.com/docs/page';
const none: ScoreSignals = { url: URL_, page: null, robots: null, llms: null, sitemap: null, markdown: null };
const points = (s: ScoreSignals): Record<string, number> => Object.fromEntries(computeScore(s).checks.map((c) => [c.id, c.points]));
const text = (status: number, body: string, contentType: string | null = 'text/plain') => ({ status, contentType, text: body });

describe('score rubric', () => {
  it('grades by value', () => {
    expect([100, 90, 89, 80, 79, 70, 69, 60, 59, 0].map(gradeOf)).toEqual(['A', 'A', 'B', 'B', 'C', 'C', 'D', 'D', 'F', 'F']);
  });

  it('a non-HTML document with every probe failing scores 0 and explains each check', () => {
    const score = computeScore(none);
    expect(score.value).toBe(0);
    expect(score.grade).toBe('F');
    expect(score.checks.map((c) => c.maxPoints).reduce((a, b) => a + b)).toBe(100);
    expect(score.checks.find((c) => c.id === 'title')?.detail).toBe('the document is not an HTML page');
    expect(score.checks.find((c) => c.id === 'ai_crawlers')?.detail).toContain('disallow all');
  });

  it('robots.txt: 4xx allows all, 5xx disallows all, rules per AI crawler on the page path', () => {
    expect(points({ ...none, robots: text(404, '') }).ai_crawlers).toBe(10);
    expect(points({ ...none, robots: text(503, '') }).ai_crawlers).toBe(0);
    expect(points({ ...none, robots: text(200, 'User-agent: GPTBot\nDisallow: /docs/\n') }).ai_crawlers).toBe(8);
    expect(points({ ...none, robots: text(200, 'User-agent: GPTBot\nDisallow: /blog/\n') }).ai_crawlers).toBe(10);
    expect(points({ ...none, robots: text(200, 'User-agent: *\nDisallow: /\n') }).ai_crawlers).toBe(0);
  });

  it('llms.txt: well-formed 10, present but malformed 5, HTML or missing 0', () => {
    expect(points({ ...none, llms: text(200, '# Site\n\n- [A](https://a.example/a.md)\n') }).llms_txt).toBe(10);
    expect(points({ ...none, llms: text(200, '\uFEFF\n# Site\n> x\n\n## Docs\n- [A](/a.md): a\n') }).llms_txt).toBe(10);
    expect(points({ ...none, llms: text(200, 'Site\n- [A](/a)\n') }).llms_txt).toBe(5);
    expect(points({ ...none, llms: text(200, '# Site only\n') }).llms_txt).toBe(5);
    expect(points({ ...none, llms: text(200, '<!DOCTYPE html><p>x</p>', 'text/html') }).llms_txt).toBe(0);
    expect(points({ ...none, llms: text(404, 'nope') }).llms_txt).toBe(0);
  });

  it('sitemap and Markdown negotiation', () => {
    expect(points({ ...none, sitemap: { ...text(200, '<urlset xmlns="x"></urlset>'), url: 'u' } }).sitemap).toBe(5);
    expect(points({ ...none, sitemap: { ...text(200, '<sm:sitemapindex>'), url: 'u' } }).sitemap).toBe(5);
    expect(points({ ...none, sitemap: { ...text(200, '<html>'), url: 'u' } }).sitemap).toBe(0);
    expect(points({ ...none, markdown: text(200, '# x', 'text/markdown') }).markdown_negotiation).toBe(5);
    expect(points({ ...none, markdown: text(200, '<p>', 'text/html') }).markdown_negotiation).toBe(0);
  });

  it('page checks on a small hand-made page', () => {
    const html =
      '<html lang="en"><head><title>T</title><meta name="description" content="d"><link rel="canonical" href="/c">' +
      '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Thing"}</script>' +
      '<script type="application/ld+json">{"@type":"Thing"}</script></head>' +
      `<body><main><h2>a</h2><h1>b</h1><p>${'word '.repeat(50)}</p></main></body></html>`;
    const p = points({ ...none, page: parseHtmlString(URL_, html) });
    expect(p).toMatchObject({ title: 5, meta_description: 5, lang: 5, canonical: 5, landmarks: 3, json_ld: 5 });
    // one h1 (5) but the outline starts at h2 (skipped level): 5
    expect(p.heading_outline).toBe(5);
    // 249 characters of text: half points
    expect(p.server_rendered_content).toBe(10);
  });

  it('reads Sitemap lines of robots.txt in any case, relative ones resolved', () => {
    expect(
      sitemapLines('User-agent: *\nSITEMAP: /a.xml\nsitemap:https://x.example/b.xml.gz # c\nSitemap: ftp://x/y\n', 'https://e.example'),
    ).toEqual(['https://e.example/a.xml', 'https://x.example/b.xml.gz']);
  });
});
