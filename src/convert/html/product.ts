import { Element, Text } from 'domhandler';
import type { ChildNode } from 'domhandler';
import { childrenByTemplate, isElement, isText, textOf } from './dom.js';
import { PRICE } from './page-signals.js';
import type { StatsMap } from './stats.js';

/**
 * What a product page shows beside its own product (region.ts asks, on product pages only):
 *
 * - Other products: a row or grid of repeated cards, each a link to another page with a
 *   name and a price (or a picture) — "customers also bought", sponsored strips, cross-sell
 *   carousels, whatever their heading says or whether they have one. The page's product is
 *   one block, never three look-alike siblings.
 * - Template fields: a definition list's entries named with a developer's key
 *   (`cat_thumb_Navy:`, `size_guide`) are a theme printing its raw custom fields, whose
 *   values are image URLs and flags, not a specification.
 * - The description the shop declares: a JSON-LD `Product.description` whose words the
 *   extracted content barely holds (the page renders it with scripts, or in a widget the
 *   region missed) is put first, as a paragraph.
 * - The photo gallery: a block of pictures with no text of its own. One picture shows the
 *   product; the other angles and colours cost tokens without saying anything more.
 */

/** A grid shows at least this many cards. */
const MIN_CARDS = 3;
/** A product card names the product (more than a size or a colour) and is not a story. */
const CARD_MIN_TEXT = 12;
const CARD_MAX_TEXT = 600;
/** Most of a card's text is its link (the product's name, its price, a "view" label). */
const CARD_MIN_LINK_SHARE = 0.5;
/** Share of the cards that carry a price (or a picture) for the group to be a product grid. */
const CARD_PRICED_SHARE = 0.5;
/** Cards without a price name a product at this length on average ("Remote Play on TV" is a feature). */
const PICTURED_CARD_MEAN_TEXT = 30;
/** A gallery holds at least this many pictures and at most this much text per picture (labels, counters). */
const GALLERY_MIN_IMAGES = 3;
const GALLERY_TEXT_PER_IMAGE = 12;

/**
 * The cards of `el` when it is a grid of other products, else null. `own` holds the blocks
 * of the page's own product (its heading, its best block): a group holding one is not a grid.
 */
export function otherProductCards(el: Element, stats: StatsMap, own: ReadonlySet<Element>): Element[] | null {
  const { groups, elements } = childrenByTemplate(el);
  if (elements < MIN_CARDS) return null;
  for (const members of groups.values()) {
    if (members.length < MIN_CARDS || members.some((m) => own.has(m))) continue;
    let cards = 0;
    let priced = 0;
    let pictured = 0;
    let cardText = 0;
    for (const m of members) {
      // The labels of a card's colour or size picker are its controls, not its text.
      const text = stats.textLenOf(m) - stats.choiceLenOf(m);
      const links = stats.linkLenOf(m);
      if (text === 0 || text > CARD_MAX_TEXT || links < text * CARD_MIN_LINK_SHARE) continue;
      const price = holdsPrice(m);
      // A card whose name is only in its picture shows a price alone ("EUR 8.06"); a short
      // label with a price ("eBook £9.99") is a variant of this product.
      if (text < CARD_MIN_TEXT && !(price && isPriceAlone(textOf(m)))) continue;
      cards++;
      cardText += text;
      if (price) priced++;
      if (stats.imagesOf(m) > 0) pictured++;
    }
    // Every card must be a card: a list of links with one priced entry is a menu, not a grid.
    // Empty members are a lazy carousel's slides still to load.
    const filled = members.filter((m) => stats.textLenOf(m) > 0).length;
    if (cards < MIN_CARDS || cards < filled * CARD_PRICED_SHARE) continue;
    if (priced >= cards * CARD_PRICED_SHARE) return members;
    // Without prices, pictures with a product's full name (not a feature's icon and label).
    if (pictured >= cards * CARD_PRICED_SHARE && cardText >= cards * PICTURED_CARD_MEAN_TEXT) return members;
  }
  return null;
}

/** A picture gallery's children after its first picture: the other angles and colours. */
export function galleryTail(el: Element, stats: StatsMap, own: ReadonlySet<Element>): Element[] {
  const images = stats.imagesOf(el);
  if (own.has(el) || images < GALLERY_MIN_IMAGES || stats.textLenOf(el) > images * GALLERY_TEXT_PER_IMAGE) return [];
  const tail: Element[] = [];
  let seen = false;
  for (const c of el.children) {
    if (!isElement(c)) continue;
    const pictures = c.name === 'img' ? 1 : stats.imagesOf(c);
    // A picture that links to a page is a variant or another product, not one more angle.
    if (pictures === 0 || linksToPage(c)) continue;
    // A child with words of its own (a colour swatch's name, a caption) is not only a picture.
    if (seen && stats.textLenOf(c) === 0) tail.push(c);
    seen = true;
  }
  return tail;
}

