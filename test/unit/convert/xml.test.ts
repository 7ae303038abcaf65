import { describe, expect, it } from 'vitest';
import { xmlToMarkdown } from '../../../src/convert/formats/xml.js';

describe('xmlToMarkdown', () => {
  it('never resolves external entities (XXE)', () => {
    const xml = '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><r>&xxe;</r>';
    const result = xmlToMarkdown(xml);
    expect(result.markdown).toBe('- **r**: &xxe;\n');
    expect(result.markdown).not.toContain('root:');
    expect(result.warnings.map((w) => w.code)).toEqual(['XML_ENTITIES_IGNORED']);
  });

  it('never expands recursive entities (billion laughs), in linear time and space', () => {
    const defs = Array.from({ length: 30 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('');
    const xml = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY l0 "lol">${defs}]><x>&l30;</x>`;
    const result = xmlToMarkdown(xml);
    expect(result.markdown).toBe('- **x**: &l30;\n');
  });

  it('reads RSS 1.0 (RDF) items', () => {
    const xml =
      '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"><channel><title>C</title></channel><item><title>One</title><link>https://e.test/1</link><dc:date>2026-01-02T00:00:00Z</dc:date></item></rdf:RDF>';
    expect(xmlToMarkdown(xml).markdown).toBe('# C\n\n- [One](https://e.test/1) — 2026-01-02\n');
  });

  it('keeps deep nesting from overflowing the stack', () => {
    const xml = `${'<a>'.repeat(50_000)}x${'</a>'.repeat(50_000)}`;
    const result = xmlToMarkdown(xml);
    expect(result.markdown.split('\n').length).toBeLessThan(40);
    expect(result.markdown).toContain(': x');
  });

  it('bounds a huge sitemap with TRUNCATED', () => {
    const urls = Array.from({ length: 50_010 }, (_, i) => `<url><loc>https://e.test/${i}</loc></url>`).join('');
    const result = xmlToMarkdown(`<urlset>${urls}</urlset>`);
    expect(result.warnings.map((w) => w.code)).toEqual(['TRUNCATED']);
    expect(result.markdown.split('\n').length).toBe(50_000 + 3);
  });
});

describe('xmlToMarkdown bounds the DOM', () => {
  it('parses at most 300,000 elements of a 10 MB flood of tiny ones', () => {
    const result = xmlToMarkdown(`<r>${'<a/>'.repeat(2_500_000)}</r>`);
    expect(result.warnings.map((w) => w.code)).toEqual(['TRUNCATED', 'TRUNCATED']);
    expect(result.warnings[0]?.message).toContain('after 300000 elements');
  });

  it('keeps a full 50,000-URL sitemap with lastmod, changefreq and priority', () => {
    const urls = Array.from(
      { length: 50_000 },
      (_, i) =>
        `<url><loc>https://e.test/${i}</loc><lastmod>2026-01-01</lastmod><changefreq>daily</changefreq><priority>0.5</priority></url>`,
    ).join('');
    const result = xmlToMarkdown(`<urlset>${urls}</urlset>`);
    expect(result.warnings).toEqual([]);
    expect(result.description).toBe('50000 URLs');
  });
});
