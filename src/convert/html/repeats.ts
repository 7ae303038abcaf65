import type { Element } from 'domhandler';
import { collapseWhitespace, commonAncestor, contains, isElement, textOf } from './dom.js';
import type { StatsMap } from './stats.js';

/**
 * Blocks the page repeats for another layout. Shops and landing pages render the same
 * section twice (a desktop and a mobile copy, a carousel's clones, a sticky bar repeating
 * the buy box), and only CSS shows one of them; read as text, every sentence comes twice.
 * A block whose text equals an earlier block's is such a copy and is dropped, unless the
 * two sit at the same place of a repeated structure (siblings, or the same path of tags
 * and classes below their common ancestor: the same note in every card of a grid, the
 * same step in every tab of a code sample): a repetition the page means. In a thread the
 * same place of every post repeats a member's signature, which goes.
 */

/** Blocks shorter than this are labels ("Add to cart", "Size"), which legitimately recur. */
const MIN_REPEAT_TEXT = 30;
/** Earlier blocks of one text length kept for comparison (bounds the work on huge pages). */
const CANDIDATES_PER_LENGTH = 4;
/** Only blocks are compared; table cells and code are data, whose repeats mean something. */
const REPEAT_BLOCKS = new Set([
  'div',
  'section',
  'article',
  'aside',
  'p',
  'ul',
  'ol',
  'dl',
  'li',
  'figure',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'form',
  'details',
]);
/** Not looked into: data, code, and quotations (a reply quotes the post it answers). */
const OPAQUE = new Set(['table', 'pre', 'code', 'svg', 'math', 'blockquote']);
/** A block mostly of links is a teaser, which a page may list in two places (latest and popular). */
const TEASER_LINK_DENSITY = 0.5;
/**
 * Two equal teasers whose closest common block holds at most this many times one of them
 * are one card's two layouts (a title over the picture and again under it, a desktop and a
 * mobile row): a copy. Lists of latest and popular stories share only a far larger block.
 */
const CARD_COPY_SPAN = 3;

/** Adds to `drop` the blocks under `roots` that repeat an earlier block elsewhere on the page. */
export function dropRepeatedBlocks(roots: readonly Element[], drop: Set<Element>, stats: StatsMap, thread = false): void {
  const byLength = new Map<number, Element[]>();
  const teasersByLength = new Map<number, Element[]>();
  const texts = new Map<Element, string>();
  const text = (el: Element): string => {
    let t = texts.get(el);
    if (t === undefined) {
      t = collapseWhitespace(textOf(el)).trim();
      texts.set(el, t);
    }
    return t;
  };
  const stack: Element[] = [];
  for (let i = roots.length - 1; i >= 0; i--) stack.push(roots[i] as Element);
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    if (drop.has(el) || OPAQUE.has(el.name)) continue;
    const len = stats.get(el)?.textLen ?? 0;
    if (len < MIN_REPEAT_TEXT) continue;
    // A wrapper and its only block are one block: only the outermost is compared.
    const parentLen = isElement(el.parent) ? (stats.get(el.parent)?.textLen ?? -1) : -1;
    const s = stats.get(el);
    const teaser = s !== undefined && s.linkLen >= s.textLen * TEASER_LINK_DENSITY;
    if (REPEAT_BLOCKS.has(el.name) && parentLen !== len) {
      // Teasers are compared only with teasers, and a copy is one in the same card (below).
      const seen = teaser ? teasersByLength : byLength;
      const earlier = seen.get(len);
      if (earlier === undefined) seen.set(len, [el]);
      else {
        const copy = (e: Element): boolean =>
          !contains(e, el) && text(e) === text(el) && (thread || !samePlace(e, el)) && (!teaser || sameCard(e, el, len, stats));
        if (earlier.some(copy)) {
          drop.add(el);
          continue;
        }
        if (earlier.length < CANDIDATES_PER_LENGTH) earlier.push(el);
      }
    }
    const kids = el.children;
    for (let i = kids.length - 1; i >= 0; i--) {
      const c = kids[i];
      if (isElement(c)) stack.push(c);
    }
  }
}

/** The same path of tag names and classes from each up to their common ancestor. */
function samePlace(a: Element, b: Element): boolean {
  const above = new Set<Element>();
  for (let p = a.parent; isElement(p); p = p.parent) above.add(p);
  let x: Element = a;
  let y: Element = b;
  for (;;) {
    if (x.name !== y.name || (x.attribs.class ?? '') !== (y.attribs.class ?? '')) return false;
    const px = x.parent;
    const py = y.parent;
    if (!isElement(px) || !isElement(py)) return false;
    if (px === py) return true;
    // b's branch reached a's ancestors first (or the other way round): different depths
    if (above.has(py)) return false;
    x = px;
    y = py;
  }
}

/** `a` and `b` (neither holding the other) sit in one small block: their closest common ancestor holds little more than the two. */
function sameCard(a: Element, b: Element, len: number, stats: StatsMap): boolean {
  const p = commonAncestor(a, b);
  return p !== null && stats.textLenOf(p) <= len * CARD_COPY_SPAN;
}
