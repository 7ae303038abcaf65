import type { Element } from 'domhandler';
import { NO_GUARD, holdsDate, isChrome } from './chrome.js';
import { mainGrid, proseBesideMain } from './collection-region.js';
import type { ChromeGuard } from './chrome.js';
import { HEADINGS, PATTERNS, STRUCTURAL_BOILERPLATE } from './content-patterns.js';
import { classAndId, collapseWhitespace, commonAncestor, contains, firstElementChild, isElement, isText, textOf, pushAll } from './dom.js';
import { isItemActionRow } from './grid-chrome.js';
import { largestTeaserGroup } from './index-cards.js';
import type { PageType } from './page-type.js';
import { dedupeRepeatedPassage, galleryTail, isCurrencyList, otherProductCards, repeatedViews, templateFields } from './product.js';
import { AUTHOR_BOX_THREAD_COUNT, isAuthorBox, isDataTable, repeatsTitle } from './prune.js';
import { dropQuotedCopies } from './thread.js';
import type { Thread } from './thread.js';
import { linkDensity } from './stats.js';
import type { StatsMap } from './stats.js';

/**
 * Region extraction, for pages whose content is not one story: landing and service pages
 * (hero, features, how it works, pricing, FAQ side by side), product pages (name, price,
 * variants, description, specifications in separate blocks) and grids (every card is
 * content). Picking the best-scoring block, as the article path does, keeps one section of
 * such a page; here the content is the page's main region — its `<main>` landmark, else
 * the body — minus its chrome: navigation, site header and footer, sidebars, cookie and
 * newsletter boxes, share bars, breadcrumbs, and per type the blocks that are not the
 * page's own (recommendation carousels on a product, filters and sorting on a grid,
 * reader comments anywhere but on a thread).
 */

