import type { ChildNode, Element, ParentNode } from 'domhandler';
import { isElement } from './dom.js';

/**
 * What main-content detection and pruning share: the flags of the retry ladder, the one
 * PATTERNS object (class/id/role/text regexes), class weights and small tree helpers.
 */

export const FLAG_STRIP_UNLIKELYS = 1;
export const FLAG_WEIGHT_CLASSES = 2;
export const FLAG_CLEAN_CONDITIONALLY = 4;

/** Class/id weight: a positive or negative pattern moves a candidate by this much. */
export const CLASS_WEIGHT = 25;
/** Paragraphs shorter than this add nothing to their ancestors' scores. */
export const MIN_PARAGRAPH_LEN = 25;
/** Short elements whose whole text is boilerplate are at most this long. */
export const BOILERPLATE_TEXT_MAX = 60;

export const PATTERNS = {
  unlikely:
    /-ad-|(?:^|[\s_-])ads?(?:[\s_-]|$)|adsbygoogle|advert|agegate|ai2html|banner|breadcrumb|combx|comment|community|consent|cookie|cover-wrap|disqus|donate|extra|footer|gdpr|header|legends|menu|modal|newsletter|outbrain|pager|pagination|popup|promo|related|remark|replies|reply-?box|reply-?form|respond|rss|share|sharing|shoutbox|sidebar|skyscraper|social|sponsor|subscri|supplemental|taboola|toolbar|tooltip|trending|yom-remote/,
  maybeCandidate: /and|article|body|column|content|main|mathjax|shadow|post|entry|story|thread|answer|question|product|docs/,
  positive:
    /article|body|content|entry|hentry|h-entry|main|page|post|text|blog|story|prose|markdown|answer|question|thread|message|product|docs?(?:[\s_-]|$)|documentation/,
  negative:
    /-ad-|hidden|^hid$|\shid$|\shid\s|^hid\s|banner|combx|comment|com-|contact|footer|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget|newsletter|subscri|cookie|consent|recommend|trending|taboola|caption|credit/,
  byline:
    /byline|author|dateline|\bmeta\b|writtenby|posted-?on|pubdate|timestamp|article-?date|publish|post-?date|post-?meta|entry-?meta|article-?meta|read-?time|reading-?time/,
  boilerplateText:
    /^(?:advertisement|advertisements|sponsored( content)?|ad|continue reading|read more|share|share this( article| story)?|share on \w+|tweet|print|email|comments?|\d+ comments?|related( articles| stories| posts)?|you may also like[.:…!]*|recommended( for you)?|read next[.:…]*|more stories|most popular|more from .{0,30}|follow us.*|sign up.*|subscribe.*|skip to (main )?content|back to top|(?:toggle|hide|show) caption|story continues below.*|article continues below.*)$/i,
  unlikelyRoles: /^(?:menu|menubar|complementary|navigation|alert|alertdialog|dialog|banner|contentinfo|search)$/,
  shareOrSocial: /share|social|sharing|follow-us/,
} as const;

/** Landmarks that are never the main content, whatever the flags. */
export const STRUCTURAL_BOILERPLATE = new Set(['nav', 'aside', 'footer', 'menu']);
export const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

export function classWeight(el: Element, flags: number): number {
  if (!(flags & FLAG_WEIGHT_CLASSES)) return 0;
  let w = 0;
  const c = el.attribs.class;
  const id = el.attribs.id;
  if (c) {
    const lc = c.toLowerCase();
    if (PATTERNS.negative.test(lc)) w -= CLASS_WEIGHT;
    if (PATTERNS.positive.test(lc)) w += CLASS_WEIGHT;
  }
  if (id) {
    const li = id.toLowerCase();
    if (PATTERNS.negative.test(li)) w -= CLASS_WEIGHT;
    if (PATTERNS.positive.test(li)) w += CLASS_WEIGHT;
  }
  const itemprop = el.attribs.itemprop;
  if (itemprop && /articleBody|text|description/.test(itemprop)) w += CLASS_WEIGHT;
  return w;
}

export function childElements(el: ParentNode): Element[] {
  const out: Element[] = [];
  for (const c of el.children as ChildNode[]) if (isElement(c)) out.push(c);
  return out;
}

export function hasAncestor(el: Element, name: string): boolean {
  let p = el.parent;
  for (let i = 0; i < 6 && isElement(p); i++) {
    if (p.name === name) return true;
    p = p.parent;
  }
  return false;
}
