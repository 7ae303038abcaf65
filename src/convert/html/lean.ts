import type { ChildNode, Element } from 'domhandler';
import { HEADINGS } from './content-patterns.js';
import { boundedTextOf, firstElementChild, isElement, isText, textOf, pushAll } from './dom.js';
import { imageSource } from './urls.js';

/**
 * Lean Markdown (issue 22): what of the content costs tokens without being content. Judged
 * from structure only — declared sizes, ARIA, alt, the classes of the element and its
 * panel, how often an image repeats — never from a site's name.
 *
 * - Decorative images: icons, avatars, rank and award badges, spacers and tracking pixels,
 *   and images that repeat as an ornament.
 * - Unrendered markup: page-builder shortcodes (`[vc_row …]…[/vc_row]`) and template
 *   placeholders (`{{ … }}`, `{% … %}`), removed without the text they wrap.
 */

/** An image declared this small (CSS px, either side) is an icon, a bullet or a pixel. */
const ICON_MAX_PX = 40;
/** An image source seen this often in the content is an ornament (ticks, stars, separators). */
const ORNAMENT_REPEATS = 3;
/** A card holds at most this much text beside its image. */
const CARD_TEXT_MAX = 300;
/** Ancestors looked at for a user panel or an icon wrapper. */
const PANEL_DEPTH = 4;

/** Class/id tokens of the image or its near ancestors that mark a person panel or an icon. */
const DECORATIVE_CONTEXT =
  /(?:^|[\s_-])(?:avatars?|gravatar|userpic|user-?pic|user-?info|user-?details|author-?(?:avatar|image|img|photo|pic)|profile-?(?:pic|image|img|photo)|postprofile|poster-?info|rank(?:s|-?img|-?image|-?icon)?|badges?|award-?badge|icons?|emoji|emoticons?|smil(?:ey|ies)|spacer|tracking-?pixel|sprite|logos?)(?:$|[\s_-])/i;
/** File-name words of decorative images. */
const DECORATIVE_FILE =
  /(?:^|[/_.-])(?:avatars?|gravatar|badges?|icons?|favicon|emoji|emoticons?|smil(?:ey|ies)|spacer|pixel|blank|transparent|1x1|sprite|rank\d*|stars?-?\d)(?:[/_.\d-]|$)/i;

/** A logo, by its alt text or its file name (`client-logo-acme.svg`, "Acme logo"). */
const LOGO = /(?:^|[^a-z])logos?(?:[^a-z]|$)/i;
/** A folder named just that, anywhere up the path (`/img/logos/customers/acme.svg`), before any query. */
const LOGO_FOLDER = /^[^?#]*\/logos?\//i;

/** The content's image sources and link targets, counted once before writing. */
export interface ContentCounts {
  /** Raw image source (as written in the page) → occurrences. */
  images: Map<string, number>;
  /** Raw `href`s of links with text (letters or digits outside images). */
  textLinks: Set<string>;
  /** Shortcode names seen closed (`[/name]`) anywhere in the content's text. */
  shortcodes: Set<string>;
}

/** Shortcode names are lower case (`[vc_row]`); `[INST]` and other upper-case tags are text. */
const CLOSING_SHORTCODE = /\[\/([a-z][a-z0-9_-]{0,40})\]/g;

/** One walk over what will be written (the dropped elements skipped). */
export function countContent(roots: readonly ChildNode[], drop: ReadonlySet<Element>): ContentCounts {
  const images = new Map<string, number>();
  const shortcodes = new Set<string>();
  const textLinks = new Set<string>();
  const stack: ChildNode[] = [...roots].reverse();
  while (stack.length > 0) {
    const node = stack.pop() as ChildNode;
    if (isText(node)) {
      if (node.data.includes('[/')) {
        CLOSING_SHORTCODE.lastIndex = 0;
        for (const m of node.data.matchAll(CLOSING_SHORTCODE)) shortcodes.add(m[1] as string);
      }
      continue;
    }
    if (!isElement(node) || drop.has(node)) continue;
    if (node.name === 'img') {
      const src = imageSource(node);
      if (src) images.set(src, (images.get(src) ?? 0) + 1);
      continue;
    }
    if (node.name === 'a' && node.attribs.href !== undefined && !textLinks.has(node.attribs.href) && hasOwnText(node) > 0)
      textLinks.add(node.attribs.href);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as ChildNode);
  }
  return { images, textLinks, shortcodes };
}

