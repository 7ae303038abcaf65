import type { Element } from 'domhandler';
import { STRUCTURAL_BOILERPLATE } from './content-patterns.js';
import { classAndId, contains, forEachTemplateGroup, isElement, isText, templateKey, pushAll } from './dom.js';
import type { StatsMap } from './stats.js';

/**
 * An index read as a story: the best-scoring block of a blog index, a course catalogue or a
 * list of papers is one of its entries, and the story path keeps that entry alone. When the
 * best block sits in one of many sibling teasers of one template (same tag and first class,
 * each a linked title with text of its own) and the teasers together hold far more than the
 * story, the page is an index and the teasers are its content.
 */

const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Levels above the best block looked at for the card that holds it. */
const CARD_CLIMB = 4;
/** An index has at least this many teasers. */
const MIN_TEASERS = 4;
/** A teaser carries at least this much text (a title and a line), at most a short story's. */
const TEASER_MIN_TEXT = 40;
const TEASER_MAX_TEXT = 2000;
/** The teasers hold at least this many times the story's text. */
const MIN_GAIN = 2.5;
/** A teaser's title is a link of at least this many characters (not a "Reply" or a tag). */
const TITLE_LINK_MIN = 15;
/** Share of same-template siblings that must be teasers (not a row of comments with one link). */
const TEASER_SHARE = 0.6;

/** The element holding the teasers when `top` is one entry of an index; else null. */
export function indexAroundStory(top: Element | null, storyLength: number, stats: StatsMap): Element | null {
  let card: Element | null = top;
  for (let i = 0; i <= CARD_CLIMB && card !== null; i++) {
    const parent = card.parent;
    if (!isElement(parent)) return null;
    const key = templateKey(card);
    const siblings = parent.children.filter((c): c is Element => isElement(c) && templateKey(c) === key);
    const teasers = teaserGroup(siblings, stats).text;
    if (teasers > 0 && teasers >= storyLength * MIN_GAIN) return parent;
    card = parent;
  }
  return null;
}

/** Text (and link text) held by the members of a template group that read as teasers; 0 when too few. */
function teaserGroup(
  members: readonly Element[],
  stats: StatsMap,
  titled: (c: Element) => boolean = hasTitleLink,
): { text: number; links: number } {
  let teasers = 0;
  let text = 0;
  let links = 0;
  for (const c of members) {
    const { len, linkLen } = itemText(c, stats);
    if (len < TEASER_MIN_TEXT || len > TEASER_MAX_TEXT || !titled(c)) continue;
    teasers++;
    text += len;
    links += linkLen;
  }
  return teasers >= MIN_TEASERS && teasers >= members.length * TEASER_SHARE ? { text, links } : { text: 0, links: 0 };
}

/**
 * Text of one item of a list. In a definition list an item is a term and the descriptions
 * after it (`<dt>` with its link and number, `<dd>` with the title, authors and subjects of a
 * paper): the term alone is a fraction of the item.
 */
function itemText(c: Element, stats: StatsMap): { len: number; linkLen: number } {
  let len = stats.textLenOf(c);
  let linkLen = stats.linkLenOf(c);
  if (c.name !== 'dt') return { len, linkLen };
  for (let n = c.next; n; n = n.next) {
    if (!isElement(n)) continue;
    if (n.name !== 'dd') break;
    len += stats.textLenOf(n);
    linkLen += stats.linkLenOf(n);
  }
  return { len, linkLen };
}

/** A link long enough to be a title, in the first levels of the card (or the card itself). */
function hasTitleLink(card: Element): boolean {
  if (card.name === 'a') return true;
  const stack: Array<[Element, number]> = [[card, 0]];
  while (stack.length > 0) {
    const [el, depth] = stack.pop() as [Element, number];
    if (el.name === 'a' && el.attribs.href !== undefined && linkText(el) >= TITLE_LINK_MIN) return true;
    if (depth < CARD_CLIMB + 2) for (const c of el.children) if (isElement(c)) stack.push([c, depth + 1]);
  }
  return false;
}

function linkText(a: Element): number {
  let n = 0;
  const stack = [...a.children];
  while (stack.length > 0 && n < TITLE_LINK_MIN) {
    const c = stack.pop();
    if (isText(c)) n += c.data.trim().length;
    else if (isElement(c)) pushAll(stack, c.children);
  }
  return n;
}

/** A group of teasers: the element holding them, their template and their text. */
export interface TeaserList {
  parent: Element;
  key: string;
  text: number;
  /** Link text of the teasers. */
  links: number;
}

