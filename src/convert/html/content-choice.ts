import type { Document, Element } from 'domhandler';
import type { Warning } from '../types.js';
import { removeNodes } from './dom.js';
import type { SelectorBudget } from './selectors.js';
import { SelectorBudgetExceeded, compileSelectors, matchOutermost } from './selectors.js';
import type { PageType } from './page-type.js';
import type { StatsMap } from './stats.js';

/**
 * Which part of the page is the content, by the read options: `target_selector` (the
 * matched elements, in document order), else `main_content: false` (the whole body), else
 * main-content extraction. `remove_selector` runs first, on the raw document.
 */

export interface ChosenContent {
  roots: Element[];
  drop: ReadonlySet<Element>;
  /** Visible text length of the content (after drops). */
  textLength: number;
  stats: StatsMap;
  /** The content is what `target_selector` matched (a short match is what was asked for). */
  targeted: boolean;
  /** Pictures of a grid's cards, which lean output leaves out (card-images.ts). */
  cardImages?: ReadonlySet<Element>;
  /** The page type the content showed, when it overrules the classifier (main-content.ts). */
  pageType?: PageType;
}

/** `remove_selector`: matched elements leave the document before anything else reads it. */
export function removeSelected(doc: Document, selectors: readonly string[], budget: SelectorBudget, warnings: Warning[]): void {
  if (selectors.length === 0) return;
  try {
    removeNodes(matchOutermost(doc, compileSelectors(selectors, budget), budget));
  } catch (err) {
    if (!(err instanceof SelectorBudgetExceeded)) throw err;
    warnings.push({ code: 'SELECTOR_SKIPPED', message: `remove_selector ${quoted(selectors)} ${overBudget(err)}; nothing was removed` });
  }
}

export interface ChooseOptions {
  targetSelectors: readonly string[];
  mainContent: boolean;
  budget: SelectorBudget;
  stats: StatsMap;
  /** Main-content extraction, run only when it is the answer. */
  extract: () => Omit<ChosenContent, 'targeted'>;
}

export function chooseContent(body: Element, opts: ChooseOptions, warnings: Warning[]): ChosenContent {
  if (opts.targetSelectors.length > 0) {
    const fallback = opts.mainContent ? 'the main content was extracted instead' : 'the whole page was returned instead';
    try {
      const roots = matchOutermost(body, compileSelectors(opts.targetSelectors, opts.budget), opts.budget);
      if (roots.length > 0) {
        const textLength = roots.reduce((sum, el) => sum + (opts.stats.get(el)?.textLen ?? 0), 0);
        return { roots, drop: new Set(), textLength, stats: opts.stats, targeted: true };
      }
      warnings.push({
        code: 'LOW_CONTENT',
        message: `target_selector ${quoted(opts.targetSelectors)} matched nothing on this page; ${fallback}`,
      });
    } catch (err) {
      if (!(err instanceof SelectorBudgetExceeded)) throw err;
      warnings.push({
        code: 'SELECTOR_SKIPPED',
        message: `target_selector ${quoted(opts.targetSelectors)} ${overBudget(err)}; ${fallback}`,
      });
    }
  }
  if (!opts.mainContent) {
    return { roots: [body], drop: new Set(), textLength: opts.stats.get(body)?.textLen ?? 0, stats: opts.stats, targeted: false };
  }
  return { ...opts.extract(), targeted: false };
}

function quoted(selectors: readonly string[]): string {
  return selectors.map((s) => JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}…` : s)).join(', ');
}

function overBudget(err: SelectorBudgetExceeded): string {
  return `could not be matched on this page in time (${err.message})`;
}
