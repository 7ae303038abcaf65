import type { Element, ParentNode } from 'domhandler';
import {
  BOILERPLATE_TEXT_MAX,
  CLASS_WEIGHT,
  FLAG_CLEAN_CONDITIONALLY,
  HEADINGS,
  MIN_PARAGRAPH_LEN,
  PATTERNS,
  STRUCTURAL_BOILERPLATE,
  childElements,
  classWeight,
  hasAncestor,
} from './content-patterns.js';
import { classAndId, collapseWhitespace, firstElementChild, isElement, textOf, pushAll } from './dom.js';
import { linkDensity } from './stats.js';
import type { ElementStats, StatsMap } from './stats.js';

/**
 * The last phase of main-content detection: inside the chosen roots, decide what the
 * writer skips (boilerplate, conditional cleaning, the repeated title, bylines, trailing
 * "read next" links). Nothing is removed from the tree.
 */

/** Conditional cleaning removes small junk blocks; one holding this share of the content stays. */
const CLEAN_MAX_TEXT_SHARE = 0.5;
/** Byline-like lines are per-post author lines (forums, Q&A) when they repeat this often. */
const THREAD_BYLINE_COUNT = 3;
/** A `<header>` with a paragraph of at least this length is content (an intro), not chrome. */
const HEADER_INTRO_LEN = 120;
const CLEAN_TAGS = new Set(['form', 'fieldset', 'table', 'ul', 'ol', 'div', 'section', 'header', 'dl']);

/**
 * A box about the writer under (or over) a story: its class names the author together with
 * the kind of box (author-bio, about-author, author-box, authorProfile, entry-author-info), or
 * its first child is a heading "About the author / reviewer / editor". Lines shorter than
 * AUTHOR_BOX_MIN_TEXT are bylines and go by the byline rule.
 */
const AUTHOR_BOX_CLASS =
  /(?:^|[\s_-])(?:author|writer|contributor)s?[-_]*(?:bio|box|info|information|profile|card|block|details|description|about|wrap|wrapper)|about[-_]*(?:the[-_]*)?(?:author|writer)/i;
const AUTHOR_BOX_HEADING = /^about the (?:authors?|writers?|reviewers?|editors?|contributors?)[:.]?$/i;
const AUTHOR_BOX_TAGS = new Set(['div', 'section', 'aside', 'footer', 'p']);
const AUTHOR_BOX_MIN_TEXT = 200;
/** A box with more than this share of the content is no side box: it is what the page is about. */
const AUTHOR_BOX_MAX_SHARE = 0.3;
/** Author boxes repeated this often are a thread's per-post author panels, which stay. */
export const AUTHOR_BOX_THREAD_COUNT = 3;

/**
 * Conditional cleaning's limits (Readability's, tuned on the benchmarks): a block goes when
 * its shape says junk — mostly links, more pictures than text, a list of links, an embed
 * with no caption — unless its text says prose.
 */
const CLEAN = {
  /** This many commas make a block prose, whatever else it holds. */
  proseMinCommas: 10,
  /** Code listings stay unless they are mostly links (docs pages are code). */
  codeMaxLinkDensity: 0.5,
  /** Fewer paragraphs per picture than this, outside a figure, is a picture strip. */
  galleryMinParagraphsPerImage: 0.5,
  /** …unless each picture comes with this much text, little of it links (an icon per glossary term, per step). */
  captionedItemMinText: 150,
  /** More list items than paragraphs with this much link text is a link list in disguise. */
  listLikeMaxLinkDensity: 0.3,
  /** A block that is nearly all heading text is a heading, not junk. */
  headingOnlyShare: 0.9,
  /** An unweighted block under this much text with this link density is a widget. */
  weakMaxText: 1000,
  weakMaxLinkDensity: 0.2,
  /** A list under this much text that is this much links (and few commas) is navigation. */
  linkListMaxText: 600,
  linkListMinDensity: 0.6,
  linkListProseCommas: 2,
  /** Even a positively weighted block goes when over half its text is links. */
  positiveMaxLinkDensity: 0.5,
  /** One embed with less text than this is a player without a story. */
  embedMaxText: 75,
  /** Readability counts list items of a list 100 lower, so a list is never "more items than paragraphs". */
  listItemDiscount: 100,
} as const;

/** What pruning needs to know of the page and of the extraction attempt. */
export interface PruneContext {
  stats: StatsMap;
  /** Elements the unlikely-candidates pass marked (dropped unless they hold the content). */
  unlikely: Set<Element>;
  /** The attempt's FLAG_* set: later attempts clean less. */
  flags: number;
  /** The page's title forms, to drop the heading that repeats it. */
  titles: Set<string>;
  /** The best-scoring block: it and its ancestors are never cleaned away. */
  top: Element | null;
  /** The metadata already names the author, so a byline inside the content is a repeat. */
  authorKnown: boolean;
}

