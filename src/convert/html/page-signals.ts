import type { Element } from 'domhandler';
import { boundedTextOf, childrenByTemplate, isElement, isText } from './dom.js';
import type { PageMetadata, StructuredHints } from './metadata.js';
import type { MarkupHints } from './prepare.js';
import { linkDensity } from './stats.js';
import type { StatsMap } from './stats.js';

/**
 * The evidence page-type.ts decides from, gathered in one walk over the prepared body:
 * the URL, structured data and microdata, and the shape of the page (code blocks, prices,
 * repeated cards and posts, prose, sections). Everything here is structural or a
 * generic word; nothing names a site.
 */
export interface PageSignals {
  host: string;
  path: string;
  /** Query string without `?`, lower-cased. */
  query: string;
  structured: StructuredHints;
  markup: MarkupHints;
  /** Metadata gives a publication date / an author. */
  published: boolean;
  authored: boolean;
  bodyText: number;
  bodyLinkDensity: number;
  /** The `<body>` element's class, lower-cased (themes name the template there: `archive`, `single-post`). */
  bodyClass: string;
  /** Text in paragraphs of at least PROSE_PARAGRAPH characters, mostly not links. */
  proseText: number;
  proseParagraphs: number;
  /** `<pre>` blocks and inline `<code>`. */
  codeBlocks: number;
  inlineCode: number;
  /** Text nodes that read like a price. */
  prices: number;
  /** `<time>` elements. */
  times: number;
  /** `<section>` elements and headings of any level. */
  sections: number;
  headings: number;
  /** Largest group of repeated sibling cards (same tag and class, each with a link). */
  cards: RepeatedGroup;
  /** Largest group of repeated sibling posts (same tag and class, each with prose and a date or author). */
  posts: RepeatedGroup;
  /** Largest group of repeated teasers: a linked heading and a line of text each (a blog or news index). */
  teasers: RepeatedGroup;
  /** Elements whose class or id names a comment, post or reply (a thread's blocks). */
  threadBlocks: number;
  /** Links and buttons outside the page's chrome that ask the reader to act (`Get a quote`, `Book a demo`). */
  callsToAction: number;
  /** Elements whose class or id names a testimonial. */
  testimonials: number;
  /** `<time>` elements and date-like texts outside the page's chrome (a byline's or a post's date). */
  contentDates: number;
}

export interface RepeatedGroup {
  count: number;
  /** Members holding a price. */
  withPrice: number;
  /** Members holding an image. */
  withImage: number;
  /** Mean text length of a member. */
  meanText: number;
}

/** A paragraph (a block without blocks inside) this long and mostly not links is prose. */
const PROSE_PARAGRAPH = 80;
const PROSE_MAX_LINK_DENSITY = 0.3;
/** Where paragraphs live: `<p>`, and block-free divs and cells (pages that break lines with `<br>`). */
const PROSE_BLOCKS = new Set(['p', 'div', 'td', 'blockquote']);
/** Cards of a grid carry at least this much text each (a name) and at most this much (a teaser, not a story). */
const CARD_MIN_TEXT = 8;
const CARD_MAX_TEXT = 1500;
/** A grid has at least this many cards; a thread at least this many posts (a question and an answer). */
const MIN_CARDS = 3;
const MIN_POSTS = 2;
/** A teaser's heading sits at most this many levels into its card. */
const LINKED_HEADING_DEPTH = 4;
/** Posts of a thread carry at least this much text each. */
const POST_MIN_TEXT = 60;

/** A currency sign next to digits, or digits followed by a currency code or sign. */
export const PRICE =
  /(?:[$€£¥₹₩₽]|\b(?:usd|eur|gbp|cad|aud|chf|sek|nok|dkk|pln|rs\.?)\s?)\s?\d|\d(?:[\d.,\s]{0,12}\d)?\s?(?:€|£|zł|kr\b|kč|lei|eur\b|usd\b|руб|₽|円)/i;
