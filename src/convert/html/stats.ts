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
  /** Part of textLen in labels of radio and checkbox choices (`data-pith-choice`, prepare.ts), outside links. */
  choiceLen: number;
  /** Has a block-level descendant (so it is a container, not a paragraph). */
  hasBlock: boolean;
  /** Contains `<main>` or an articleBody microdata node. */
  hasMainish: boolean;
  /** Pre-order index: document order comparisons without walking. */
  order: number;
}

export const BLOCK_TAGS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'details',
  'dialog',
  'dd',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'td',
  'th',
  'ul',
  'summary',
  'center',
  'menu',
  'body',
  'html',
  'caption',
]);

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

type Indexed = Element & { [ANALYSIS]?: unknown };

const HAS_BLOCK = 1;
const HAS_MAINISH = 2;

/** One typed column per counter, indexed by pre-order position. */
class Columns {
  readonly textLen: Int32Array;
  readonly linkLen: Int32Array;
  readonly commas: Int32Array;
  readonly paragraphs: Int32Array;
  readonly images: Int32Array;
  readonly listItems: Int32Array;
  readonly headingLen: Int32Array;
  readonly embeds: Int32Array;
  readonly breaks: Int32Array;
  readonly codeBlocks: Int32Array;
  readonly choiceLen: Int32Array;
  readonly flags: Uint8Array;
  constructor(n: number) {
    this.textLen = new Int32Array(n);
    this.linkLen = new Int32Array(n);
    this.commas = new Int32Array(n);
    this.paragraphs = new Int32Array(n);
    this.images = new Int32Array(n);
    this.listItems = new Int32Array(n);
    this.headingLen = new Int32Array(n);
    this.embeds = new Int32Array(n);
    this.breaks = new Int32Array(n);
    this.codeBlocks = new Int32Array(n);
    this.choiceLen = new Int32Array(n);
    this.flags = new Uint8Array(n);
  }
}

/**
 * Stats of one computeStats run, kept in typed columns indexed by pre-order position; an
 * element's slot holds its position. A page of a million elements spent a fifth of its
 * time growing a Map of per-element objects, and then V8 copied those objects through the
 * young generation; typed columns are off the GC heap (bench/extract-robustness.mjs).
 * `get` builds a small short-lived object, which is cheap to allocate and to collect.
 */
export class StatsMap {
  constructor(
    private readonly elements: readonly Element[],
    private readonly cols: Columns,
  ) {}

  /** Number of elements measured. */
  get size(): number {
    return this.elements.length;
  }

  get(el: Element): ElementStats | undefined {
    const i = this.indexOf(el);
    if (i < 0) return undefined;
    const c = this.cols;
    const flags = c.flags[i] as number;
    return {
      textLen: c.textLen[i] as number,
      linkLen: c.linkLen[i] as number,
      commas: c.commas[i] as number,
      paragraphs: c.paragraphs[i] as number,
      images: c.images[i] as number,
      listItems: c.listItems[i] as number,
      headingLen: c.headingLen[i] as number,
      embeds: c.embeds[i] as number,
      breaks: c.breaks[i] as number,
      codeBlocks: c.codeBlocks[i] as number,
      choiceLen: c.choiceLen[i] as number,
      hasBlock: (flags & HAS_BLOCK) !== 0,
      hasMainish: (flags & HAS_MAINISH) !== 0,
      order: i,
    };
  }

  /** Single counters without building the stats object (for walks that visit every element). */
  textLenOf(el: Element): number {
    const i = this.indexOf(el);
    return i < 0 ? 0 : (this.cols.textLen[i] as number);
  }

  linkLenOf(el: Element): number {
    const i = this.indexOf(el);
    return i < 0 ? 0 : (this.cols.linkLen[i] as number);
  }

  hasBlockOf(el: Element): boolean {
    const i = this.indexOf(el);
    return i >= 0 && ((this.cols.flags[i] as number) & HAS_BLOCK) !== 0;
  }

  choiceLenOf(el: Element): number {
    const i = this.indexOf(el);
    return i < 0 ? 0 : (this.cols.choiceLen[i] as number);
  }

  imagesOf(el: Element): number {
    const i = this.indexOf(el);
    return i < 0 ? 0 : (this.cols.images[i] as number);
  }

  breaksOf(el: Element): number {
    const i = this.indexOf(el);
    return i < 0 ? 0 : (this.cols.breaks[i] as number);
  }