/** Within the chosen content: what the writer should skip. */
export function pruneContent(roots: Element[], ctx: PruneContext): Set<Element> {
  const { stats, unlikely, flags, titles, top, authorKnown } = ctx;
  const drop = new Set<Element>();
  // The best-scoring container and its ancestors are never cleaned away.
  const protectedEls = new Set<Element>();
  for (let p: ParentNode | null = top; isElement(p); p = p.parent) protectedEls.add(p);
  let rootText = 0;
  for (const r of roots) rootText += stats.get(r)?.textLen ?? 0;
  const bylines: Element[] = [];
  const authorBoxes: Element[] = [];
  const repeatCache = new Map<ParentNode, Map<string, number>>();
  let titleDropped = false;
  const stack: Element[] = [...roots].reverse();
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    // Byline-like lines are decided at the end: one is an article byline, many are a thread.
    const ci = classAndId(el);
    if (!protectedEls.has(el) && !unlikely.has(el) && ci !== '' && PATTERNS.byline.test(ci)) {
      const s = stats.get(el);
      if (s && s.textLen < 200 && !s.hasMainish) {
        bylines.push(el);
        continue;
      }
    }
    if (!protectedEls.has(el) && isAuthorBox(el, ci, stats.get(el), rootText)) {
      authorBoxes.push(el);
      continue;
    }
    // Merged siblings face the same rules as anything inside the top candidate.
    const keepShape = (stats.get(el)?.textLen ?? 0) > rootText * CLEAN_MAX_TEXT_SHARE || isRepeatedItem(el, stats, repeatCache);
    if (!protectedEls.has(el) && shouldDrop(el, stats, unlikely, keepShape ? flags & ~FLAG_CLEAN_CONDITIONALLY : flags)) {
      drop.add(el);
      continue;
    }
    if (el.name === 'pre' || el.name === 'code' || el.name === 'math') continue;
    if (el.name === 'p') continue; // phrasing content: nothing inside a paragraph is pruned
    if (el.name === 'table' && isDataTable(el, stats.get(el))) continue; // cells are data, not chrome
    if (!titleDropped && (el.name === 'h1' || el.name === 'h2') && titles.size > 0) {
      if (repeatsTitle(textOf(el), titles, el.name === 'h1')) {
        drop.add(el);
        titleDropped = true;
        continue;
      }
    }
    const kids = el.children;
    for (let i = kids.length - 1; i >= 0; i--) {
      const c = kids[i];
      if (isElement(c)) stack.push(c);
    }
  }
  dropTrailingLinks(roots, drop, stats, rootText);
  // One byline is the article's (dropped when metadata already names the author); many are a thread's author lines.
  if (bylines.length < THREAD_BYLINE_COUNT && (authorKnown || bylines.length > 1)) for (const b of bylines) drop.add(b);
  // One or two boxes about the writer are the story's author bio; many are a thread's author panels.
  if (authorBoxes.length < AUTHOR_BOX_THREAD_COUNT) for (const b of authorBoxes) drop.add(b);
  return drop;
}

/** A box about the story's writer: named so by its class or id, or headed "About the author". */
export function isAuthorBox(el: Element, ci: string, s: ElementStats | undefined, rootText: number): boolean {
  if (!AUTHOR_BOX_TAGS.has(el.name) || !s || s.hasMainish) return false;
  if (s.textLen < AUTHOR_BOX_MIN_TEXT || s.textLen > rootText * AUTHOR_BOX_MAX_SHARE) return false;
  if (ci !== '' && AUTHOR_BOX_CLASS.test(ci)) return true;
  const first = firstElementChild(el);
  return first !== null && HEADINGS.has(first.name) && AUTHOR_BOX_HEADING.test(collapseWhitespace(textOf(first)));
}

/** Siblings sharing a class this often are the items of a listing (deals, products, posts). */
const REPEATED_ITEM_MIN = 3;
/** …when each carries at least this much text. */
const REPEATED_ITEM_MIN_TEXT = 60;

/**
 * Conditional cleaning looks at one block at a time and takes a product card or a deal box
 * for a link farm. When several siblings share the element's class and each has some text,
 * they are the repeated content that is the page.
 */