/**
 * The text of a post's permalink: when it was posted or edited ("Oct 28, 2023", "Posted
 * August 26", "edited Feb 12, 2011 at 21:50", "Wednesday at 4:26 PM", "3 hours ago", "3y"),
 * its number ("#6") or the word itself. The date is the author line's; the URL is the page's own.
 */
export function isPermalinkLabel(text: string): boolean {
  return text.length <= PERMALINK_LABEL_MAX && PERMALINK_LABEL.test(text);
}

const PERMALINK_LABEL_MAX = 60;
const MONTH = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?';
const WEEKDAY = '(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?';
const CLOCK = '\\d{1,2}:\\d{2}(?::\\d{2})?\\s*(?:[ap]\\.?m\\.?)?';
const DAY_DATE = `(?:${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?(?:,?\\s+\\d{4})?|\\d{1,2}(?:st|nd|rd|th)?\\s+${MONTH}(?:,?\\s+\\d{4})?|\\d{4}-\\d{2}-\\d{2}|\\d{1,2}[./]\\d{1,2}[./]\\d{2,4}|${WEEKDAY}|today|yesterday)`;
const WHEN = `(?:${DAY_DATE}(?:,?\\s*(?:at\\s+)?${CLOCK})?|${CLOCK}|\\d{1,3}\\s*(?:s|m|h|d|w|mo|y|mins?|minutes?|hrs?|hours?|days?|weeks?|months?|years?)(?:\\s+ago)?)`;
// eslint-disable-next-line pith/no-rescan -- constant parts, anchored, and only run on labels of at most PERMALINK_LABEL_MAX characters
const PERMALINK_LABEL = new RegExp(
  `^(?:(?:(?:posted|edited|modified|updated|answered|asked|replied|written)(?:\\s+on)?\\s+)?${WHEN}|#\\d{1,7}|permalink|permanent link|link to (?:this )?post)$`,
  'i',
);

/** Whether an `<img>` is decoration rather than content. */
export function isDecorativeImage(img: Element, src: string, counts: ContentCounts | null): boolean {
  const a = img.attribs;
  if (a.role === 'presentation' || a.role === 'none' || a['aria-hidden'] === 'true') return true;
  const w = declaredPx(a.width) ?? cssPx(a.style, 'width');
  const h = declaredPx(a.height) ?? cssPx(a.style, 'height');
  if ((w !== null && w <= 2) || (h !== null && h <= 2)) return true; // tracking pixel, spacer
  if ((w !== null && w <= ICON_MAX_PX && (h === null || h <= ICON_MAX_PX)) || (h !== null && h <= ICON_MAX_PX && w === null)) return true;
  // `sizes="32px"`: the width the page lays the picture out at, whatever its files' sizes
  const laidOut = sizesPx(a.sizes);
  if (laidOut !== null && laidOut <= ICON_MAX_PX) return true;
  if ((counts?.images.get(src) ?? 0) >= ORNAMENT_REPEATS) return true;
  const alt = a.alt;
  // a figure is content by the author's own markup, whatever its file is called ("pixel.png")
  if (inFigure(img)) return false;
  // a brand mark (a "trusted by" wall, a partner strip, the site's own): an image of a name,
  // also when it is all a link shows (a home link, a partner's site)
  if (LOGO.test(pathOf(src)) || LOGO_FOLDER.test(src) || (alt !== undefined && LOGO.test(alt))) return true;
  // the only label of a link nothing else names ("Get it on Google Play"): the link needs it
  if (soleLinkLabel(img, counts)) return false;
  const path = pathOf(src);
  if (DECORATIVE_FILE.test(path) && !isLongAlt(alt)) return true;
  if (decorativeContext(img) && !isLongAlt(alt)) return true;
  // alt="" is the author saying "decoration" when the image sits beside text it adds nothing to
  if (alt !== undefined && alt.trim() === '' && besideText(img)) return true;
  return false;
}

/**
 * The author marked the image `alt=""` (decoration, in HTML's own terms), it is no figure's
 * and not the only label of a link that nothing else names.
 */
