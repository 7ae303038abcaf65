import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../src/errors.js';
import { compileFields, extractData } from '../../../src/ops/extract-data.js';
import { parseHtmlString } from '../../../src/ops/html-page.js';

const run = (html: string, fields = {}) => extractData(parseHtmlString('https://site.example/a/b', html), compileFields(fields));

describe('extractData', () => {
  it('an empty page gives empty collections, never undefined', () => {
    expect(run('')).toEqual({ jsonLd: [], openGraph: {}, meta: {}, headings: [], links: [], images: [], tables: [], fields: {} });
  });

  it('tables: nested tables are their own entries, header by thead or all-th first row', () => {
    const html = '<table><tr><th>k</th><th></th></tr><tr><td>1<table><tr><td>in</td></tr></table></td><td>2</td></tr></table>';
    expect(run(html).tables).toEqual([[{ k: '1in', column_2: '2' }], [{ column_1: 'in' }]]);
  });

  it('JSON-LD: @graph items inherit @context unless they have one; scalars and invalid blocks are skipped', () => {
    const html =
      '<script type="application/ld+json">{"@context":"c","@graph":[{"@type":"A"},{"@context":"d","@type":"B"},3]}</script>' +
      '<script type="application/ld+json">"just a string"</script><script type="application/ld+json">{nope</script>' +
      '<script type="text/javascript">{"@type":"NotLd"}</script>';
    expect(run(html).jsonLd).toEqual([
      { '@context': 'c', '@type': 'A' },
      { '@context': 'd', '@type': 'B' },
    ]);
  });

  it('fields: text collapsed, URL attributes absolute, other attributes raw, first non-null match', () => {
    const html = '<a class="x">no href</a><a class="x" href="../c?q=1">  C  </a><div data-id=" 7 ">t</div>';
    expect(
      run(html, { href: { selector: 'a.x', attr: 'href' }, text: { selector: 'a.x', all: true }, id: { selector: 'div', attr: 'data-id' } })
        .fields,
    ).toEqual({
      href: 'https://site.example/c?q=1',
      text: ['no href', 'C'],
      id: '7',
    });
  });

  it('fields: URL attributes follow the one URL policy (script schemes give no value, mailto and tel stay)', () => {
    const html =
      '<a href="javascript:alert(1)">a</a><a href="java&#x09;script:alert(2)">b</a><a href=" livescript:x">c</a>' +
      '<a href="mailto:team@site.example">d</a><a href="tel:+15550100">e</a><a href="/ok#frag">f</a>' +
      '<img srcset="javascript:alert(3) 1x, /small.jpg 480w, livescript:y 2x">' +
      '<img srcset="vbscript:x 1x">';
    const out = run(html, {
      links: { selector: 'a', attr: 'href', all: true },
      srcsets: { selector: 'img', attr: 'srcset', all: true },
    }).fields;
    expect(out).toEqual({
      links: ['mailto:team@site.example', 'tel:+15550100', 'https://site.example/ok'],
      srcsets: ['https://site.example/small.jpg 480w'],
    });
  });

  it('compileFields refuses a bad selector with BAD_REQUEST naming the field', () => {
    expect(() => compileFields({ good: { selector: 'a' }, bad: { selector: 'a[' } })).toThrow(ServiceError);
    try {
      compileFields({ bad: { selector: '#' } });
    } catch (err) {
      expect((err as ServiceError).code).toBe('BAD_REQUEST');
      expect((err as ServiceError).message).toContain('fields.bad.selector');
    }
  });
});
