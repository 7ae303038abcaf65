import type { Element } from 'domhandler';
import { childrenByTemplate, classAndId, collapseWhitespace, isElement, isText, templateKey, textOf } from './dom.js';
import type { StatsMap } from './stats.js';

/**
 * Per-card chrome of a grid (collections and listings): what a shop or an index prints in
 * every card besides the item's name, price and line of text — the card's controls
 * ("Compare", "Add to wishlist", "More options", "Read full article") and its savings and
 * merchandising badges ("Save 20%", "Top rated", "Only 3 left!"). Each is a short block whose
 * whole text is the label; a sentence that mentions one stays. Generic words only. Ratings
 * ("4.6 (318)") stay: on charts and catalogues they are what the reader compares.
 */

/** A card's controls, left as text once prepare removed the buttons and inputs. */
const CONTROL_TEXT =
  /^(?:(?:add to )?compare|comparer(?: ne plus comparer)?|add to (?:wish ?list|favou?rites|list)|save to (?:wish ?list|favou?rites|list)|wish ?list|more options|more colou?rs|see (?:all )?options|read (?:the )?full (?:article|story|post)|continue reading|view (?:the )?(?:deal|course|job|event|listing|recipe)|apply now|pre[- ]?order(?: now)?|get (?:a )?(?:quote|pricing)|product details|(?:view|shop|see|explore) (?:the )?collection|explore|more variations|be the first to review(?: this (?:product|item))?|write (?:a|the first) review|no reviews(?: yet)?|notify me(?: when (?:available|in stock))?|quick (?:view|shop|add|look)|view (?:options|details|product|item)|view (?:the )?(?:company )?profile|(?:select|choose) (?:options|(?:a |your )?size)|add to (?:cart|bag|basket)|sold out|out of stock|back-?order(?:ed)?|calculate shipping|qty:?|\+ ?(?:\d{1,3} )?more)$/i;
/** Savings and merchandising badges over a card's name or price, and a post's reading time ("7 min read"). */
const BADGE_TEXT =
  /^(?:save:? (?:up to )?(?:\d{1,3} ?%|[$€£]\s?\d[\d.,]*)(?: off)?|\d{1,3} ?% off(?:, save [$€£]\s?\d[\d.,]*)?|\(?[-\u2212]\d{1,3} ?%\)?|[-\u2212](?:[$€£]\s?\d[\d.,\s]*|\d[\d.,\s]*\s?[$€£])|top rated|best ?seller|new arrivals?|last chance|limited (?:time|stock|edition)|only \d{1,3} left!?|low stock|almost gone|free shipping|free delivery|sponsored|promoted|ad|new|nouveau|just in|new colou?rs?|award winner|coming soon|available now|back in stock|(?:on )?sale|online only|exclusive|\+ ?\d{1,3}|\d{1,3} colou?rs?(?: available)?|\d{1,3} ?(?:min|mins|minutes?) read)$/i;
/** A short block of a grid card whose whole text is a control or a badge. */
export function isGridCardChrome(text: string): boolean {
  return CONTROL_TEXT.test(text) || BADGE_TEXT.test(text);
}

/** Levels looked up from a short block for the grid card holding it. */
const CARD_HOPS = 5;
/** Off a collection or listing, a grid is a real one: this many cards (a product page's four info panels are not). */
const MIN_GRID_CARDS = 6;

/**
 * A card's control or badge inside a grid card on a page of any type: a shop's category
 * read as a landing page or a story still prints "Add to wishlist" and "Sold out" in every
 * card. Outside a card the same words may be a section's heading ("Product details").
 */
export function isCardChromeInCard(el: Element, text: string, stats: StatsMap): boolean {
  if (!isGridCardChrome(text)) return false;
  let p = el.parent;
  for (let hop = 0; hop < CARD_HOPS && isElement(p); hop++, p = p.parent) if (isGridCard(p, stats, MIN_GRID_CARDS)) return true;
  return false;
}

/** A grid has at least this many cards of one template. */
const MIN_CARDS = 3;
/** A card names its item in at least this much text, and is a teaser, not a column of them. */
const CARD_MIN_TEXT = 8;
const CARD_MAX_TEXT = 1500;