export function isDeclaredDecoration(img: Element, counts: ContentCounts | null): boolean {
  const alt = img.attribs.alt;
  return alt !== undefined && alt.trim() === '' && !inFigure(img) && !soleLinkLabel(img, counts);
}

/** The image is a figure's (within a link or a picture wrapper or two). */
function inFigure(img: Element): boolean {
  let el: Element['parent'] = img.parent;
  for (let i = 0; i < 3 && el !== null && isElement(el); i++) {
    if (el.name === 'figure') return true;
    el = el.parent;
  }
  return false;
}

/** The image is all a link shows, and no text link of the content goes where it goes. */
function soleLinkLabel(img: Element, counts: ContentCounts | null): boolean {
  let el: Element['parent'] = img.parent;
  for (let i = 0; i < 3 && el !== null && isElement(el); i++) {
    if (el.name === 'a') {
      const href = el.attribs.href;
      return href !== undefined && !(counts?.textLinks.has(href) ?? false) && hasOwnText(el) === 0;
    }
    el = el.parent;
  }
  return false;
}

/** A meaningful alt: a few words, not a file name or a single label. */
function isLongAlt(alt: string | undefined): boolean {
  if (alt === undefined) return false;
  const t = alt.trim();
  return t.length >= 25 && t.includes(' ');
}

function declaredPx(v: string | undefined): number | null {
  if (v === undefined) return null;
  const m = /^(\d+(?:\.\d+)?)(?:px)?$/i.exec(v.trim());
  return m ? Number(m[1]) : null;
}

/** A `sizes` attribute that is one length in CSS px ("32px"), not a list of media conditions. */
const SIZES_PX = /^\s*(\d+(?:\.\d+)?)px\s*$/i;

function sizesPx(v: string | undefined): number | null {
  if (v === undefined) return null;
  const m = SIZES_PX.exec(v);
  return m ? Number(m[1]) : null;
}

const CSS_WIDTH = /(?:^|[;\s])width:\s*(\d+(?:\.\d+)?)px/i;
const CSS_HEIGHT = /(?:^|[;\s])height:\s*(\d+(?:\.\d+)?)px/i;

function cssPx(style: string | undefined, prop: 'width' | 'height'): number | null {
  if (style === undefined || !style.includes(prop)) return null;
  const m = (prop === 'width' ? CSS_WIDTH : CSS_HEIGHT).exec(style);
  return m ? Number(m[1]) : null;
}

