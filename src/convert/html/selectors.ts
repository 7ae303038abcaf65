import { performance } from 'node:perf_hooks';
import { compile } from 'css-select';
import type { Options } from 'css-select';
import * as DomUtils from 'domutils';
import { isTag } from 'domhandler';
import type { AnyNode, Element, ParentNode } from 'domhandler';
import { ServiceError } from '../../errors.js';
import { isElement } from './dom.js';

/**
 * CSS selectors of the read options `target_selector` and `remove_selector`, bounded:
 * at most MAX_SELECTORS of at most MAX_SELECTOR_CHARS each, and matching on one page
 * within SELECTOR_BUDGET_MS. css-select backtracks without memo over descendant and
 * sibling combinators (`x * * *` on a deep page, `a ~ b ~ c` on a flat one), so every
 * step it takes through the DOM goes through a counting adapter that stops it at the
 * deadline. Compiled queries are functions and never cross into a worker: the route
 * compiles once to refuse a bad selector before charging, the worker compiles again.
 */

export const MAX_SELECTORS = 10;
export const MAX_SELECTOR_CHARS = 500;
/** Matching time of all selectors of one read, together. */
export const SELECTOR_BUDGET_MS = 1000;
/** Adapter calls between two looks at the clock. */
const TICKS_PER_CLOCK_CHECK = 4096;

export class SelectorBudgetExceeded extends Error {
  constructor() {
    super(`selector matching ran over ${SELECTOR_BUDGET_MS} ms`);
  }
}

type Query = (el: Element) => boolean;
type Adapter = NonNullable<Options<AnyNode, Element>['adapter']>;

/** The matching time shared by every selector of one read: only time spent matching counts. */
export class SelectorBudget {
  private ticks = 0;
  private remaining: number;
  private deadline = Number.POSITIVE_INFINITY;
  readonly adapter: Adapter;

  constructor(ms: number = SELECTOR_BUDGET_MS) {
    this.remaining = ms;
    this.adapter = countingAdapter(() => this.tick());
  }

  /** Runs one matching phase on what is left of the budget. */
  spend<T>(match: () => T): T {
    const started = performance.now();
    this.deadline = started + this.remaining;
    try {
      return match();
    } finally {
      this.remaining = Math.max(0, this.remaining - (performance.now() - started));
      this.deadline = Number.POSITIVE_INFINITY;
    }
  }

  tick(): void {
    if (++this.ticks % TICKS_PER_CLOCK_CHECK === 0 && performance.now() > this.deadline) throw new SelectorBudgetExceeded();
  }
}

/** Checks one request field's selectors: BAD_REQUEST naming the field when css-select cannot compile one. */
export function validateSelectors(selectors: readonly string[], field: string): void {
  if (selectors.length > MAX_SELECTORS) throw new ServiceError('BAD_REQUEST', `${field} takes at most ${MAX_SELECTORS} selectors`);
  selectors.forEach((selector, i) => {
    compileOne(selector, selectors.length > 1 ? `${field}[${i}]` : field);
  });
}

/** Compiled queries over the budget's adapter. */
export function compileSelectors(selectors: readonly string[], budget: SelectorBudget): Query[] {
  return selectors.map((selector, i) => compileOne(selector, `selector ${i}`, budget.adapter));
}

function compileOne(selector: string, field: string, adapter?: Adapter): Query {
  if (selector.trim() === '') throw new ServiceError('BAD_REQUEST', `${field} is an empty selector`);
  if (selector.length > MAX_SELECTOR_CHARS)
    throw new ServiceError('BAD_REQUEST', `${field} is longer than ${MAX_SELECTOR_CHARS} characters`);
  try {
    return compile<AnyNode, Element>(selector, adapter ? { adapter } : {}) as Query;
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new ServiceError('BAD_REQUEST', `${field} is not a valid CSS selector: ${reason.slice(0, 200)}`);
  }
}

/**
 * Elements under `root` that any query matches, in document order, outermost only (a
 * match inside a match is already part of it). Throws SelectorBudgetExceeded.
 */
export function matchOutermost(root: ParentNode, queries: readonly Query[], budget: SelectorBudget): Element[] {
  return budget.spend(() => outermost(root, queries, budget));
}

function outermost(root: ParentNode, queries: readonly Query[], budget: SelectorBudget): Element[] {
  const out: Element[] = [];
  const stack: AnyNode[] = [...root.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop() as AnyNode;
    if (!isElement(node)) continue;
    budget.tick();
    if (queries.some((q) => q(node))) {
      out.push(node);
      continue;
    }
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as AnyNode);
  }
  return out;
}

/** css-select's default adapter (domutils + domhandler's isTag) with a tick on every call. */
function countingAdapter(tick: () => void): Adapter {
  const base = { ...DomUtils, isTag } as unknown as Adapter;
  return {
    isTag: (node: AnyNode): node is Element => {
      tick();
      return base.isTag(node);
    },
    getAttributeValue: (el, name) => {
      tick();
      return base.getAttributeValue(el, name);
    },
    getChildren: (node) => {
      tick();
      return base.getChildren(node);
    },
    getName: (el) => {
      tick();
      return base.getName(el);
    },
    getParent: (el) => {
      tick();
      return base.getParent(el);
    },
    getSiblings: (node) => {
      tick();
      return base.getSiblings(node);
    },
    prevElementSibling: (node) => {
      tick();
      return (base.prevElementSibling as (n: AnyNode) => Element | null)(node);
    },
    getText: (node) => {
      tick();
      return base.getText(node);
    },
    hasAttrib: (el, name) => {
      tick();
      return base.hasAttrib(el, name);
    },
    removeSubsets: (nodes) => base.removeSubsets(nodes),
  };
}