/**
 * The largest group of teasers under `root` (four or more siblings of one template, each a
 * title link, or with `linkedHeadings` a linked heading, with text of its own). One walk;
 * each element's children are grouped once.
 */
export function largestTeaserGroup(root: Element, stats: StatsMap, linkedHeadings = true): TeaserList | null {
  const titled = linkedHeadings ? hasLinkedHeading : hasTitleLink;
  let best: TeaserList | null = null;
  forEachTemplateGroup(root, MIN_TEASERS, (parent, key, members) => {
    if (READER_COMMENTS.test(classAndId(parent)) || READER_COMMENTS.test(key)) return;
    const { text, links } = teaserGroup(members, stats, titled);
    if (text > (best?.text ?? 0)) best = { parent, key, text, links };
  });
  return best;
}

/** The story's pruning took away this share of a list of teasers: it misread the list. */
const INDEX_LOST_SHARE = 0.5;
/** …a list holding at least this share of the story's roots. */
const INDEX_ROOT_SHARE = 0.5;
/** A teaser's title is a good part of it; replies that quote a long URL are mostly their own words. */
const INDEX_MIN_LINK_SHARE = 0.15;
/** Comments and replies repeat like teasers and link out like them: never an index. */
const READER_COMMENTS = /comment|repl(?:y|ies)|respon(?:se|d)/i;

/**
 * An index read as a story, second shape: the story's block is the list itself (the best
 * block is the column of teasers) and the story's pruning took most of each teaser away
 * (link-heavy, short, one like the other). The element holding the teasers; else null.
 */
export function indexInsideStory(roots: readonly Element[], drop: ReadonlySet<Element>, stats: StatsMap): Element | null {
  let rootText = 0;
  let list: TeaserList | null = null;
  for (const r of roots) {
    rootText += stats.textLenOf(r);
    const found = largestTeaserGroup(r, stats, false);
    if (found && found.text > (list?.text ?? 0)) list = found;
  }
  if (!list || list.text < rootText * INDEX_ROOT_SHARE || list.links < list.text * INDEX_MIN_LINK_SHARE) return null;
  // text of the teasers that the pruning dropped (a dropped block inside a teaser, or a teaser)
  let lost = 0;
  for (const d of drop) {
    for (let p = d.parent; isElement(p); p = p.parent) {
      if (drop.has(p)) break;
      if (p === list.parent) {
        if (insideTeaser(d, list)) lost += stats.textLenOf(d);
        break;
      }
    }
  }
  return lost >= list.text * INDEX_LOST_SHARE ? list.parent : null;
}

/**
 * `el` sits in one of the list's teasers (below a child of the list's parent that has the
 * list's template, or a description of a list of terms: itemText).
 */
function insideTeaser(el: Element, list: TeaserList): boolean {
  let child: Element = el;
  while (isElement(child.parent) && child.parent !== list.parent) child = child.parent;
  const key = templateKey(child);
  return key === list.key || (child.name === 'dd' && list.key.startsWith('dt.'));
}

/** A heading that is or holds a link, in the first levels of the card: a story's title. */
function hasLinkedHeading(card: Element): boolean {
  const stack: Array<[Element, number, boolean]> = [[card, 0, card.name === 'a']];
  while (stack.length > 0) {
    const [el, depth, inLink] = stack.pop() as [Element, number, boolean];
    if (HEADING_TAGS.has(el.name)) {
      if (inLink || holdsLink(el)) return true;
      continue;
    }
    if (depth < CARD_CLIMB + 2) for (const c of el.children) if (isElement(c)) stack.push([c, depth + 1, inLink || c.name === 'a']);
  }
  return false;
}

function holdsLink(el: Element): boolean {
  const stack = [el];
  while (stack.length > 0) {
    const n = stack.pop() as Element;
    if (n.name === 'a' && n.attribs.href !== undefined) return true;
    for (const c of n.children) if (isElement(c)) stack.push(c);
  }
  return false;
}

/** A catalogue in rows has at least this many rows… */
const CATALOGUE_MIN_ROWS = 2;
/** …each of at least this many cards of one template, and this many cards in all. */
const CATALOGUE_MIN_PER_ROW = 2;
const CATALOGUE_MIN_CARDS = 6;
/** Single-child wrappers climbed from a row of cards to the block that repeats (`widget > row > cards`). */
const ROW_WRAPPER_HOPS = 2;
/** The catalogue holds at least this many times the story's text. */
const CATALOGUE_MIN_GAIN = 2.5;
/** Class words of blocks that show other pages' teasers beside a story: never its catalogue. */
const OTHER_PAGES = /related|recommend|more-?(?:stories|news|articles|posts)|popular|trending|read-?next|also|promo/i;