function pathOf(src: string): string {
  const q = src.search(/[?#]/);
  const p = q < 0 ? src : src.slice(0, q);
  const slash = p.lastIndexOf('/');
  // the file name and its folder: `/avatars/123.jpg`, `/img/icon-check.svg`
  const prev = slash > 0 ? p.lastIndexOf('/', slash - 1) : -1;
  return p.slice(Math.max(prev, 0));
}

function decorativeContext(img: Element): boolean {
  let el: Element | null = img;
  for (let i = 0; i <= PANEL_DEPTH && el !== null; i++) {
    const a = el.attribs;
    if ((a.class !== undefined && DECORATIVE_CONTEXT.test(a.class)) || (a.id !== undefined && DECORATIVE_CONTEXT.test(a.id))) return true;
    if (i > 0 && (a['aria-hidden'] === 'true' || a.role === 'presentation')) return true;
    const p: Element['parent'] = el.parent;
    el = p !== null && isElement(p) ? p : null;
  }
  return false;
}

/** The image's link, heading, list item, cell, card or button also holds text. */
function besideText(img: Element): boolean {
  let el: Element | null = img.parent !== null && isElement(img.parent) ? img.parent : null;
  for (let i = 0; i < 5 && el !== null; i++) {
    if (el.name === 'figure') return false;
    if (/^(?:a|button|h[1-6]|li|td|th|label|dt|span)$/.test(el.name)) return hasOwnText(el) > 0;
    // a card: a small box of an image and a few words (a body of text is not a card)
    if (i >= 1 && (el.name === 'div' || el.name === 'article')) {
      const n = hasOwnText(el);
      if (n > 0) return n <= CARD_TEXT_MAX;
    }
    const p: Element['parent'] = el.parent;
    el = p !== null && isElement(p) ? p : null;
  }
  return false;
}

/** Characters of letter-bearing text under an element (counted up to a bound). */
function hasOwnText(el: Element): number {
  const stack: ChildNode[] = [...el.children];
  let seen = 0;
  let chars = 0;
  while (stack.length > 0 && seen++ < 400 && chars <= CARD_TEXT_MAX) {
    const n = stack.pop() as ChildNode;
    if (isText(n)) {
      if (/[\p{L}\p{N}]/u.test(n.data)) chars += n.data.trim().length;
    } else if (isElement(n)) pushAll(stack, n.children);
  }
  return chars;
}

/**
 * Unrendered markup is found by one forward scan, never by a regex tried at every `[` or `{`:
 * on text made of nothing but unclosed `[a ` a bounded regex still reads up to its bound from
 * each start (3 MB of it took 9x the time of plain text). Each closer is looked up with a
 * finder that remembers its last answer, so every character is read a bounded number of times.
 */
/** Longest placeholder body (`{{ … }}`) and shortcode (`[name …]`) taken as markup. */
const TEMPLATE_MAX = 300;
const SHORTCODE_MAX = 1000;
/** `attr="…"` inside brackets: prose does not write that, shortcodes do (a fresh global regex per text: it keeps lastIndex). */
const quotedAttrPattern = (): RegExp => /[a-z_][\w-]{0,40}[ \t]*=[ \t]*["'\u201c\u201d\u2033]/gi;
const TEMPLATE_CLOSERS: Readonly<Record<string, string>> = { '{{': '}}', '{%': '%}', '{#': '#}' };

/** The next index of a string (or a regex match) at or after a position; positions asked only grow. */
class NextFinder {
  private found = -2;
  private foundEnd = -2;
  constructor(
    private readonly text: string,
    private readonly target: string | RegExp,
  ) {}
  /** Start of the next occurrence at or after `from`, or -1. */
  from(from: number): number {
    if (this.found === -1 || this.found >= from) return this.found;
    if (typeof this.target === 'string') {
      this.found = this.text.indexOf(this.target, from);
      this.foundEnd = this.found < 0 ? -1 : this.found + this.target.length;
    } else {
      this.target.lastIndex = from;
      const m = this.target.exec(this.text);
      this.found = m ? m.index : -1;
      this.foundEnd = m ? m.index + m[0].length : -1;
    }
    return this.found;
  }
  /** End of the occurrence `from` last returned. */
  end(): number {
    return this.foundEnd;
  }
}

/** The text without unrendered shortcodes and template placeholders (the text they wrap stays). */
export function stripUnrendered(data: string, shortcodes: ReadonlySet<string>): string {
  const s = data.includes('{') ? stripTemplates(data) : data;
  return s.includes('[') ? stripShortcodes(s, shortcodes) : s;
}

/** Whether no newline lies between two positions (asked with growing `from`). */
function oneLine(newline: NextFinder, from: number, to: number): boolean {
  const nl = newline.from(from);
  return nl < 0 || nl > to;
}

function stripTemplates(data: string): string {
  const newline = new NextFinder(data, '\n');
  const closers = new Map(Object.entries(TEMPLATE_CLOSERS).map(([open, close]) => [open, new NextFinder(data, close)]));
  let out = '';
  let copied = 0;
  for (let i = data.indexOf('{'); i >= 0 && i < data.length; i = data.indexOf('{', i + 1)) {
    const finder = closers.get(data.slice(i, i + 2));
    if (finder === undefined) continue;
    const end = finder.from(i + 2);
    if (end < 0 || end - (i + 2) > TEMPLATE_MAX || !oneLine(newline, i, end)) continue;
    // `{{ … }}` holds no braces (`{{{x}}}` keeps its outer pair, as a template engine would)
    if (data[i + 1] === '{' && /[{}]/.test(data.slice(i + 2, end))) continue;
    out += data.slice(copied, i);
    copied = end + 2;
    i = end + 1;
  }
  return copied === 0 ? data : out + data.slice(copied);
}

function stripShortcodes(data: string, shortcodes: ReadonlySet<string>): string {
  const newline = new NextFinder(data, '\n');
  const bracketEnd = new NextFinder(data, ']');
  const quotedAttr = new NextFinder(data, quotedAttrPattern());
  let out = '';
  let copied = 0;
  for (let i = data.indexOf('['); i >= 0 && i < data.length; i = data.indexOf('[', i + 1)) {
    const tag = shortcodeAt(data, i, bracketEnd);
    // one whitespace character (a newline too) may follow the name; the attributes stay on its line
    if (tag === null || !oneLine(newline, tag.attrsAt, tag.end)) continue;
    const { end, name, closing } = tag;
    const quoted = !closing && quotedAttr.from(i + 1) >= 0 && quotedAttr.end() <= end;
    if (!shortcodes.has(name) && !quoted) continue;
    out += data.slice(copied, i);
    copied = end + 1;
    i = end;
  }
  return copied === 0 ? data : out + data.slice(copied);
}

/** A shortcode-shaped `[name …]` / `[/name]` at `at`: its name and the index of its `]`; else null. */
function shortcodeAt(
  data: string,
  at: number,
  bracketEnd: NextFinder,
): { end: number; name: string; closing: boolean; attrsAt: number } | null {
  const closing = data[at + 1] === '/';
  const nameAt = closing ? at + 2 : at + 1;
  const after = nameEnd(data, nameAt);
  if (after === nameAt || after - nameAt > 41 || !/[a-z]/.test(data[nameAt] as string)) return null;
  const next = data[after];
  if (next !== ']' && !(next !== undefined && /\s/.test(next))) return null;
  const end = bracketEnd.from(after);
  return end >= 0 && end - after <= SHORTCODE_MAX ? { end, name: data.slice(nameAt, after), closing, attrsAt: after + 1 } : null;
}

/** End of a run of shortcode-name characters (`a-z0-9_-`) from `at`, at most 42 read. */
function nameEnd(data: string, at: number): number {
  let i = at;
  while (i < data.length && i - at <= 41 && /[a-z0-9_-]/.test(data[i] as string)) i++;
  return i;
}

/** Headings near a picture: up this many ancestors, among this many children of each. */
const HEADING_ANCESTORS = 3;
const HEADING_SIBLINGS = 12;
/** A heading longer than this is no picture's name. */
const HEADING_MAX_CHARS = 300;
/** Not `h1`: the page's own subject (a product's name over its photo) keeps its picture. */
const HEADING = new Set(['h2', 'h3', 'h4', 'h5', 'h6']);
/** Normalised text of headings already read (each heading is read once per page). */
const headingWords = new WeakMap<Element, string>();

/**
 * The picture's alt names the heading beside it (a feature tile "Cleans when you want" over
 * a picture with that alt, a section picture named like its section, a teaser's headline),
 * or says exactly what a short text beside it says (a feature icon over its caption, a
 * swatch beside its colour name): the text says it, the picture only adds a URL (it stays
 * in the `images` list). A heading must share two words at least; the heading or text is a
 * child (or a heading a child's first child) of one of the picture's three nearest ancestors.
 */
export function altRepeatsNearbyText(img: Element, alt: string): boolean {
  const name = words(alt);
  if (name === '' || inFigure(img)) return false;
  const twoWords = name.indexOf(' ') > 0;
  let el: Element['parent'] = img.parent;
  let from: Element = img;
  for (let level = 0; level < HEADING_ANCESTORS && el !== null && isElement(el); level++, from = el, el = el.parent) {
    let seen = 0;
    for (const c of el.children) {
      if (!isElement(c)) continue;
      if (++seen > HEADING_SIBLINGS) break;
      if (c === from) continue;
      const heading = HEADING.has(c.name) ? c : firstHeadingChild(c);
      if (twoWords && heading !== null && sameName(name, wordsOfHeading(heading))) return true;
      if (heading === null && !HEADINGS.has(c.name) && name === wordsOfText(c)) return true;
    }
  }
  return false;
}

/** A short text (a caption, a label) of a few nodes: its words, or '' when longer. */
function wordsOfText(el: Element): string {
  let w = shortTextWords.get(el);
  if (w === undefined) {
    const text = boundedTextOf(el, SHORT_TEXT_NODES, HEADING_MAX_CHARS);
    w = text.length > HEADING_MAX_CHARS ? '' : words(text);
    shortTextWords.set(el, w);
  }
  return w;
}

/** Nodes read of a text beside a picture. */
const SHORT_TEXT_NODES = 12;
const shortTextWords = new WeakMap<Element, string>();

function firstHeadingChild(el: Element): Element | null {
  const first = firstElementChild(el);
  return first !== null && HEADING.has(first.name) ? first : null;
}

function wordsOfHeading(h: Element): string {
  let w = headingWords.get(h);
  if (w === undefined) {
    const text = textOf(h);
    w = text.length > HEADING_MAX_CHARS ? '' : words(text);
    headingWords.set(h, w);
  }
  return w;
}

/** Equal, or one holds the other and is at least 60 % of its length. */
function sameName(a: string, b: string): boolean {
  if (a === '' || b === '') return false;
  if (a === b) return true;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return short.length >= long.length * 0.6 && long.includes(short);
}

function words(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** A wall: at least this many sibling items, each a picture alone (a logo strip, a badge row). */
const WALL_MIN_ITEMS = 4;
/** Children of a wall's parent looked at. */
const WALL_CHILDREN_MAX = 80;
/** Nodes read of one item to see that it is a picture alone. */
const WALL_ITEM_NODES = 30;
const wallOf = new WeakMap<Element, { first: Element; marks: boolean } | null>();

/**
 * Whether a picture of a wall is left out: the items (4 or more, 80 % of their parent's
 * children at least) are each a picture and nothing else. A wall of marks (every alt a
 * different short name: customer logos, integrations, award badges, colour swatches) says
 * nothing the page's text needs, and none is written; a gallery (long or repeated alts: a
 * product's photos) is shown by its first picture. All stay in the `images` list; a picture
 * that is the only label of a link nothing else names is written. Each parent is judged once.
 */
export function leftOutOfWall(img: Element, counts: ContentCounts | null): boolean {
  if (soleLinkLabel(img, counts)) return false;
  let item: Element = img;
  for (let i = 0; i < 4; i++) {
    const p = item.parent;
    if (p === null || !isElement(p)) return false;
    if (p.name === 'picture' || onlyElementChild(p)) {
      item = p;
      continue;
    }
    let wall = wallOf.get(p);
    if (wall === undefined) {
      wall = judgeWall(p);
      wallOf.set(p, wall);
    }
    return wall !== null && (wall.marks || wall.first !== img);
  }
  return false;
}

/** A mark's alt: a name of at most this many words. */
const MARK_MAX_WORDS = 4;

/** The parent holds one element (a `<source>` aside): read up to the second, never all its children. */
function onlyElementChild(p: Element): boolean {
  let elements = 0;
  for (const c of p.children) if (isElement(c) && c.name !== 'source' && ++elements > 1) return false;
  return elements === 1;
}

function judgeWall(p: Element): { first: Element; marks: boolean } | null {
  const images: Element[] = [];
  let elements = 0;
  let pictures = 0;
  for (const c of p.children) {
    if (!isElement(c)) continue;
    if (++elements > WALL_CHILDREN_MAX) return null;
    const img = pictureAlone(c);
    if (img !== null) {
      pictures++;
      images.push(img);
    }
  }
  if (pictures < WALL_MIN_ITEMS || pictures < elements * 0.8) return null;
  const names = new Set<string>();
  for (const img of images) {
    const name = words(img.attribs.alt ?? '');
    if (name === '' || name.split(' ').length > MARK_MAX_WORDS || names.has(name)) return { first: images[0] as Element, marks: false };
    names.add(name);
  }
  return { first: images[0] as Element, marks: true };
}

/** The one `<img>` of an item that shows nothing else (no letters, one picture); else null. */
function pictureAlone(item: Element): Element | null {
  if (item.name === 'img') return item;
  const stack: ChildNode[] = [...item.children];
  let img: Element | null = null;
  for (let seen = 0; stack.length > 0; seen++) {
    if (seen > WALL_ITEM_NODES) return null;
    const n = stack.pop() as ChildNode;
    if (isText(n)) {
      if (/[\p{L}\p{N}]/u.test(n.data)) return null;
    } else if (isElement(n)) {
      if (n.name === 'img') {
        if (img !== null) return null;
        img = n;
      } else pushAll(stack, n.children);
    }
  }
  return img;
}