/** A sponsored result among the cards is an ad, whatever template it shares. */
const AD_CARD = /(?:^|[\s_-])(?:sponsored|promoted|ads?|advert\w*)(?:[\s_-]|$)/;
/** Wrappers looked through: a card's inner box holding all of its text is the card. */
const WRAPPER_HOPS = 3;

/**
 * One of three or more siblings of one template (same tag and first class), with a name and
 * a link of its own — or the box inside one that holds all of its text: a card of the grid,
 * which is content whatever words its classes carry ("subscription-eligible").
 */
export function isGridCard(el: Element, stats: StatsMap, minCards = MIN_CARDS): boolean {
  const textLen = stats.textLenOf(el);
  if (textLen < CARD_MIN_TEXT || textLen > CARD_MAX_TEXT || stats.linkLenOf(el) === 0 || AD_CARD.test(classAndId(el))) return false;
  let box: Element = el;
  for (let hop = 0; hop <= WRAPPER_HOPS; hop++) {
    const parent = box.parent;
    if (!isElement(parent)) return false;
    if (repeatsTemplate(box, parent, minCards)) return true;
    if (stats.textLenOf(parent) !== textLen) return false;
    box = parent;
  }
  return false;
}

/**
 * `el`'s own children include three or more cards of one template (each a name with a
 * link, none classed as an ad): `el` is a list of the page's items. A theme's class words
 * on such a list ("hide-read-more-ad": the slot where an ad would go) do not make it an ad.
 * Reads `el`'s children only (their template counts are cached per parent).
 */
export function holdsCardList(el: Element, stats: StatsMap): boolean {
  const counts = templateCounts(el);
  for (const c of el.children) {
    if (!isElement(c) || (counts.get(templateKey(c)) ?? 0) < MIN_CARDS) continue;
    const textLen = stats.textLenOf(c);
    if (textLen >= CARD_MIN_TEXT && textLen <= CARD_MAX_TEXT && stats.linkLenOf(c) > 0 && !AD_CARD.test(classAndId(c))) return true;
  }
  return false;
}

function repeatsTemplate(el: Element, parent: Element, minCards: number): boolean {
  return (templateCounts(parent).get(templateKey(el)) ?? 0) >= minCards;
}

/**
 * How many children of `parent` share each template, counted once per parent: every block
 * of a page may ask about its siblings, and counting them again per block was quadratic in
 * a parent's children (thousands of one-off templates in one list).
 */
const countsByParent = new WeakMap<Element, Map<string, number>>();

function templateCounts(parent: Element): Map<string, number> {
  let counts = countsByParent.get(parent);
  if (!counts) {
    counts = new Map();
    for (const [key, members] of childrenByTemplate(parent).groups) counts.set(key, members.length);
    countsByParent.set(parent, counts);
  }
  return counts;
}

/** A row of tags under an index's teaser: at least this many links, each at most this long. */
const TAG_ROW_MIN_LINKS = 3;
const TAG_LINK_MAX_TEXT = 30;
const TAG_ROW_MAX_TEXT = 300;
/** Levels looked up for the card holding the row. */
const TAG_ROW_CARD_HOPS = 4;
/** Text outside the links of a tag row is separators only ("·", "|", "•", ","). */
const WORDY = /[\p{L}\p{N}]/u;

/**
 * A row of topic or tag links inside a teaser of an index ("python · machine-learning · nlp",
 * "iOS • Music"): navigation to other indexes, not the item. The teaser's own title and its
 * single category link are one link each and stay.
 */
export function isCardTagRow(el: Element, stats: StatsMap): boolean {
  const textLen = stats.textLenOf(el);
  if (textLen === 0 || textLen > TAG_ROW_MAX_TEXT || stats.linkLenOf(el) === 0) return false;
  if (!shortLinksOnly(el)) return false;
  if (isGridCard(el, stats)) return false;
  let p = el.parent;
  for (let hop = 0; hop < TAG_ROW_CARD_HOPS && isElement(p); hop++, p = p.parent) if (isGridCard(p, stats)) return true;
  return false;
}

/** A link to a person (an author search, a profile): a row of them is the item's byline, not its tags. */
const PERSON_HREF = /(?:^|[/?&=])(?:authors?|people|person|users?|members?|profiles?)(?:[/=.&]|$)/i;

