import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../../src/errors.js';
import { htmlToMarkdown } from '../../../../src/convert/html/index.js';

const BASE = 'https://x.test/';

describe('robustness', () => {
  it('handles 100,000-deep nesting without a stack overflow', () => {
    const html = `${'<div>'.repeat(100_000)}deep text${'</div>'.repeat(100_000)}`;
    expect(htmlToMarkdown(html, BASE).markdown).toContain('deep text');
    const unclosed = '<div><span><blockquote><ul><li><table><tr><td>'.repeat(20_000);
    expect(() => htmlToMarkdown(unclosed, BASE)).not.toThrow();
  });

  it('converts a 10 MB page', () => {
    const para = '<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.</p>\n';
    const html = `<html><body><article>${para.repeat(Math.ceil(10_000_000 / para.length))}</article></body></html>`;
    expect(html.length).toBeGreaterThanOrEqual(10_000_000);
    const r = htmlToMarkdown(html, BASE);
    expect(r.markdown.length).toBeGreaterThan(5_000_000);
  });

  it('converts a table of 200,000 rows inside <thead>/<tbody> (no argument-spread limit)', () => {
    const rows = '<tr><td>a|b</td><td>c</td></tr>'.repeat(200_000);
    const r = htmlToMarkdown(`<table><thead><tr><th>x</th><th>y</th></tr></thead><tbody>${rows}</tbody></table>`, BASE);
    const lines = r.markdown.trimEnd().split('\n');
    expect(lines.slice(0, 3)).toEqual(['| x | y |', '| --- | --- |', '| a\\|b | c |']);
    expect(lines).toHaveLength(200_002);
  });

  it('survives inputs aimed at regex backtracking and string building', () => {
    const hostile = [
      `<article><p>Some text here for the article body.</p><img srcset="${'a,'.repeat(100_000)}"></article>`,
      `<title>${'a - '.repeat(100_000)}x</title><p>hello</p>`,
      `<p><strong>${'<span> </span>'.repeat(20_000)}b</strong></p>`,
      `<p><code>${'`'.repeat(50_000)}</code></p>`,
      `<table><tr>${'<td colspan=999>x</td>'.repeat(2_000)}</tr><tr><td>y</td></tr></table>`,
      `<script type="application/ld+json">${'['.repeat(50_000)}</script><p>x</p>`,
    ];
    for (const html of hostile) expect(() => htmlToMarkdown(html, BASE)).not.toThrow();
  });

  it('fails binary input with EXTRACTION_FAILED', () => {
    const binary = Buffer.from(Array.from({ length: 50_000 }, (_, i) => (i * 7919) % 256)).toString('latin1');
    let err: unknown;
    try {
      htmlToMarkdown(binary, BASE);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).code).toBe('EXTRACTION_FAILED');
  });

  it('returns an empty result with LOW_CONTENT for an empty document', () => {
    const r = htmlToMarkdown('', BASE);
    expect(r.markdown).toBe('');
    expect(r.warnings.map((w) => w.code)).toEqual(['LOW_CONTENT']);
  });

  it('flags JavaScript shells', () => {
    const r = htmlToMarkdown('<html><body><div id="__next"></div><script>var a=1</script></body></html>', BASE);
    expect(r.warnings.map((w) => w.code)).toEqual(['JS_SHELL']);
  });

  it('tolerates a malformed base URL and odd links', () => {
    const r = htmlToMarkdown(
      '<base href="http://[bad"><article><p>Text long enough to count as content here, really, yes.</p><a href="http://[::1">x</a></article>',
      'not a url',
    );
    expect(r.markdown).toContain('Text long enough');
  });
});