/**
 * A developer's field key: a word of letters, digits, `-` and `+` with an underscore in it
 * (`returns_chunk-1:`), perhaps followed by the value it was made from (`cat_thumb_Petrol Blue:`).
 */
function isFieldKey(term: string): boolean {
  const key = term.endsWith(':') ? term.slice(0, -1) : term;
  const space = key.indexOf(' ');
  return (space < 0 ? key : key.slice(0, space)).includes('_') && /^[a-z][\w+-]{0,60}(?: [\w+-]{1,30}){0,4}$/i.test(key);
}

/** The `<dt>`s named with a field key in a `<dl>`, with their `<dd>`s. */
export function templateFields(dl: Element): Element[] {
  const out: Element[] = [];
  let inField = false;
  for (const c of dl.children) {
    if (!isElement(c)) continue;
    if (c.name === 'dt') inField = isFieldKey(textOf(c).trim());
    if (inField) out.push(c);
  }
  return out;
}

/** A list of prices in other currencies has at least this many entries of at most this much text. */
const CURRENCY_LIST_MIN = 3;
const CURRENCY_ENTRY_MAX = 40;

/**
 * A list whose every entry is a price named by its own currency code (`AED: 549.56AED`,
 * `USD: $149.64`): the product's price converted for other countries, a currency picker's
 * hint, not the product. Bulk tiers (`10–49 $15.00`) name no currency and stay. Each
 * entry's text is read once, and only when it is short.
 */
export function isCurrencyList(list: Element, stats: StatsMap): boolean {
  if (list.name !== 'ul' && list.name !== 'ol') return false;
  const codes = new Set<string>();
  let entries = 0;
  let priced = 0;
  for (const c of list.children) {
    if (!isElement(c)) continue;
    if (c.name !== 'li' || stats.textLenOf(c) > CURRENCY_ENTRY_MAX) return false;
    const text = textOf(c);
    const code = /[A-Z]{3}/.exec(text)?.[0];
    // Letters only in codes of three capitals, a new code per entry, a digit for the amount.
    if (!code || codes.has(code) || /\p{L}/u.test(text.replace(/[A-Z]{3}/g, '')) || !/\d/.test(text)) return false;
    codes.add(code);
    entries++;
    if (PRICE.test(text)) priced++;
  }
  return entries >= CURRENCY_LIST_MIN && priced * 2 >= entries;
}

/** Currency codes, which are a price's letters. */
const CURRENCY_CODE = /\b(?:usd|eur|gbp|cad|aud|chf|sek|nok|dkk|pln|jpy|inr)\b/gi;

/** A text that is only a price: no letters beside a currency code. */
function isPriceAlone(text: string): boolean {
  return !/\p{L}/u.test(text.replace(CURRENCY_CODE, ''));
}

/** A text node in `el` that reads like a price. */
function holdsPrice(el: Element): boolean {
  const stack: Element[] = [el];
  while (stack.length > 0) {
    const n = stack.pop() as Element;
    for (const c of n.children) {
      if (isElement(c)) stack.push(c);
      else if (isText(c) && c.data.length < 200 && PRICE.test(c.data)) return true;
    }
  }
  return false;
}

/** Image files and in-page anchors: where a gallery's thumbnails point. */
const IMAGE_TARGET = /^#|\.(?:jpe?g|png|webp|gif|avif)(?:[?#]|$)/i;

/** `el` is or holds a link to another page (not to a picture or an anchor). */
function linksToPage(el: Element): boolean {
  const stack: Element[] = [el];
  while (stack.length > 0) {
    const n = stack.pop() as Element;
    const href = n.name === 'a' ? n.attribs.href?.trim() : undefined;
    if (href && !IMAGE_TARGET.test(href)) return true;
    for (const c of n.children) if (isElement(c)) stack.push(c);
  }
  return false;
}

/** A declared description shorter than this is a tagline, not worth a fallback. */
const DECLARED_MIN_CHARS = 120;
/** The content holds the description when it has this share of its words. */
const DECLARED_SEEN_SHARE = 0.5;
const WORD = /[\p{L}\p{N}]{3,}/gu;

