/**
 * target_selector / remove_selector: bounded selectors, and matching bounded in time on a
 * 10 MB page whatever the selector (css-select backtracks over descendant and sibling
 * combinators without memo). Bounds here are generous: only a blow-up breaks them.
 */
import { describe, expect, it } from 'vitest';
import { isServiceError } from '../../../../src/errors.js';
import { htmlToMarkdown } from '../../../../src/convert/html/index.js';
import { parseHtml } from '../../../../src/convert/html/dom.js';
import {
  MAX_SELECTOR_CHARS,
  SelectorBudget,
  SelectorBudgetExceeded,
  compileSelectors,
  matchOutermost,
  validateSelectors,
} from '../../../../src/convert/html/selectors.js';

const codeOf = (fn: () => unknown): string | null => {
  try {
    fn();
    return null;
  } catch (err) {
    return isServiceError(err) ? `${err.code}: ${err.message}` : String(err);
  }
};

describe('selectors', () => {
  it('refuses bad selectors naming the field', () => {
    expect(codeOf(() => validateSelectors(['div['], 'target_selector'))).toMatch(
      /^BAD_REQUEST: target_selector is not a valid CSS selector/,
    );
    expect(codeOf(() => validateSelectors(['main', 'p:nope'], 'remove_selector'))).toMatch(/^BAD_REQUEST: remove_selector\[1\] is not/);
    expect(codeOf(() => validateSelectors([`.${'a'.repeat(MAX_SELECTOR_CHARS)}`], 'target_selector'))).toMatch(/longer than/);
    expect(
      codeOf(() =>
        validateSelectors(
          Array.from({ length: 11 }, (_, i) => `.c${i}`),
          'target_selector',
        ),
      ),
    ).toMatch(/at most 10/);
    expect(codeOf(() => validateSelectors(['article', 'main > p:first-child', '#a, .b'], 'target_selector'))).toBeNull();
  });

  it('matches the outermost elements in document order', () => {
    const doc = parseHtml('<div class="x"><p class="x">in</p></div><p>mid</p><p class="y">last</p>');
    const found = matchOutermost(doc, compileSelectors(['.y', '.x'], new SelectorBudget()), new SelectorBudget());
    expect(found.map((el) => el.attribs.class)).toEqual(['x', 'y']);
  });

  it('a backtracking selector on a deep page stops at the budget', () => {
    const deep = `${'<div>'.repeat(250)}<p>x</p>${'</div>'.repeat(250)}`.repeat(20);
    const budget = new SelectorBudget(200);
    const started = Date.now();
    expect(() => matchOutermost(parseHtml(deep), compileSelectors(['nav * * * * p'], budget), budget)).toThrow(SelectorBudgetExceeded);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('on a 10 MB page hostile selectors give a warning within bounds, and the read still answers', () => {
    const row = '<p class="r">A row of the long flat page, with some words in it to carry text.</p>';
    const page = `<html><body><main>${row.repeat(Math.ceil((10 * 1024 * 1024) / row.length))}</main></body></html>`;
    expect(page.length).toBeGreaterThan(10 * 1024 * 1024);
    const started = Date.now();
    // main_content: false keeps the fallback apart from main-content detection's own costs
    const r = htmlToMarkdown(page, 'https://flat.example/', {
      mainContent: false,
      targetSelectors: ['h1 ~ p ~ p ~ p ~ p'],
      removeSelectors: ['nav ~ p ~ p ~ p'],
    });
    expect(Date.now() - started).toBeLessThan(120_000);
    const codes = r.warnings.map((w) => w.code);
    expect(codes).toContain('SELECTOR_SKIPPED');
    expect(r.markdown.length).toBeGreaterThan(1000);
  }, 180_000);
});