/** Cards of one template spread over rows: the container of the rows and the cards' text. */
export interface Catalogue {
  container: Element;
  text: number;
  cards: number;
  rows: number;
}

/**
 * The largest catalogue in rows under `root`: a block whose children are rows (or wrappers
 * of one row each), each row holding two or more teasers of one template (a course
 * catalogue laid out three to a row). Teaser groups of one parent are found by
 * largestTeaserGroup; this finds the grids a layout split. One walk; groups are summed per
 * container and card template.
 */
export function largestCatalogue(root: Element, stats: StatsMap): Catalogue | null {
  const sums = new Map<Element, Map<string, Catalogue>>();
  let best: Catalogue | null = null;
  forEachTemplateGroup(root, CATALOGUE_MIN_PER_ROW, (parent, key, members) => {
    let cards = 0;
    let text = 0;
    for (const c of members) {
      const len = stats.textLenOf(c);
      if (len < TEASER_MIN_TEXT || len > TEASER_MAX_TEXT || !holdsTitleLink(c)) continue;
      cards++;
      text += len;
    }
    if (cards < CATALOGUE_MIN_PER_ROW || cards < members.length * TEASER_SHARE) return;
    const container = rowContainer(parent);
    if (!container) return;
    let byKey = sums.get(container);
    if (!byKey) sums.set(container, (byKey = new Map()));
    const sum = byKey.get(key) ?? { container, text: 0, cards: 0, rows: 0 };
    sum.text += text;
    sum.cards += cards;
    sum.rows++;
    byKey.set(key, sum);
    if (sum.rows >= CATALOGUE_MIN_ROWS && sum.cards >= CATALOGUE_MIN_CARDS && sum.text > (best?.text ?? 0)) best = sum;
  });
  return best;
}

/** Elements of a card looked through for its link (catalogue cards nest deeper than teasers; bounded, so nested grids stay linear). */
const CARD_SCAN_BUDGET = 150;

/** A link long enough to be a title anywhere in the card's first CARD_SCAN_BUDGET elements. */
function holdsTitleLink(card: Element): boolean {
  const stack: Element[] = [card];
  for (let seen = 0; stack.length > 0 && seen < CARD_SCAN_BUDGET; seen++) {
    const el = stack.pop() as Element;
    if (el.name === 'a' && el.attribs.href !== undefined && linkText(el) >= TITLE_LINK_MIN) return true;
    for (let i = el.children.length - 1; i >= 0; i--) {
      const c = el.children[i];
      if (isElement(c)) stack.push(c);
    }
  }
  return false;
}

/** The block holding a row of cards beside its sibling rows: the row's parent, through wrappers that hold the row alone. */
function rowContainer(row: Element): Element | null {
  let r = row;
  for (let hop = 0; hop < ROW_WRAPPER_HOPS; hop++) {
    const p = r.parent;
    if (!isElement(p) || !soleElementChild(p)) break;
    r = p;
  }
  return isElement(r.parent) ? r.parent : null;
}

/** `el` has one element child; stops at the second (a container of 10,000 rows is asked once per row). */
function soleElementChild(el: Element): boolean {
  let n = 0;
  for (const c of el.children) if (isElement(c) && ++n > 1) return false;
  return n === 1;
}

/**
 * An index read as a story, third shape: the story is the page's short intro and the
 * entries sit in a catalogue of rows beside it (or around it, pruned away), holding far
 * more text. The catalogue's container; null when there is none, when the story is inside
 * it, or when it sits in a
 * block of other pages' teasers (related, popular, a sidebar or footer).
 */
export function catalogueBesideStory(body: Element, top: Element | null, storyLength: number, stats: StatsMap): Element | null {
  // The catalogue and the story are on the page: most stories are far too big a share of it to look.
  if (storyLength === 0 || stats.textLenOf(body) < storyLength * (1 + CATALOGUE_MIN_GAIN)) return null;
  const found = largestCatalogue(body, stats);
  if (!found || found.text < storyLength * CATALOGUE_MIN_GAIN) return null;
  // (A story around the catalogue that kept this little of it dropped its cards.)
  if (top && contains(found.container, top)) return null;
  for (let p: Element | null = found.container; p && p !== body; p = isElement(p.parent) ? p.parent : null) {
    if (STRUCTURAL_BOILERPLATE.has(p.name) || p.name === 'header' || OTHER_PAGES.test(classAndId(p))) return null;
  }
  return found.container;
}