/**
 * `el` holds at least TAG_ROW_MIN_LINKS links, none longer than a tag nor to a person, and
 * only separators between them; and no heading (an item's title line, "owner / repo" with
 * its star button, is not its tags).
 */
function shortLinksOnly(el: Element): boolean {
  let links = 0;
  const stack: Element[] = [el];
  while (stack.length > 0) {
    const n = stack.pop() as Element;
    if (/^h[1-6]$/.test(n.name)) return false;
    if (n.name === 'a') {
      if (textOf(n).trim().length > TAG_LINK_MAX_TEXT || PERSON_HREF.test(n.attribs.href ?? '')) return false;
      links++;
      continue;
    }
    for (const c of n.children) {
      if (isElement(c)) stack.push(c);
      else if (isText(c) && WORDY.test(c.data)) return false;
    }
  }
  return links >= TAG_ROW_MIN_LINKS;
}

/** A link-aggregator item's controls: what a reader does to the item, as a whole link text. */
const ITEM_ACTION =
  /^(?:hide|unhide|past|discuss|flag|unflag|vouch|fav(?:ou?rite)?|un-?fav(?:ou?rite)?|save|unsave|share|report|reply|permalink|embed|context|parent|upvote|downvote|unvote|\d{1,6}\s*comments?|comments?|no comments)$/i;
/** An action row is a short line: at most this long, with at least this many controls. */
const ACTION_ROW_MAX_TEXT = 200;
const ACTION_ROW_MIN_ACTIONS = 2;
/** …and besides them at most this many links (the submitter, the age), each short. */
const ACTION_ROW_MAX_OTHER_LINKS = 3;
/** Elements looked at in a row (its text is short; this bounds rows of empty links). */
const ACTION_ROW_MAX_NODES = 60;

/**
 * The line under an item of a link aggregator ("12 points by ada 3 hours ago | hide | past |
 * 40 comments"): the item's controls with its score and submitter. The reader needs the
 * item's title and where it points, not its controls; the line goes as a whole. At least
 * two controls, no heading, and no other link longer than a name.
 */
export function isItemActionRow(el: Element, stats: StatsMap): boolean {
  const textLen = stats.textLenOf(el);
  if (textLen === 0 || textLen > ACTION_ROW_MAX_TEXT || stats.linkLenOf(el) === 0) return false;
  let actions = 0;
  let others = 0;
  let seen = 0;
  const stack: Element[] = [el];
  while (stack.length > 0) {
    const n = stack.pop() as Element;
    if (++seen > ACTION_ROW_MAX_NODES || /^h[1-6]$/.test(n.name)) return false;
    if (n.name === 'a') {
      const t = collapseWhitespace(textOf(n)).trim();
      if (ITEM_ACTION.test(t)) actions++;
      else if (t !== '' && (++others > ACTION_ROW_MAX_OTHER_LINKS || t.length > TAG_LINK_MAX_TEXT)) return false;
      continue;
    }
    for (const c of n.children) if (isElement(c)) stack.push(c);
  }
  return actions >= ACTION_ROW_MIN_ACTIONS;
}

/** Struck-out text: the "was" price of a card. */
const STRUCK = new Set(['s', 'del', 'strike']);
/** A price as a whole text: digits with a currency sign or code, or with decimals. */
const PRICE_TEXT = /^(?:[$€£¥]|[A-Z]{3} ?)?\s?\d[\d.,\s]*\s?(?:[$€£¥]|[A-Z]{3})?$/;
/** The card's price line is short: ancestors up to this long, and this many hops, are looked at. */
const PRICE_LINE_MAX = 120;
const PRICE_LINE_HOPS = 3;

/**
 * A price a card says twice; the reader needs it once. Either a struck-out "was" price equal
 * to the price beside it (themes print the regular and the sale price even when there is no
 * sale), or a price printed a second time (themes write a "regular" and a "sale" block for
 * every card and let CSS show one: "$19.99 $19.99"): a leaf whose price line already showed
 * the same price in an earlier leaf, not struck out (that one is the "was" price).
 */