/** A `<main>` holding less than this share of the body's text is a fragment, not the page's region. */
const MAIN_MIN_SHARE = 0.15;
/** The region grows to its parent when the parent's other blocks hold this much non-link text. */
const CLIMB_MIN_PROSE = 100;
/** Link-only blocks between posts shorter than this are thread furniture. */
const THREAD_LINK_BLOCK_MAX = 80;
const LINK_ONLY_DENSITY = 0.9;
/** Headings of blocks that show other products, other pages or other people's picks. */
const OTHERS_HEADING =
  /^(?:(?:this is )?what (?:customers|people|shoppers) who (?:viewed|bought|purchased) this(?: item| product)? (?:also )?(?:bought|viewed|purchased)|(?:customers|people|shoppers|guests|others)(?: like you)?(?: who (?:bought|viewed|purchased) this(?: item| product)?)? also (?:bought|viewed|liked|purchased)|you (?:may|might) also (?:like|love|enjoy|be interested in)|(?:related|similar|recommended|suggested) (?:products|items|articles|posts|stories|reads|books|brands)|(?:products|items) related to this (?:item|product)|consider these(?: available)? (?:items|products)|(?:your )?recently viewed(?: items| products)?|browsing history|frequently bought together|more (?:items )?from (?:this|the) (?:seller|brand|shop|store)|seller'?s other items|about (?:this|the) seller|sponsored (?:items|products)|featured products related to this item|complete the look|explore similar (?:items|products)|compare (?:with )?similar (?:items|products)|who is online|users browsing this (?:forum|thread|topic)|(?:forum|board) statistics)\b/i;
/**
 * On a product page: the shop's furniture around every product (its best sellers, sponsored
 * picks and news, delivery and returns, the Q&A box, errors of its widgets).
 */
const SHOP_FURNITURE_HEADING =
  /^(?:frequently compared|featured products|(?:top|best) ?sellers(?! rank)|sponsored by|(?:recent|latest) (?:events|news|announcements)(?: (?:&|and) (?:events|news|announcements))?|(?:shipping|delivery) (?:&|and) (?:returns|fee details|fees)|where are we shipping to|(?:customer )?questions (?:&|and) answers|reviews summary|reviews with images|(?:get|shop) the look|buy (?:a|the) bundle(?: and save)?|choose your add-?ons|more (?:seller|buying) options|(?:customer|user) testimonials|customers say|produits complémentaires|as seen on (?:instagram|social(?: media)?)|(?:sorry|oops)[,!]? (?:there was a problem|something went wrong))\b/i;
/** On a thread: the forum's widgets around the posts (other topics, who posted most, who is reading). */
const THREAD_FURNITURE_HEADING =
  /^(?:(?:check out|see|browse|explore)\s+)?(?:(?:other|more)\s+)?(?:most )?(?:similar|related|suggested|recommended|other|more|latest|popular|trending) (?:topics|threads|discussions|questions|conversations|posts)\b|^(?:top posters|popular days|recently browsing|(?:topic|thread) (?:statistics|stats))\b/i;
const OTHERS_HEADING_MAX = 80;
/**
 * On a product page: a block whose whole text is a control of the buy box or the page's
 * tools, left as text once prepare removed the buttons ("Wishlist", "Size guide", "View
 * dimensions", "Back to navigation"). Availability and prices are the product's and stay.
 */
const BUY_BOX_CONTROL =
  /^(?:(?:add to |save to |save for later to )?(?:wish ?list|favou?rites)|add to (?:list|compare|registry)|compare|view (?:full )?details|view dimensions|size (?:guide|chart)|(?:see|view) (?:all )?faqs|back to (?:navigation|top)|see bulk discounts|share|print|embed|take the quiz|read full details|(?:view|see) all \d[\d,]*(?: [\w ]{1,30})?|add all [\w ]{1,20} to (?:cart|bag|basket))$/i;
/** A grid of other products holds less than this share of a product page's region. */
const GRID_MAX_SHARE = 0.5;
/** Cells looked at to tell a layout table from a data table. */
const TABLE_CELLS_SAMPLED = 60;
const BLOCKISH = new Set([
  'div',
  'table',
  'ul',
  'ol',
  'dl',
  'section',
  'article',
  'form',
  'blockquote',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);
/** A code toolbar's label ("js", "Copy") is at most this long. */
const CODE_LABEL_MAX = 20;
/** A thread's first post is looked for this many wrapper levels above the replies. */
const THREAD_CLIMB_HOPS = 4;
/** A page intro outside the region (category heading and description) is at most this long. */
const INTRO_MAX_TEXT = 1500;
/** An author/date line is shorter than this. */
const BYLINE_MAX_TEXT = 200;
/** A block holding more than this share of the region's text is a wrapper, never chrome. */
const CHROME_MAX_SHARE = 0.5;

export interface Region {
  /** The region, preceded by the page's intro when the heading sits outside it. */
  roots: Element[];
  drop: Set<Element>;
}

export interface RegionOptions {
  pageType: PageType;
  titles: Set<string>;
  /** The article path's best-scoring block: with the page heading it bounds the region when there is no `<main>`. */
  top: Element | null;
  authorKnown: boolean;
}

/** Where the region is, before its chrome is pruned: the root and the page heading. */
export interface RegionPlace {
  root: Element;
  heading: Element | null;
}

export function locateRegion(body: Element, stats: StatsMap, top: Element | null): RegionPlace {
  return regionRoot(body, stats, top);
}

export function extractRegion(body: Element, stats: StatsMap, opts: RegionOptions, place?: RegionPlace): Region {
  // A product's details often sit in their own wrapper beside the summary column.
  const { root, heading } = place ?? regionRoot(body, stats, opts.top, opts.pageType === 'product');
  const roots = [root];
  const intro = heading && !contains(root, heading) ? introBlock(heading, root, stats) : null;
  if (intro) roots.unshift(intro);
  // The blocks that hold the page heading or the best block are wrappers, whatever their class says.
  const wrappers = ancestorsBelow([heading, opts.top], root);
  const maxText = wrappers.size > 0 ? Infinity : (stats.get(root)?.textLen ?? 0) * CHROME_MAX_SHARE;
  // On an index the list of items is content whatever its class says (`section--more-ads`
  // around the second half of a news feed).
  if (opts.pageType === 'listing') for (const w of itemListWrappers(root, stats)) wrappers.add(w);
  const guard: ChromeGuard = { wrappers, maxText };
  if (opts.pageType === 'collection') {
    // The blocks around a category's grid are not chrome by their class words, and its text beside `<main>` is content.
    guard.gridWrappers = ancestorsBelow([mainGrid(root, stats)?.parent ?? null], root);
    const beside = proseBesideMain(root, stats).filter((b) => !intro || (!contains(b, intro) && !contains(intro, b)));
    if (beside.length > 0) {
      pushAll(roots, beside);
      roots.sort((a, b) => (stats.get(a)?.order ?? 0) - (stats.get(b)?.order ?? 0));
    }
  }
  const drop = pruneRegion(roots, stats, guard, opts);
  if (opts.pageType === 'product') {
    for (const img of repeatedViews(roots, drop, productName(heading, opts.titles))) drop.add(img);
    dedupeLongTexts(roots, drop);
    dropCopiedTextBlocks(roots, stats, drop);
  }
  return { roots, drop };
}

/** A block said again word for word is a copy when it is at least this long (a sentence, not a label). */
const REPEATED_BLOCK_MIN_TEXT = 30;
/** Blocks of text that a product page prints twice: a carousel's clones, a tab's copy of the summary. */
const REPEATABLE_BLOCKS = new Set(['p', 'li', 'div', 'dd', 'dt', 'blockquote', 'figcaption', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/**
 * On a product page, a block of text (a paragraph, an item, a heading, a div of text alone)
 * that says word for word what a block before it said is a copy: a carousel's cloned slides,
 * a mobile and a desktop copy of the description, the stock notice over both the buy box and
 * the details. The first copy stays. One walk; each block of text is read once.
 */
function dropCopiedTextBlocks(roots: readonly Element[], stats: StatsMap, drop: Set<Element>): void {
  const seen = new Set<string>();
  const stack: Element[] = [];
  for (let i = roots.length - 1; i >= 0; i--) stack.push(roots[i] as Element);
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    if (drop.has(el)) continue;
    const s = stats.get(el);
    if (!s || s.textLen === 0) continue;
    if (!s.hasBlock && REPEATABLE_BLOCKS.has(el.name)) {
      if (s.textLen < REPEATED_BLOCK_MIN_TEXT) continue;
      const key = collapseWhitespace(textOf(el)).trim().toLowerCase();
      if (seen.has(key)) drop.add(el);
      else seen.add(key);
      continue;
    }
    pushAll(stack, childElementsReversed(el));
  }
}

/** Long texts of the content that print one passage again and again keep one copy. */
function dedupeLongTexts(roots: readonly Element[], drop: ReadonlySet<Element>): void {
  const stack: Element[] = [...roots];
  while (stack.length > 0) {
    const n = stack.pop() as Element;
    if (drop.has(n)) continue;
    for (const c of n.children) {
      if (isElement(c)) stack.push(c);
      else if (isText(c)) dedupeRepeatedPassage(c);
    }
  }
}

/** The product's name: the page heading, else the longest title variant. */
function productName(heading: Element | null, titles: ReadonlySet<string>): string {
  if (heading) return textOf(heading);
  return [...titles].reduce((a, b) => (b.length > a.length ? b : a), '');
}

/**
 * A thread: the smallest block holding every post, grown to take in the question or first
 * post when it sits beside the replies, minus chrome and the per-post widgets (votes,
 * signatures, user panels, action bars, reply forms). Author and date lines stay.
 */
export function extractThread(body: Element, stats: StatsMap, thread: Thread, opts: RegionOptions): Region {
  // The question or first post often sits a few wrappers above the replies' list.
  let root = thread.container;
  const posts = [...thread.posts];
  for (let p = root, hops = 0; p !== body && isElement(p.parent) && hops < THREAD_CLIMB_HOPS; hops++) {
    // The page's main landmark holds the whole thread: what is beside it is the site's (a sidebar's dated rules).
    if (isMainLandmark(p)) break;
    const beside = siblingPost(p, stats);
    p = p.parent;
    if (beside) {
      posts.push(beside);
      root = p;
      hops = -1;
    }
  }
  const guard: ChromeGuard = { wrappers: ancestorsBelow(posts, root), maxText: Infinity };
  // On a Q&A page the posts are the question and the answers; comments under them are remarks.
  if (posts.some(isQuestionOrAnswer)) guard.posts = new Set(posts);
  const drop = pruneRegion([root], stats, guard, opts);
  dropLinksBetweenPosts(root, guard.wrappers, new Set(posts), stats, drop);
  dropQuotedCopies(root, posts, drop);
  return { roots: [root], drop };
}

/**
 * Between the posts, outside any of them, short blocks that are only links are the thread's
 * furniture (category and tag links, pagers, "next topic"), not posts.
 */
function dropLinksBetweenPosts(
  root: Element,
  wrappers: ReadonlySet<Element>,
  posts: ReadonlySet<Element>,
  stats: StatsMap,
  drop: Set<Element>,
): void {
  const stack: Element[] = [root];
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    for (const c of childElementsReversed(el)) {
      if (posts.has(c)) continue;
      if (wrappers.has(c)) {
        stack.push(c);
        continue;
      }
      const s = stats.get(c);
      if (s && s.textLen > 0 && s.textLen <= THREAD_LINK_BLOCK_MAX && linkDensity(s) >= LINK_ONLY_DENSITY) drop.add(c);
    }
  }
}

const QA_CLASS = /(?:^|[\s_-])(?:answer|question)(?:[\s_-]|$)/;

function isQuestionOrAnswer(post: Element): boolean {
  return /(?:Answer|Question)$/.test(post.attribs.itemtype ?? '') || QA_CLASS.test(classAndId(post));
}

/**
 * A code listing's toolbar (language name, "Copy") sits in the listing's wrapper beside the
 * `<pre>`: short blocks next to a `<pre>` in a wrapper that holds nothing else.
 */
function dropCodeToolbar(el: Element, stats: StatsMap, drop: Set<Element>): void {
  const kids = childElementsReversed(el);
  if (kids.length < 2 || !kids.some((k) => k.name === 'pre')) return;
  const others = kids.filter((k) => k.name !== 'pre');
  // Tab names put in by tabs.ts (`data-pith-tab`) say which variant the listing is: they stay.
  const isToolbar = (k: Element): boolean =>
    (stats.get(k)?.textLen ?? 0) <= CODE_LABEL_MAX && !HEADINGS.has(k.name) && k.attribs['data-pith-tab'] === undefined;
  if (others.every(isToolbar)) for (const k of others) drop.add(k);
}

/** An index's list of teasers holding this share of the region is its content. */
const ITEM_LIST_MIN_SHARE = 0.3;

/** The largest list of teasers in the region and the blocks around it, when it is a good part of the region. */
function itemListWrappers(root: Element, stats: StatsMap): Set<Element> {
  const list = largestTeaserGroup(root, stats);
  if (!list || list.text < stats.textLenOf(root) * ITEM_LIST_MIN_SHARE) return new Set();
  return ancestorsBelow([list.parent], root);
}

/** `start`s and their ancestors up to (not including) `root`. */
function ancestorsBelow(starts: ReadonlyArray<Element | null>, root: Element): Set<Element> {
  const out = new Set<Element>();
  for (const start of starts) for (let p = start; p && p !== root && !out.has(p); p = isElement(p.parent) ? p.parent : null) out.add(p);
  return out;
}

/** What the writer skips inside the region's roots. */
function pruneRegion(roots: readonly Element[], stats: StatsMap, guard: ChromeGuard, opts: RegionOptions): Set<Element> {
  const { pageType, titles } = opts;
  const drop = new Set<Element>();
  let titleDropped = false;
  const regionText = roots.reduce((n, r) => n + stats.textLenOf(r), 0);
  const authorBoxes: Element[] = [];
  const stack: Element[] = [];
  for (let i = roots.length - 1; i >= 0; i--) pushAll(stack, childElementsReversed(roots[i] as Element));
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    if (isChrome(el, stats, guard, pageType) || (opts.authorKnown && pageType !== 'forum' && isByline(el, stats))) {
      drop.add(el);
      continue;
    }
    // A story's box about its writer (the article path's rule, prune.ts).
    if (pageType === 'article' && !guard.wrappers.has(el) && isAuthorBox(el, classAndId(el), stats.get(el), regionText)) {
      authorBoxes.push(el);
      continue;
    }
    if (!titleDropped && (el.name === 'h1' || el.name === 'h2') && titles.size > 0 && repeatsTitle(textOf(el), titles, el.name === 'h1')) {
      drop.add(el);
      titleDropped = true;
      continue;
    }
    const s = stats.get(el);
    if (s && !s.hasBlock && s.textLen > 0 && s.textLen <= OTHERS_HEADING_MAX) {
      const text = collapseWhitespace(textOf(el)).trim();
      if (isOthersHeading(text, pageType)) {
        drop.add(blockHeadedBy(el, stats, guard, roots));
        continue;
      }
      if (pageType === 'product' && BUY_BOX_CONTROL.test(text)) {
        drop.add(el);
        continue;
      }
    }
    // A label every choice of its group repeats ("Swatch", "Compare") is the control's word (prepare.ts).
    if (el.attribs['data-pith-choice'] === 'widget') {
      drop.add(el);
      continue;
    }
    if (pageType === 'product' && isOrderForm(el)) {
      drop.add(el);
      continue;
    }
    if (pageType === 'product' && dropBesideProduct(el, stats, guard, regionText, drop)) continue;
    // Paragraphs, listings and data tables are content as a whole; layout tables (old forums) are not.
    if (el.name === 'p' || el.name === 'pre') continue;
    if (el.name === 'table' && isDataTable(el, s) && !cellsHoldBlocks(el, stats)) {
      // A link aggregator's table of items: each item's line of controls is chrome all the same.
      if (pageType === 'listing') for (const row of tableRows(el)) if (isItemActionRow(row, stats)) drop.add(row);
      continue;
    }
    dropCodeToolbar(el, stats, drop);
    pushAll(stack, childElementsReversed(el));
  }
  if (authorBoxes.length < AUTHOR_BOX_THREAD_COUNT) for (const b of authorBoxes) drop.add(b);
  return drop;
}

/**
 * On a product page: a grid of other products goes with its heading ("You may also like"),
 * or only its cards when it wraps the product too; a gallery keeps its first picture.
 * True when `el` went as a whole.
 */
function dropBesideProduct(el: Element, stats: StatsMap, guard: ChromeGuard, regionText: number, drop: Set<Element>): boolean {
  const cards = otherProductCards(el, stats, guard.wrappers);
  // A grid holding most of the page is the page: a category read as a product.
  // (Its cards' pickers are controls, not text: they do not count.)
  if (cards && cards.reduce((n, c) => n + stats.textLenOf(c) - stats.choiceLenOf(c), 0) < regionText * GRID_MAX_SHARE) {
    if (guard.wrappers.has(el)) {
      for (const c of cards) drop.add(c);
      return false;
    }
    drop.add(el);
    const before = previousElement(el);
    if (before && isHeadingBlock(before, stats)) drop.add(before);
    return true;
  }
  if (isCurrencyList(el, stats)) {
    drop.add(el);
    return true;
  }
  for (const c of galleryTail(el, stats, guard.wrappers)) drop.add(c);
  if (el.name === 'dl') for (const c of templateFields(el)) drop.add(c);
  return false;
}

/** Rows of a table holding a quantity field (prepare.ts) for it to be an order form. */
const ORDER_FORM_MIN_ROWS = 2;

/**
 * On a product page, a table whose rows each hold a quantity field is an order form (one
 * variant per row, the amount to buy, a running total), not a specification.
 */
function isOrderForm(el: Element): boolean {
  return el.name === 'table' && Number(el.attribs['data-pith-order-rows'] ?? 0) >= ORDER_FORM_MIN_ROWS;
}

function isOthersHeading(text: string, pageType: PageType): boolean {
  return (
    OTHERS_HEADING.test(text) ||
    (pageType === 'product' && SHOP_FURNITURE_HEADING.test(text)) ||
    (pageType === 'forum' && THREAD_FURNITURE_HEADING.test(text))
  );
}

/** A heading, or a short block that is only a heading (the title bar of a carousel). */
function isHeadingBlock(el: Element, stats: StatsMap): boolean {
  const s = stats.get(el);
  if (!s || s.textLen === 0 || s.textLen > OTHERS_HEADING_MAX) return false;
  return HEADINGS.has(el.name) || s.headingLen >= s.textLen;
}

function previousElement(el: Element): Element | null {
  for (let p = el.prev; p; p = p.prev) if (isElement(p)) return p;
  return null;
}

/**
 * The block a heading opens: climb while the heading (or the block holding it) is the first
 * element of its parent, not past a wrapper of the content or a root. "You may also like"
 * opens the carousel that follows it.
 */
function blockHeadedBy(heading: Element, stats: StatsMap, guard: ChromeGuard, roots: readonly Element[]): Element {
  let block = heading;
  for (let p = block.parent; isElement(p) && !roots.includes(p) && !guard.wrappers.has(p); p = p.parent) {
    if (firstElementChild(p) !== block || (stats.get(p)?.textLen ?? 0) > guard.maxText) break;
    block = p;
  }
  return block;
}

/** The rows of a table: its own `<tr>`s and those of its head, bodies and foot. */
function tableRows(table: Element): Element[] {
  const rows: Element[] = [];
  for (const c of table.children) {
    if (!isElement(c)) continue;
    if (c.name === 'tr') rows.push(c);
    else if (c.name === 'thead' || c.name === 'tbody' || c.name === 'tfoot')
      for (const r of c.children) if (isElement(r) && r.name === 'tr') rows.push(r);
  }
  return rows;
}

/** A table whose cells hold blocks (divs, lists, nested tables) lays out a page; a data table's cells hold text. */
function cellsHoldBlocks(table: Element, stats: StatsMap): boolean {
  const stack: Element[] = [table];
  let seen = 0;
  while (stack.length > 0 && seen < TABLE_CELLS_SAMPLED) {
    const el = stack.pop() as Element;
    if (el.name === 'td' || el.name === 'th') {
      seen++;
      for (const c of el.children)
        if (isElement(c) && c.name !== 'p' && c.name !== 'br' && stats.get(c)?.hasBlock !== false) {
          if (BLOCKISH.has(c.name)) return true;
        }
      continue;
    }
    for (const c of el.children) if (isElement(c)) stack.push(c);
  }
  return false;
}

/**
 * Category and archive pages put their heading and intro above the grid, outside `<main>`:
 * the largest block around the heading that stays short and is not chrome.
 */
function introBlock(heading: Element, root: Element, stats: StatsMap): Element | null {
  let intro: Element | null = null;
  for (let p: Element | null = heading; p && !contains(p, root); p = isElement(p.parent) ? p.parent : null) {
    if (p.name === 'body' || (stats.get(p)?.textLen ?? 0) > INTRO_MAX_TEXT || isChrome(p, stats, NO_GUARD, 'other')) break;
    intro = p;
  }
  return intro;
}

/**
 * The largest `<main>` landmark when it holds a fair share of the page; else the smallest
 * block holding both the page heading and the best-scoring block (site bars and footers
 * sit outside it), grown while the blocks beside it carry text; else the body.
 */
function regionRoot(
  body: Element,
  stats: StatsMap,
  top: Element | null,
  throughWrappers = false,
): { root: Element; heading: Element | null } {
  let best: Element | null = null;
  let bestLen = -1;
  let heading: Element | null = null;
  const stack: Element[] = [body];
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    // A dialog's title (a consent prompt's "Your privacy settings") is not the page's heading.
    if (STRUCTURAL_BOILERPLATE.has(el.name) || isDialog(el)) continue;
    if (el !== body && (el.name === 'main' || el.attribs.role === 'main')) {
      const len = stats.get(el)?.textLen ?? 0;
      if (len > bestLen) {
        best = el;
        bestLen = len;
      }
      continue;
    }
    if (heading === null && el.name === 'h1' && linkDensity(stats.get(el)) < 0.5 && (stats.get(el)?.textLen ?? 0) > 0) heading = el;
    for (let i = el.children.length - 1; i >= 0; i--) {
      const c = el.children[i];
      if (isElement(c)) stack.push(c);
    }
  }
  const bodyLen = stats.get(body)?.textLen ?? 0;
  if (best && bestLen >= bodyLen * MAIN_MIN_SHARE) return { root: best, heading };
  if (heading && top && top !== body) {
    let root = commonAncestor(heading, top);
    // Climb while the blocks beside it carry text of their own (a product's details under its summary).
    // A wrapper holding nothing else is the same region: climb through it and look again (on
    // product pages; elsewhere the climb would reach the site's header bars).
    while (
      root &&
      root !== body &&
      isElement(root.parent) &&
      (siblingProse(root, stats) >= CLIMB_MIN_PROSE || (throughWrappers && soleText(root, stats)))
    )
      root = root.parent;
    if (root && (stats.get(root)?.textLen ?? 0) >= bodyLen * MAIN_MIN_SHARE) return { root, heading };
  }
  return { root: body, heading };
}