  /** Position of `el` in this run, or -1 (not measured here; a slot from another run). */
  indexOf(el: Element): number {
    const i = (el as Indexed)[ANALYSIS];
    return typeof i === 'number' && this.elements[i] === el ? i : -1;
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
    (el as Indexed)[ANALYSIS] = order.length;
    order.push(el);
    const kids = el.children;
    for (let i = kids.length - 1; i >= 0; i--) {
      const c = kids[i];
      if (isElement(c)) stack.push(c);
    }
  }
  const cols = new Columns(order.length);
  const map = new StatsMap(order, cols);
  const text = { len: 0, commas: 0 };
  // reverse pre-order: every element after all of its descendants
  for (let i = order.length - 1; i >= 0; i--) {
    const el = order[i] as Element;
    let textLen = 0,
      linkLen = 0,
      commas = 0,
      paragraphs = 0,
      images = 0,
      listItems = 0,
      headingLen = 0,
      embeds = 0,
      breaks = 0,
      codeBlocks = 0,
      choiceLen = 0;
    let flags = 0;
    for (const c of el.children) {
      if (isText(c)) {
        text.len = 0;
        text.commas = 0;
        measureText(c.data, text);
        textLen += text.len;
        commas += text.commas;
      } else if (isElement(c)) {
        const ci = map.indexOf(c);
        if (ci < 0) continue;
        const cText = cols.textLen[ci] as number;
        const cFlags = cols.flags[ci] as number;
        textLen += cText;
        linkLen += cols.linkLen[ci] as number;
        commas += cols.commas[ci] as number;
        paragraphs += cols.paragraphs[ci] as number;
        images += cols.images[ci] as number;
        listItems += cols.listItems[ci] as number;
        headingLen += cols.headingLen[ci] as number;
        embeds += cols.embeds[ci] as number;
        breaks += cols.breaks[ci] as number;
        codeBlocks += cols.codeBlocks[ci] as number;
        choiceLen += cols.choiceLen[ci] as number;
        const cHasBlock = (cFlags & HAS_BLOCK) !== 0;
        const n = c.name;
        if (cHasBlock || BLOCK_TAGS.has(n)) flags |= HAS_BLOCK;
        if ((cFlags & HAS_MAINISH) !== 0) flags |= HAS_MAINISH;
        // Readability turns block-free divs into <p> before counting; count them the same way.
        if (n === 'p' || (n === 'div' && !cHasBlock && cText > 0)) paragraphs++;
        else if (n === 'img' || n === 'picture') images++;
        else if (n === 'li') listItems++;
        else if (n === 'br') breaks++;
        else if (n === 'pre') codeBlocks++;
        else if (n === 'main' || (c.attribs.itemprop ?? '').includes('articleBody')) flags |= HAS_MAINISH;
        if (HEADINGS.has(n)) headingLen += cText;
      }
    }
    if (el.name === 'a') linkLen = textLen;
    else if (el.name === 'label' && el.attribs['data-pith-choice'] !== undefined) choiceLen = textLen - linkLen;
    cols.textLen[i] = textLen;
    cols.linkLen[i] = linkLen;
    cols.commas[i] = commas;
    cols.paragraphs[i] = paragraphs;
    cols.images[i] = images;
    cols.listItems[i] = listItems;
    cols.headingLen[i] = headingLen;
    cols.embeds[i] = embeds;
    cols.breaks[i] = breaks;
    cols.codeBlocks[i] = codeBlocks;
    cols.choiceLen[i] = choiceLen;
    cols.flags[i] = flags;
  }
  return map;
}

/**
 * Most text nodes of a real page are indentation between tags: trim() (native) skips them.
 * The length of the rest is its trimmed length (+1 for surrounding whitespace, which
 * separates it from its neighbours); commas are counted with native indexOf scans.
 * Measured on the extract-eval corpus: about 3× faster than a per-character loop.
 */
function measureText(data: string, s: { len: number; commas: number }): void {
  const t = data.trim();
  if (t.length === 0) return;
  s.len += t.length + (t.length !== data.length ? 1 : 0);
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

/** Prose: this much text outside links… */
const PROSE_MIN_TEXT = 400;
/** …in a block at most this much of which is links… */
const PROSE_MAX_LINK_DENSITY = 0.3;
/** …that reads as paragraphs, not as a list of labels (non-link characters per paragraph or item)… */
const PROSE_MIN_PER_BLOCK = 80;
/** …with the commas of sentences (a font-metrics filler of one word repeated has none). */
const PROSE_MIN_COMMAS = 2;

/** A block that reads as prose: long paragraphs of unlinked sentences, not labels, options or links. */
export function readsAsProse(s: ElementStats | undefined): boolean {
  if (!s) return false;
  const prose = s.textLen - s.linkLen;
  if (prose < PROSE_MIN_TEXT || linkDensity(s) > PROSE_MAX_LINK_DENSITY || s.commas < PROSE_MIN_COMMAS) return false;
  return prose / Math.max(1, s.paragraphs + s.listItems) >= PROSE_MIN_PER_BLOCK;
}
