import type { Element } from 'domhandler';
import { collapseWhitespace, isElement, textOf } from './dom.js';
import type { StatsMap } from './stats.js';

/**
 * A story's per-item buttons: a list article ("the 12 best…", a course guide, a trail
 * round-up) puts the same short link under every item ("Book now", "Read the review",
 * "Directions"), each pointing at that item's page. Alone in its block, with the
 * same words three times or more and a different address each time, such a link is a
 * button of the item's card, not the story's text; its address is most of its tokens.
 */

/** A button's label is at most this long. */
const CTA_MAX_TEXT = 40;
/** The same label on this many blocks, with as many different addresses, is a row of buttons. */
const CTA_MIN_REPEATS = 3;
/** Labels of citations, kept whatever their count: "Source", "Sources:", "Via", "Photo credit". */
const CITATION_LABEL = /^(?:sources?|via|citation|reference|credit|(?:photo|image) (?:credit|source))\s*:?$/;
const CTA_BLOCKS = new Set(['p', 'div', 'li', 'span', 'h3', 'h4', 'h5', 'h6']);
/** Not looked into: data and code. */
const OPAQUE = new Set(['table', 'pre', 'code', 'svg', 'math', 'blockquote', 'figure']);

/** Adds to `drop` the blocks under `roots` that are only a repeated button link. */
export function dropRepeatedButtons(roots: readonly Element[], drop: Set<Element>, stats: StatsMap): void {
  const byLabel = new Map<string, { blocks: Element[]; hrefs: Set<string> }>();
  const stack: Element[] = [...roots].reverse();
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    if (drop.has(el) || OPAQUE.has(el.name)) continue;
    const s = stats.get(el);
    if (!s || s.textLen === 0) continue;
    if (CTA_BLOCKS.has(el.name) && !s.hasBlock && s.textLen <= CTA_MAX_TEXT && s.linkLen >= s.textLen) {
      const link = onlyLink(el);
      if (link) {
        const label = collapseWhitespace(textOf(el)).trim().toLowerCase();
        // a citation under every item names where its facts come from: the address is the point
        if (CITATION_LABEL.test(label)) continue;
        let group = byLabel.get(label);
        if (!group) byLabel.set(label, (group = { blocks: [], hrefs: new Set() }));
        group.blocks.push(el);
        group.hrefs.add(link.attribs.href ?? '');
      }
      continue;
    }
    for (let i = el.children.length - 1; i >= 0; i--) {
      const c = el.children[i];
      if (isElement(c)) stack.push(c);
    }
  }
  for (const { blocks, hrefs } of byLabel.values())
    if (blocks.length >= CTA_MIN_REPEATS && hrefs.size >= CTA_MIN_REPEATS) for (const b of blocks) drop.add(b);
}

/** The block's one link (a short block, so a short walk); null when it holds none or several. */
function onlyLink(el: Element): Element | null {
  let found: Element | null = null;
  const stack: Element[] = [el];
  while (stack.length > 0) {
    const n = stack.pop() as Element;
    if (n.name === 'a') {
      if (found || !n.attribs.href) return null;
      found = n;
      continue;
    }
    for (const c of n.children) if (isElement(c)) stack.push(c);
  }
  return found;
}