function isRepeatedItem(el: Element, stats: StatsMap, cache: Map<ParentNode, Map<string, number>>): boolean {
  const cls = el.attribs.class;
  const parent = el.parent;
  if (!cls || !isElement(parent)) return false;
  if ((stats.get(el)?.textLen ?? 0) < REPEATED_ITEM_MIN_TEXT) return false;
  let counts = cache.get(parent);
  if (!counts) {
    counts = new Map();
    for (const c of parent.children) {
      if (!isElement(c)) continue;
      const k = c.attribs.class;
      if (k && (stats.get(c)?.textLen ?? 0) >= REPEATED_ITEM_MIN_TEXT) counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    cache.set(parent, counts);
  }
  return (counts.get(cls) ?? 0) >= REPEATED_ITEM_MIN;
}

const LEAF_BLOCKS = new Set(['p', 'li', 'h2', 'h3', 'h4', 'h5', 'h6', 'div', 'dd']);
/** A trailing block is a "read next" link when links make up this share of its text. */
const TRAILING_LINK_DENSITY = 0.8;
/** Trailing link blocks are removed only while they add up to less than this share of the content. */
const TRAILING_LINKS_MAX_SHARE = 0.3;

/**
 * "You may also like" runs: paragraphs or items that are nothing but a link, after the last
 * prose block. Pages made of links (listings) keep theirs: the run must end real prose.
 */
function dropTrailingLinks(roots: Element[], drop: Set<Element>, stats: StatsMap, rootText: number): void {
  const leaves: Element[] = [];
  const stack: Element[] = [...roots].reverse();
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    if (drop.has(el)) continue;
    const s = stats.get(el);
    if (!s) continue;
    if (LEAF_BLOCKS.has(el.name) && !s.hasBlock) {
      leaves.push(el);
      continue;
    }
    if (el.name === 'pre' || el.name === 'table' || el.name === 'figure') {
      leaves.push(el);
      continue;
    }
    const kids = el.children;
    for (let i = kids.length - 1; i >= 0; i--) {
      const c = kids[i];
      if (isElement(c)) stack.push(c);
    }
  }
  let i = leaves.length - 1;
  let removed = 0;
  const run: Element[] = [];
  for (; i >= 0; i--) {
    const el = leaves[i] as Element;
    const s = stats.get(el) as ElementStats;
    const linky = s.textLen > 0 && s.linkLen / s.textLen >= TRAILING_LINK_DENSITY && s.textLen < 200;
    const label = s.textLen <= BOILERPLATE_TEXT_MAX && PATTERNS.boilerplateText.test(collapseWhitespace(textOf(el)));
    if (!linky && !label && s.textLen > 0) break;
    run.push(el);
    removed += s.textLen;
  }
  const prose = leaves.slice(0, i + 1).filter((el) => {
    const s = stats.get(el) as ElementStats;
    return s.textLen >= 80 && linkDensity(s) < 0.3;
  }).length;
  if (run.length >= 2 && prose >= 3 && removed < rootText * TRAILING_LINKS_MAX_SHARE) for (const el of run) drop.add(el);
}

function shouldDrop(el: Element, stats: StatsMap, unlikely: Set<Element>, flags: number): boolean {
  const name = el.name;
  if (unlikely.has(el)) return true;
  if (STRUCTURAL_BOILERPLATE.has(name)) return true;
  const role = el.attribs.role;
  if (role !== undefined && PATTERNS.unlikelyRoles.test(role) && name !== 'main' && name !== 'article') return true;
  const s = stats.get(el);
  if (!s) return false;
  if (name === 'figcaption') return true;
  if (name === 'header' && !headerHasIntro(el, stats)) return true;
  if (s.textLen <= BOILERPLATE_TEXT_MAX && s.textLen > 0 && !HEADINGS.has(name) && name !== 'li' && name !== 'td' && name !== 'th') {
    const t = collapseWhitespace(textOf(el));
    if (PATTERNS.boilerplateText.test(t)) return true;
  }
  if (flags & FLAG_CLEAN_CONDITIONALLY && CLEAN_TAGS.has(name)) return cleanConditionally(el, s, flags);
  return false;
}

function headerHasIntro(el: Element, stats: StatsMap): boolean {
  let found = false;
  const stack: Element[] = childElements(el);
  while (stack.length > 0 && !found) {
    const c = stack.pop() as Element;
    const s = stats.get(c);
    if (!s) continue;
    if (c.name === 'p' && s.textLen >= HEADER_INTRO_LEN) found = true;
    else if (s.textLen >= HEADER_INTRO_LEN) pushAll(stack, childElements(c));
  }
  return found;
}

/**
 * A block of images that all say what they show (alt text) and carry almost no text of
 * their own is a gallery (product photos), not an ad strip.
 */
function isDescribedGallery(el: Element, s: ElementStats): boolean {
  if (s.textLen >= MIN_PARAGRAPH_LEN || s.images > 20) return false;
  const stack: Element[] = [el];
  let seen = 0;
  while (stack.length > 0) {
    const n = stack.pop() as Element;
    if (n.name === 'img') {
      if (!(n.attribs.alt ?? '').trim()) return false;
      seen++;
      continue;
    }
    for (const c of n.children) if (isElement(c)) stack.push(c);
  }
  return seen > 1;
}