/** A dialog laid over the page: a consent prompt, a locale chooser, a sign-in box. */
function isDialog(el: Element): boolean {
  const role = el.attribs.role;
  return role === 'dialog' || role === 'alertdialog' || el.attribs['aria-modal'] === 'true';
}

function isMainLandmark(el: Element): boolean {
  return el.name === 'main' || el.attribs.role === 'main';
}

/** A sibling of `el` that reads like a post: text of its own and a date (the question beside its answers). */
function siblingPost(el: Element, stats: StatsMap): Element | null {
  const parent = el.parent;
  if (!isElement(parent)) return null;
  for (const c of parent.children) {
    if (c === el || !isElement(c)) continue;
    const s = stats.get(c);
    if (!s || s.textLen - s.linkLen < CLIMB_MIN_PROSE || isChrome(c, stats, NO_GUARD, 'forum')) continue;
    if (holdsDate(c)) return c;
  }
  return null;
}

/** `el` holds all of its parent's text. */
function soleText(el: Element, stats: StatsMap): boolean {
  return isElement(el.parent) && stats.textLenOf(el.parent) === stats.textLenOf(el);
}

/** Non-link text of `el`'s siblings that are not chrome by tag, role or class. */
function siblingProse(el: Element, stats: StatsMap): number {
  const parent = el.parent;
  if (!isElement(parent)) return 0;
  let prose = 0;
  for (const c of parent.children) {
    if (c === el || !isElement(c)) continue;
    const s = stats.get(c);
    if (!s || isChrome(c, stats, NO_GUARD, 'other')) continue;
    prose += s.textLen - s.linkLen;
  }
  return prose;
}

/** A short author/date line (the article path's rule: metadata already names the author). */
function isByline(el: Element, stats: StatsMap): boolean {
  const ci = classAndId(el);
  return ci !== '' && PATTERNS.byline.test(ci) && (stats.get(el)?.textLen ?? 0) < BYLINE_MAX_TEXT;
}

function childElementsReversed(el: Element): Element[] {
  const out: Element[] = [];
  for (let i = el.children.length - 1; i >= 0; i--) {
    const c = el.children[i];
    if (isElement(c)) out.push(c);
  }
  return out;
}