/** A date as bylines write it: `May 3, 2024`, `2024-05-03`, `03/05/2024`, `3 days ago`. */
export const DATE_LIKE =
  /\b(?:\d{1,2}(?:st|nd|rd|th)?\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b|\b\d{1,3} (?:minutes?|hours?|days?|weeks?|months?|years?) ago\b/i;
const THREAD_TOKEN =
  /(?:^|[\s_-])(?:comment|post|reply|message|answer)s?(?:[\s_-]|$)|(?:^|[\s_-])(?:postbody|post-body|topic-body|message-body|comment-body)/i;
const AUTHORISH = /author|user|member|poster|username|avatar/;
/** A call to action is a short link or button; longer ones are sentences that mention one. */
const CTA_MAX_TEXT = 40;
/** What a business's landing page asks of its reader (a newsletter's "Subscribe" is not one: stories carry it too). */
const CALL_TO_ACTION =
  /^\s*(?:get (?:started|in touch|a (?:free )?(?:quote|demo|estimate|consultation|proposal))|request (?:a |your )?(?:free )?(?:quote|demo|consultation|estimate|proposal|information|a call)|(?:book|schedule) (?:a |your )?(?:free )?(?:demo|call|consultation|appointment|meeting|service)|(?:start|try) (?:(?:your|a) )?(?:free|for free|now|it free)|free (?:trial|consultation|quote|estimate|demo)|contact (?:us|sales|our team|an? expert)|talk to (?:sales|an? expert|us|our)|let'?s talk|call (?:us|now|today)|sign up (?:free|for free|now)|(?:see|view) (?:plans|pricing)|(?:enquire|inquire|apply|enroll|register) now)/i;
/** A call to action's subtree is read only up to this many nodes (nested buttons must not make the walk quadratic). */
const CTA_MAX_NODES = 24;
const TESTIMONIAL = /testimonial/i;
/** The page's chrome: its calls to action and dates belong to the site, not to this page. */
const CHROME_TAGS = new Set(['nav', 'header', 'footer', 'aside']);
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo']);

export interface SignalSources {
  url: string;
  body: Element;
  stats: StatsMap;
  meta: PageMetadata;
  markup: MarkupHints;
}

/**
 * The cheap part of the evidence (URL, metadata, markup hints, body size); the structure
 * fields stay empty until measureStructure fills them, which page-type.ts asks for only
 * when the cheap evidence does not decide.
 */
export function collectPageSignals({ url, body, stats, meta, markup }: SignalSources): PageSignals {
  const { host, path, query } = splitUrl(url);
  const bs = stats.get(body);
  return {
    host,
    path,
    query,
    structured: meta.structured,
    markup,
    published: meta.publishedAt !== null,
    authored: meta.author !== null,
    bodyText: bs?.textLen ?? 0,
    bodyLinkDensity: linkDensity(bs),
    bodyClass: (body.attribs.class ?? '').toLowerCase(),
    proseText: 0,
    proseParagraphs: 0,
    codeBlocks: 0,
    inlineCode: 0,
    prices: 0,
    times: 0,
    sections: 0,
    headings: 0,
    cards: emptyGroup(),
    posts: emptyGroup(),
    teasers: emptyGroup(),
    threadBlocks: 0,
    callsToAction: 0,
    testimonials: 0,
    contentDates: 0,
  };
}

/** One walk over the body: code, prices, dates, prose, headings, repeated cards and posts. */
export function measureStructure(s: PageSignals, body: Element, stats: StatsMap): void {
  const priced = new Set<Element>();
  const dated = new Set<Element>();
  const stack: Element[] = [body];
  const chromeStack: boolean[] = [false];
  const order: Element[] = [];
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    const chrome = (chromeStack.pop() as boolean) || isLandmarkChrome(el);
    order.push(el);
    const name = el.name;
    if (!chrome) measureContentCues(el, stats, s);
    if (name === 'pre') s.codeBlocks++;
    else if (name === 'code') s.inlineCode++;
    else if (name === 'time') {
      s.times++;
      dated.add(el);
      if (!chrome) s.contentDates++;
    } else if (name === 'section') s.sections++;
    else if (name.length === 2 && name[0] === 'h' && name[1] !== undefined && name[1] >= '1' && name[1] <= '6') s.headings++;
    if (PROSE_BLOCKS.has(name)) {
      const textLen = stats.textLenOf(el);
      if (!stats.hasBlockOf(el)) {
        if (textLen >= PROSE_PARAGRAPH && stats.linkLenOf(el) < textLen * PROSE_MAX_LINK_DENSITY) {
          s.proseText += textLen;
          s.proseParagraphs++;
        }
      } else if (textLen >= PROSE_PARAGRAPH) {
        // Text lying loose beside blocks (lines broken with <br>) is prose too.
        const loose = looseTextLength(el);
        if (loose >= PROSE_PARAGRAPH) {
          s.proseText += loose;
          s.proseParagraphs += 1 + (stats.breaksOf(el) >> 1);
        }
      }
    }
    const { class: cls, id } = el.attribs;
    if ((cls !== undefined && THREAD_TOKEN.test(cls)) || (id !== undefined && THREAD_TOKEN.test(id))) s.threadBlocks++;
    for (const c of el.children) {
      if (isElement(c)) {
        stack.push(c);
        chromeStack.push(chrome);
      } else if (isText(c) && c.data.length < 200 && hasDigit(c.data)) {
        // Prices and dates have digits: most text nodes skip both regexes.
        if (PRICE.test(c.data)) {
          s.prices++;
          priced.add(el);
        } else if (DATE_LIKE.test(c.data)) {
          dated.add(el);
          if (!chrome) s.contentDates++;
        }
      }
    }
  }
  // Mark ancestors of priced / dated elements, bottom-up (reverse pre-order), so a card knows what it holds.
  const hasPrice = markAncestors(priced, body);
  const hasDate = markAncestors(dated, body);
  for (const el of order) measureGroups(el, stats, hasPrice, hasDate, s);
}

function isLandmarkChrome(el: Element): boolean {
  const role = el.attribs.role;
  return CHROME_TAGS.has(el.name) || (role !== undefined && CHROME_ROLES.has(role));
}

/** Calls to action and testimonials in the page's own content (a landing page's cues). */
function measureContentCues(el: Element, stats: StatsMap, s: PageSignals): void {
  const name = el.name;
  if (name === 'a' || name === 'button') {
    const len = stats.textLenOf(el);
    if (len > 0 && len <= CTA_MAX_TEXT && CALL_TO_ACTION.test(boundedTextOf(el, CTA_MAX_NODES))) s.callsToAction++;
  }
  const { class: cls, id } = el.attribs;
  if ((cls !== undefined && TESTIMONIAL.test(cls)) || (id !== undefined && TESTIMONIAL.test(id))) s.testimonials++;
}

/** A heading (h2–h4) that is or holds a link, among the first levels of `el`. */
function hasLinkedHeading(el: Element): boolean {
  const stack: Array<[Element, number]> = [[el, 0]];
  while (stack.length > 0) {
    const [n, depth] = stack.pop() as [Element, number];
    if (n.name === 'h2' || n.name === 'h3' || n.name === 'h4') return insideLink(n, el) || holdsLink(n);
    if (depth >= LINKED_HEADING_DEPTH) continue;
    for (const c of n.children) if (isElement(c)) stack.push([c, depth + 1]);
  }
  return false;
}

function insideLink(n: Element, stop: Element): boolean {
  for (let p = n.parent; isElement(p) && p !== stop; p = p.parent) if (p.name === 'a') return true;
  return false;
}

function holdsLink(n: Element): boolean {
  for (const c of n.children) if (isElement(c) && (c.name === 'a' || holdsLink(c))) return true;
  return false;
}

function hasDigit(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) return true;
  }
  return false;
}