/** Readability's _cleanConditionally, over precomputed stats. */
function cleanConditionally(el: Element, s: ElementStats, flags: number): boolean {
  const weight = classWeight(el, flags);
  if (weight < 0) return true;
  if (s.commas >= CLEAN.proseMinCommas) return false;
  // Code listings are what docs pages are for, however short.
  if (s.codeBlocks > 0 && linkDensity(s) < CLEAN.codeMaxLinkDensity) return false;
  const name = el.name;
  if (name === 'table' && isDataTable(el, s)) return false;
  const isList = name === 'ul' || name === 'ol' || name === 'dl';
  const ld = linkDensity(s);
  const contentLength = s.textLen;
  const p = s.paragraphs;
  const img = s.images;
  const li = isList ? s.listItems - CLEAN.listItemDiscount : s.listItems;
  const headingDensity = contentLength > 0 ? s.headingLen / contentLength : 0;
  if (
    img > 1 &&
    p / img < CLEAN.galleryMinParagraphsPerImage &&
    !(contentLength >= img * CLEAN.captionedItemMinText && ld < CLEAN.weakMaxLinkDensity) &&
    !hasAncestor(el, 'figure') &&
    !isDescribedGallery(el, s)
  )
    return true;
  if (!isList && li > p && name !== 'table' && ld > CLEAN.listLikeMaxLinkDensity) return true;
  if (
    !isList &&
    headingDensity < CLEAN.headingOnlyShare &&
    contentLength < MIN_PARAGRAPH_LEN &&
    (img === 0 || img > 2) &&
    !hasAncestor(el, 'figure') &&
    !(img > 2 && isDescribedGallery(el, s))
  )
    return true;
  if (!isList && weight < CLASS_WEIGHT && ld > CLEAN.weakMaxLinkDensity && contentLength < CLEAN.weakMaxText) return true;
  if (isList && ld > CLEAN.linkListMinDensity && contentLength < CLEAN.linkListMaxText && !(s.commas > CLEAN.linkListProseCommas))
    return true;
  if (weight >= CLASS_WEIGHT && ld > CLEAN.positiveMaxLinkDensity) return true;
  if ((s.embeds === 1 && contentLength < CLEAN.embedMaxText) || s.embeds > 1) return true;
  return false;
}

/** Rows examined to tell a data table from a layout table. */
const DATA_TABLE_SAMPLE_ROWS = 30;

export function isDataTable(el: Element, s: ElementStats | undefined): boolean {
  if (el.attribs.role === 'presentation' || el.attribs.role === 'none') return false;
  let rows = 0;
  let hasHead = false;
  const sections: Element[] = [el];
  for (const c of childElements(el)) if (c.name === 'thead' || c.name === 'tbody' || c.name === 'tfoot') sections.push(c);
  for (const sec of sections) {
    for (const c of sec.children) {
      if (!isElement(c)) continue;
      if (c.name === 'thead' || c.name === 'caption') hasHead = true;
      if (c.name !== 'tr' || rows >= DATA_TABLE_SAMPLE_ROWS) continue;
      rows++;
      for (const cell of c.children) {
        if (!isElement(cell)) continue;
        if (cell.name === 'th') hasHead = true;
        if (hasNestedTable(cell)) return false;
      }
    }
  }
  return hasHead || (rows >= 2 && linkDensity(s) < 0.5);
}

function hasNestedTable(cell: Element): boolean {
  for (const c of cell.children) if (isElement(c) && (c.name === 'table' || hasNestedTable(c))) return true;
  return false;
}

export function normaliseTitle(s: string): string {
  // Heading permalinks: ¶, §, and icon-font glyphs from the private use area.
  return collapseWhitespace(s.replace(/[\u00b6\u00a7\ue000-\uf8ff]/g, ''))
    .toLowerCase()
    .replace(/[\u2018\u2019\u201c\u201d"'`]/g, '');
}

/** A heading shorter than this is never taken for the title by a partial match. */
const TITLE_PART_MIN = 4;

/**
 * The heading repeats the page title: it equals a title variant, or a variant starts or ends
 * with it ("Configuration" in "Configuration — tool 2.3 documentation"), the rest being the
 * site's name or section.
 */
export function repeatsTitle(heading: string, titles: ReadonlySet<string>, isH1: boolean): boolean {
  const h = normaliseTitle(heading);
  if (titles.has(h)) return true;
  // Only the page's own heading is matched in part: an h2 "About us" is a section, not the title.
  if (!isH1 || h.length < TITLE_PART_MIN) return false;
  for (const t of titles) if (t.startsWith(h) || t.endsWith(h)) return true;
  return false;
}

export function normaliseTitles(titles: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const t of titles) {
    const n = normaliseTitle(t);
    if (n) out.add(n);
  }
  return out;
}
