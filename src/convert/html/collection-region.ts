import type { Element } from 'domhandler';
import { NO_GUARD, isChrome } from './chrome.js';
import { STRUCTURAL_BOILERPLATE } from './content-patterns.js';
import { forEachTemplateGroup, isElement } from './dom.js';
import { readsAsProse } from './stats.js';
import type { StatsMap } from './stats.js';

/**
 * The region of a category page (collection): the grid of items and the category's own
 * text. Two ways the region rules miss them:
 *
 * - Themes wrap the grid in containers named for the filters and the pager around it
 *   ("filtering-and-pagination", "facets-drawer-wrapper"): class words that mean chrome on a
 *   small block. The blocks above the page's main grid are wrappers of the content.
 * - Shops print the category's buying guide or FAQ (the "SEO text") beside `<main>`, not in
 *   it. A prose block next to the `<main>` region is the category's text.
 */

/** A grid has at least this many cards of one template. */
const MIN_GRID_CARDS = 4;
/** A card names its item, and is a teaser, not a column of them (grid-chrome's bounds). */
const CARD_MIN_TEXT = 8;
const CARD_MAX_TEXT = 1500;
/** Most cards of a grid of items show the item: text-only repeats are messages, menus and link lists. */
const PICTURED_SHARE = 0.5;
/** The page's main grid: the parent of its cards, how many they are and the text they hold. */
export interface MainGrid {
  parent: Element;
  cards: number;
  text: number;
}

/**
 * The page's main grid under `root`: the group of sibling cards with the most text, when it
 * is a grid of items (most cards show a picture).
 */
export function mainGrid(root: Element, stats: StatsMap): MainGrid | null {
  let best: MainGrid | null = null;
  const boilerplate = (el: Element) => STRUCTURAL_BOILERPLATE.has(el.name);
  forEachTemplateGroup(
    root,
    MIN_GRID_CARDS,
    (parent, _key, members) => {
      let text = 0;
      let cards = 0;
      let pictured = 0;
      for (const m of members) {
        if (!isCard(m, stats)) continue;
        cards++;
        if (stats.imagesOf(m) > 0) pictured++;
        text += stats.textLenOf(m);
      }
      if (cards >= MIN_GRID_CARDS && pictured >= cards * PICTURED_SHARE && text > (best?.text ?? 0)) best = { parent, cards, text };
    },
    boilerplate,
  );
  return best;
}

/** A page typed product whose region is mostly a grid of this many items is their category. */
const CATEGORY_MIN_CARDS = 8;
const CATEGORY_MIN_SHARE = 0.5;

/**
 * A category read as a product: shops put one `Product` (the category's rating) in the
 * JSON-LD of their category pages, and the classifier believes it. A region whose text is
 * mostly one grid of many items is a category.
 */
export function isCategoryGrid(root: Element, stats: StatsMap): boolean {
  const grid = mainGrid(root, stats);
  return grid !== null && grid.cards >= CATEGORY_MIN_CARDS && grid.text >= stats.textLenOf(root) * CATEGORY_MIN_SHARE;
}

/** A card: a name and a link. */
function isCard(card: Element, stats: StatsMap): boolean {
  const s = stats.get(card);
  return s !== undefined && s.textLen >= CARD_MIN_TEXT && s.textLen <= CARD_MAX_TEXT && (s.linkLen > 0 || card.name === 'a');
}

/** Sibling levels looked at above `<main>` (up to its great-grandparent's children, the body's at most). */
const BESIDE_LEVELS = 3;

/**
 * Blocks of prose next to a `<main>` region, in document order: the category's text that the
 * theme prints outside the landmark. Chrome by tag, role or class (a footer, a newsletter box)
 * is not the category's text.
 */
export function proseBesideMain(root: Element, stats: StatsMap): Element[] {
  const out: Element[] = [];
  if (root.name !== 'main' && root.attribs.role !== 'main') return out;
  let inner: Element = root;
  for (let level = 0; level < BESIDE_LEVELS; level++) {
    const parent = inner.parent;
    if (!isElement(parent) || parent.name === 'html') break;
    for (const c of parent.children) if (c !== inner && isElement(c) && isCategoryProse(c, stats)) out.push(c);
    if (parent.name === 'body') break;
    inner = parent;
  }
  return out;
}

function isCategoryProse(el: Element, stats: StatsMap): boolean {
  return readsAsProse(stats.get(el)) && !isChrome(el, stats, NO_GUARD, 'collection');
}