/**
 * The shop's declared description as a paragraph to put before the content, when the
 * content barely holds its words; else null. `roots` and `drop` are the extracted content.
 */
export function declaredDescription(description: string | null, roots: readonly Element[], drop: ReadonlySet<Element>): Element | null {
  if (description === null || description.length < DECLARED_MIN_CHARS) return null;
  const wanted = new Set(description.toLowerCase().match(WORD) ?? []);
  if (wanted.size === 0) return null;
  const seen = new Set<string>();
  const stack: ChildNode[] = [...roots];
  while (stack.length > 0 && seen.size < wanted.size) {
    const n = stack.pop() as ChildNode;
    if (isText(n)) {
      for (const w of n.data.toLowerCase().match(WORD) ?? []) if (wanted.has(w)) seen.add(w);
    } else if (isElement(n) && !drop.has(n)) for (const c of n.children) stack.push(c);
  }
  if (seen.size >= wanted.size * DECLARED_SEEN_SHARE) return null;
  const p = new Element('p', {}, []);
  const text = new Text(description);
  text.parent = p;
  p.children.push(text);
  return p;
}

/** A picture's alt text names the product when this share of its words are the product name's. */
const VIEW_NAME_SHARE = 0.6;

/**
 * The product's pictures after its first one that say nothing of their own: no alt text, or
 * an alt text that repeats the product's name ("Alpine Down Jacket - Picture 3 of 8"), and no
 * caption. They are more views of the product, tokens without words. `name` is the page
 * heading's text.
 */
export function repeatedViews(roots: readonly Element[], drop: ReadonlySet<Element>, name: string): Element[] {
  const named = new Set(name.toLowerCase().match(WORD) ?? []);
  const out: Element[] = [];
  let first = true;
  const stack: Element[] = [...roots].reverse();
  while (stack.length > 0) {
    const n = stack.pop() as Element;
    if (drop.has(n)) continue;
    // A captioned figure's picture has words of its own.
    if (n.name === 'figure' && n.children.some((c) => isElement(c) && c.name === 'figcaption')) {
      first = false;
      continue;
    }
    if (n.name === 'img') {
      if (!first && isViewAlt(n.attribs.alt ?? '', named)) out.push(n);
      first = false;
      continue;
    }
    for (let i = n.children.length - 1; i >= 0; i--) {
      const c = n.children[i];
      if (isElement(c)) stack.push(c);
    }
  }
  return out;
}

/** An alt text with no words, or whose words are mostly the product's name. */
function isViewAlt(alt: string, named: ReadonlySet<string>): boolean {
  const words = alt.toLowerCase().match(WORD) ?? [];
  if (words.length === 0) return true;
  return named.size > 0 && words.filter((w) => named.has(w)).length >= words.length * VIEW_NAME_SHARE;
}

/** A text this long may be a field printing each of its values (the same blurbs again and again). */
const REPEATED_VALUES_MIN = 2000;
/** A sentence this many words long is a passage worth comparing, not a stock phrase. */
const SENTENCE_MIN_WORDS = 8;

/**
 * A long text that prints the same sentences again and again (a multi-valued field joined
 * with commas, each value the same review quotes in another order) keeps each sentence
 * once. Changes the text in place; true when it did.
 */
export function dedupeRepeatedPassage(text: Text): boolean {
  if (text.data.length < REPEATED_VALUES_MIN) return false;
  const seen = new Set<string>();
  const kept: string[] = [];
  let dropped = false;
  for (const sentence of sentences(text.data)) {
    const words = sentence.toLowerCase().match(WORD) ?? [];
    const key = words.join(' ');
    if (words.length >= SENTENCE_MIN_WORDS && seen.has(key)) {
      dropped = true;
      continue;
    }
    seen.add(key);
    kept.push(sentence);
  }
  if (dropped) text.data = kept.join('');
  return dropped;
}

/** `data` cut after each `.`, `!` or `?` (and closing quotes) followed by a space; the pieces keep their spaces. */
function sentences(data: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let i = 0; i < data.length - 1; i++) {
    if (!'.!?'.includes(data[i] as string)) continue;
    let end = i + 1;
    while (end < data.length && '"\'\u201d\u2019)'.includes(data[end] as string)) end++;
    if (!/\s/.test(data[end] ?? '')) continue;
    while (end < data.length && /\s/.test(data[end] as string)) end++;
    out.push(data.slice(from, end));
    from = end;
    i = end - 1;
  }
  if (from < data.length) out.push(data.slice(from));
  return out;
}