function looseTextLength(el: Element): number {
  let n = 0;
  for (const c of el.children) if (isText(c)) n += c.data.trim().length;
  return n;
}

function emptyGroup(): RepeatedGroup {
  return { count: 0, withPrice: 0, withImage: 0, meanText: 0 };
}

function markAncestors(seeds: Set<Element>, stop: Element): Set<Element> {
  const out = new Set<Element>();
  for (const seed of seeds) {
    for (let p: Element | null = seed; p && !out.has(p); p = isElement(p.parent) ? p.parent : null) {
      out.add(p);
      if (p === stop) break;
    }
  }
  return out;
}

/** Group `parent`'s children by tag + class; keep the largest card group and post group seen. */
function measureGroups(parent: Element, stats: StatsMap, hasPrice: Set<Element>, hasDate: Set<Element>, s: PageSignals): void {
  const kids = parent.children;
  let elements = 0;
  for (const c of kids) if (isElement(c)) elements++;
  // Most elements have one element child or none: no group to measure, nothing to allocate.
  if (elements < MIN_POSTS) return;
  const { groups } = childrenByTemplate(parent);
  for (const members of groups.values()) {
    if (members.length < MIN_POSTS) continue;
    let cards = 0;
    let posts = 0;
    let teasers = 0;
    let teaserText = 0;
    let priced = 0;
    let imaged = 0;
    let cardText = 0;
    let postText = 0;
    for (const m of members) {
      const textLen = stats.textLenOf(m);
      const linkLen = stats.linkLenOf(m);
      if (textLen >= CARD_MIN_TEXT && textLen <= CARD_MAX_TEXT && linkLen > 0) {
        cards++;
        cardText += textLen;
        if (hasPrice.has(m)) priced++;
        if (stats.imagesOf(m) > 0) imaged++;
      }
      const prose = textLen - linkLen;
      if (prose >= POST_MIN_TEXT && (hasDate.has(m) || AUTHORISH.test(m.attribs.class ?? ''))) {
        // A card whose heading is a link points to a story elsewhere: a teaser, not a post.
        if (hasLinkedHeading(m)) {
          teasers++;
          teaserText += textLen;
        } else {
          posts++;
          postText += textLen;
        }
      } else if (prose >= POST_MIN_TEXT && hasLinkedHeading(m)) {
        teasers++;
        teaserText += textLen;
      }
    }
    if (teasers > s.teasers.count) s.teasers = { count: teasers, withPrice: 0, withImage: 0, meanText: teaserText / teasers };
    if (cards >= MIN_CARDS && cards > s.cards.count)
      s.cards = { count: cards, withPrice: priced, withImage: imaged, meanText: cardText / cards };
    if (posts > s.posts.count) s.posts = { count: posts, withPrice: 0, withImage: 0, meanText: postText / posts };
  }
}

function splitUrl(url: string): { host: string; path: string; query: string } {
  try {
    const u = new URL(url);
    return { host: u.hostname.toLowerCase(), path: safeDecode(u.pathname).toLowerCase(), query: u.search.slice(1).toLowerCase() };
  } catch {
    return { host: '', path: '', query: '' };
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