export function isDuplicatePrice(el: Element, stats: StatsMap): boolean {
  const price = leafPrice(el);
  if (price === null) return false;
  const struck = STRUCK.has(el.name);
  let box: Element = el;
  for (let hop = 0; hop < PRICE_LINE_HOPS; hop++) {
    const parent = box.parent;
    if (!isElement(parent) || stats.textLenOf(parent) > PRICE_LINE_MAX) return false;
    if (struck) {
      if (timesIn(collapseWhitespace(textOf(parent)), price) >= 2) return true;
    } else {
      // Climb while this leaf is the first copy: the sale block's line starts at an ancestor.
      const first = firstPriceLeaf(parent, price);
      if (first !== null && first !== el) return true;
    }
    box = parent;
  }
  return false;
}

/** The price an element of text alone says (a leaf: nested runs never re-read each other), else null. */
function leafPrice(el: Element): string | null {
  if (el.children.some(isElement)) return null;
  const price = collapseWhitespace(textOf(el)).trim();
  return price !== '' && PRICE_TEXT.test(price) && /\d/.test(price) ? price : null;
}

/** How often `price` stands in `line` as a whole number ("19.99" is not in "119.99"). */
function timesIn(line: string, price: string): number {
  let n = 0;
  for (let i = line.indexOf(price); i >= 0; i = line.indexOf(price, i + price.length)) {
    const before = line[i - 1] ?? ' ';
    const after = line[i + price.length] ?? ' ';
    if (!/[\d.,]/.test(before) && !/\d/.test(after)) n++;
  }
  return n;
}

/** Elements looked through for an earlier copy of a price; a price line is a handful of spans. */
const PRICE_LINE_SCAN = 64;

/** The first leaf under `root` (not struck out) whose whole text is `price`; null when none or past the scan bound. */
function firstPriceLeaf(root: Element, price: string): Element | null {
  const stack: Element[] = [root];
  for (let seen = 0; stack.length > 0 && seen < PRICE_LINE_SCAN; seen++) {
    const n = stack.pop() as Element;
    // Only the first few children of each: a line over thousands of empty spans costs no more.
    const kids: Element[] = [];
    const end = Math.min(n.children.length, PRICE_LINE_SCAN);
    for (let i = 0; i < end; i++) {
      const c = n.children[i];
      if (isElement(c)) kids.push(c);
    }
    if (kids.length === 0) {
      if (n !== root && !STRUCK.has(n.name) && collapseWhitespace(textOf(n)).trim() === price) return n;
      continue;
    }
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i] as Element);
  }
  return null;
}

/** Elements of a card read while looking for its other link to the item (a card is a few dozen). */
const CARD_LINK_SCAN = 200;

/**
 * A second link to a card's item taken out of the keyboard order (`tabindex="-1"`): themes
 * wrap the picture, or a second layout of the name, price and facts, in such a link beside
 * the item's own one, so the card is read twice ("Brand Name: Topo Athletic, Product Name:
 * ST-5…" under "Topo Athletic - ST-5"). The item's focusable link stays; this copy goes.
 * Only inside a card of a grid, and only when that card holds another link with text to the
 * same address; off a collection or listing, the grid has MIN_GRID_CARDS cards.
 */
export function isCardLinkCopy(el: Element, stats: StatsMap, gridPage: boolean): boolean {
  if (el.name !== 'a' || el.attribs.tabindex !== '-1' || stats.textLenOf(el) === 0) return false;
  const href = el.attribs.href;
  if (href === undefined || href === '' || href.startsWith('#')) return false;
  const minCards = gridPage ? MIN_CARDS : MIN_GRID_CARDS;
  let p = el.parent;
  for (let hop = 0; hop < CARD_HOPS && isElement(p); hop++, p = p.parent) {
    if (!isGridCard(p, stats, minCards)) continue;
    return holdsOtherLinkTo(p, el, href, stats);
  }
  return false;
}

/** `card` holds a link with text to `href` other than `copy` (and not inside it), within CARD_LINK_SCAN elements. */
function holdsOtherLinkTo(card: Element, copy: Element, href: string, stats: StatsMap): boolean {
  const stack: Element[] = [card];
  for (let seen = 0; stack.length > 0 && seen < CARD_LINK_SCAN; seen++) {
    const n = stack.pop() as Element;
    if (n === copy) continue;
    if (n.name === 'a') {
      if (n.attribs.href === href && n.attribs.tabindex !== '-1' && stats.textLenOf(n) > 0) return true;
      continue;
    }
    for (const c of n.children) if (isElement(c)) stack.push(c);
  }
  return false;
}
