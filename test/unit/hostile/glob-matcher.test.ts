/**
 * Map include/exclude globs are client input: worst-case globs at the caps (500 characters,
 * 8 KB paths) within a time bound, the same answers as the anchored RegExp they used to
 * compile to, and a filter over many URLs that yields to the event loop and stops at its
 * time bound.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_URL_LENGTH } from '../../../src/fetch/url.js';
import { compileFilter, compileGlob, filterLinks, passesFilter } from '../../../src/ops/map-rank.js';
import { cpuMs, cpuMsAsync } from './cpu.js';

/** What compileGlob produced before: `**` → `.*`, `*` → `[^/]*`, `?` → `[^/]`, anchored. */
function oldGlobRegex(pattern: string): RegExp {
  let src = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === '*') {
      if (pattern[i + 1] === '*') {
        src += '.*';
        i++;
      } else src += '[^/]*';
    } else if (ch === '?') src += '[^/]';
    else src += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${src}$`, /^https?:\/\//i.test(pattern) ? 'i' : '');
}

/** The glob cap of the API schema (include/exclude items). */
const MAX_GLOB_CHARS = 500;
const LONG_PATH = `/${'a'.repeat(MAX_URL_LENGTH - 100)}`;

describe('glob matching on hostile globs', () => {
  it.each([
    ['`**a` repeated (exponential as a RegExp)', `/${'**a'.repeat(166)}b`],
    ['`*a` repeated', `/${'*a'.repeat(249)}b`],
    ['runs of stars', `/${'****a'.repeat(99)}b`],
    ['`?` runs after `**`', `/**a${'?'.repeat(MAX_GLOB_CHARS - 6)}b`],
    ['a long literal after `**`', `/**${'a'.repeat(MAX_GLOB_CHARS - 5)}b`],
  ])('%s (500 chars) against an 8 KB path: ≤ 100 ms CPU', (_name, pattern) => {
    expect(pattern.length).toBeLessThanOrEqual(MAX_GLOB_CHARS);
    const glob = compileGlob(pattern, 'include[0]');
    let matched = true;
    // Measured: 1-3 ms (16 words of state per character).
    const ms = cpuMs(() => {
      matched = glob.matches(LONG_PATH);
    });
    expect(matched).toBe(false);
    expect(ms).toBeLessThan(100);
  });

  it('a run of stars counts once: `***` is `**`', () => {
    expect(compileGlob('/a***b', 'include[0]').matches('/a/x/y/b')).toBe(true);
    expect(compileGlob('/a*b', 'include[0]').matches('/a/x/y/b')).toBe(false);
    expect(compileGlob('/****', 'include[0]').matches('/any/thing?q=1')).toBe(true);
  });

  it('agrees with the RegExp form on generated globs and paths', () => {
    const pattern = fc.array(fc.constantFrom('a', 'b', '/', '*', '**', '?', '.', 'A', '('), { maxLength: 9 }).map((p) => `/${p.join('')}`);
    const path = fc.array(fc.constantFrom('a', 'b', '/', '.', 'A', '('), { maxLength: 14 }).map((p) => `/${p.join('')}`);
    fc.assert(
      fc.property(pattern, path, (p, t) => {
        expect(compileGlob(p, 'include[0]').matches(t)).toBe(oldGlobRegex(p).test(t));
      }),
      { numRuns: 5000 },
    );
  });

  it('agrees with the RegExp form on globs longer than one state word (> 31 tokens)', () => {
    const prefix = '/abcdefghijklmnopqrstuvwxyz0123456789/';
    const tail = fc.array(fc.constantFrom('a', 'b', '/', '*', '**', '?'), { maxLength: 8 }).map((p) => p.join(''));
    const rest = fc.array(fc.constantFrom('a', 'b', '/'), { maxLength: 12 }).map((p) => p.join(''));
    fc.assert(
      fc.property(tail, rest, (p, t) => {
        const glob = `${prefix}${p}`;
        expect(compileGlob(glob, 'include[0]').words).toBeGreaterThan(1);
        expect(compileGlob(glob, 'include[0]').matches(`${prefix}${t}`)).toBe(oldGlobRegex(glob).test(`${prefix}${t}`));
      }),
      { numRuns: 3000 },
    );
  });

  it('whole-URL globs ignore ASCII case, as the `i` flag did', () => {
    const glob = compileGlob('https://Example.test/Docs/**', 'include[0]');
    expect(glob.fullUrl).toBe(true);
    expect(glob.matches('https://example.test/docs/a/b')).toBe(true);
    expect(glob.matches('https://example.test/other')).toBe(false);
  });
});

describe('filtering many URLs with hostile globs', () => {
  const hostile = Array.from({ length: 50 }, (_, i) => `/${'**a'.repeat(160)}${i}`);
  const links = Array.from({ length: 2000 }, (_, i) => ({ url: `https://e.test${LONG_PATH}?n=${i}` }));

  it('stops at its time bound and says so, yielding to the event loop meanwhile', async () => {
    const filter = compileFilter(hostile, hostile);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const started = performance.now();
    const { kept, complete } = await filterLinks(links, filter, 300);
    const elapsed = performance.now() - started;
    clearInterval(timer);
    expect(complete).toBe(false);
    expect(kept).toEqual([]);
    // Bounded by the budget plus one slice, whatever the globs (2,000 × 100 hostile matches would take minutes).
    expect(elapsed).toBeLessThan(3000);
    expect(ticks).toBeGreaterThan(3);
  });

  it('gives the same answer as passesFilter when time allows', async () => {
    const filter = compileFilter(['/docs/**', 'https://e.test/blog/*'], ['/docs/private/**']);
    const urls = ['https://e.test/docs/a', 'https://e.test/docs/private/x', 'https://e.test/blog/p', 'https://e.test/blog/p/q', 'nope'].map(
      (url) => ({ url }),
    );
    const { kept, complete } = await filterLinks(urls, filter);
    expect(complete).toBe(true);
    expect(kept).toEqual(urls.filter((l) => passesFilter(filter, l.url)));
    expect(kept.map((l) => l.url)).toEqual(['https://e.test/docs/a', 'https://e.test/blog/p']);
  });

  it('one URL against 100 hostile globs at the caps: ≤ 1 s CPU', async () => {
    const filter = compileFilter(hostile, hostile);
    const ms = await cpuMsAsync(() => filterLinks(links.slice(0, 1), filter));
    expect(ms).toBeLessThan(1000);
  });
});
