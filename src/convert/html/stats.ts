import type { Element, ParentNode } from 'domhandler';
import { ANALYSIS, isElement, isText } from './dom.js';

/**
 * Per-element text statistics, computed once per document in one bottom-up pass
 * (reverse pre-order, no recursion). Every later decision reads these numbers instead of
 * re-walking subtrees, which keeps main-content detection linear in the page size.
 */
export interface ElementStats {
  /** Text length, whitespace runs counted as one character. */
  textLen: number;
  /** Part of textLen inside `<a>`. */
  linkLen: number;
  /** Commas (ASCII, full-width, ideographic, Arabic): a cheap "prose" signal. */
  commas: number;
  /** Descendant counts used by conditional cleaning. */
  paragraphs: number;
  images: number;
  listItems: number;
  headingLen: number;
  embeds: number;
  /** `<pre>` descendants: code blocks are content even when short. */
  codeBlocks: number;
  /** `<br>` descendants: text-only blocks split by breaks are several paragraphs. */
  breaks: number;
  /** Has a block-level descendant (so it is a container, not a paragraph). */
  hasBlock: boolean;
  /** Contains `<main>` or an articleBody microdata node. */
  hasMainish: boolean;
  /** Pre-order index: document order comparisons without walking. */
  order: number;
  /** Which computeStats run wrote this (see StatsMap). */
  run: number;
}

export const BLOCK_TAGS = new Set([
  'address', 'article', 'aside', 'blockquote', 'details', 'dialog', 'dd', 'div', 'dl', 'dt', 'fieldset',
  'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr',
  'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'tbody', 'thead', 'tfoot', 'tr', 'td', 'th',
  'ul', 'summary', 'center', 'menu', 'body', 'html', 'caption',
]);

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

type WithStats = Element & { [ANALYSIS]?: ElementStats };
let runs = 0;

/**
 * Stats of one computeStats run. They live on the elements themselves rather than in a
 * Map: a page of a million elements spent a fifth of its time growing and hashing the
 * Map (bench/extract-robustness.mjs). The run number keeps a later run over the same
 * elements from being mistaken for this one.
 */
export class StatsMap {
  constructor(
    private readonly run: number,
    /** Number of elements measured. */
    readonly size: number,
  ) {}

  get(el: Element): ElementStats | undefined {
    const s = (el as WithStats)[ANALYSIS];
    return s !== undefined && s.run === this.run ? s : undefined;
  }
}

export function computeStats(root: ParentNode): StatsMap {
  const order: Element[] = [];
  const stack: Element[] = [];
  if (isElement(root)) stack.push(root);
  else {
    for (let i = root.children.length - 1; i >= 0; i--) {
      const c = root.children[i];
      if (isElement(c)) stack.push(c);
    }
  }
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    order.push(el);
    const kids = el.children;
    for (let i = kids.length - 1; i >= 0; i--) {
      const c = kids[i];
      if (isElement(c)) stack.push(c);
    }
  }
  const run = ++runs;
  for (let i = order.length - 1; i >= 0; i--) {
    const el = order[i] as WithStats;
    const s: ElementStats = {
      textLen: 0, linkLen: 0, commas: 0, paragraphs: 0, images: 0, listItems: 0, headingLen: 0, embeds: 0, breaks: 0, codeBlocks: 0,
      hasBlock: false, hasMainish: false, order: i, run,
    };
    for (const c of el.children) {
      if (isText(c)) {
        measureText(c.data, s);
      } else if (isElement(c)) {
        const cs = (c as WithStats)[ANALYSIS];
        if (cs === undefined || cs.run !== run) continue;
        s.textLen += cs.textLen;
        s.linkLen += cs.linkLen;
        s.commas += cs.commas;
        s.paragraphs += cs.paragraphs;
        s.images += cs.images;
        s.listItems += cs.listItems;
        s.headingLen += cs.headingLen;
        s.embeds += cs.embeds;
        s.breaks += cs.breaks;
        s.codeBlocks += cs.codeBlocks;
        if (cs.hasBlock || BLOCK_TAGS.has(c.name)) s.hasBlock = true;
        if (cs.hasMainish) s.hasMainish = true;
        const n = c.name;
        // Readability turns block-free divs into <p> before counting; count them the same way.
        if (n === 'p' || (n === 'div' && !cs.hasBlock && cs.textLen > 0)) s.paragraphs++;
        else if (n === 'img' || n === 'picture') s.images++;
        else if (n === 'li') s.listItems++;
        else if (n === 'br') s.breaks++;
        else if (n === 'pre') s.codeBlocks++;
        else if (n === 'main' || (c.attribs.itemprop ?? '').includes('articleBody')) s.hasMainish = true;
        if (HEADINGS.has(n)) s.headingLen += cs.textLen;
      }
    }
    if (el.name === 'a') s.linkLen = s.textLen;
    el[ANALYSIS] = s;
  }
  return new StatsMap(run, order.length);
}

/**
 * Most text nodes of a real page are indentation between tags: trim() (native) skips them.
 * The length of the rest is its trimmed length (+1 for surrounding whitespace, which
 * separates it from its neighbours); commas are counted with native indexOf scans.
 * Measured on the extract-eval corpus: about 3× faster than a per-character loop.
 */
function measureText(data: string, s: ElementStats): void {
  const t = data.trim();
  if (t.length === 0) return;
  s.textLen += t.length + (t.length !== data.length ? 1 : 0);
  s.commas += countChar(t, ',') + (hasNonAscii(t) ? countChar(t, '\uff0c') + countChar(t, '\u3001') + countChar(t, '\u060c') : 0);
}

function countChar(s: string, ch: string): number {
  let n = 0;
  for (let i = s.indexOf(ch); i >= 0; i = s.indexOf(ch, i + 1)) n++;
  return n;
}

const NON_ASCII = /[^\x00-\x7f]/;
function hasNonAscii(s: string): boolean {
  return NON_ASCII.test(s);
}

export function linkDensity(s: ElementStats | undefined): number {
  if (!s || s.textLen === 0) return 0;
  return s.linkLen / s.textLen;
}
