import type { Element } from 'domhandler';
import { BOILERPLATE_TEXT_MAX, HEADINGS, PATTERNS, STRUCTURAL_BOILERPLATE, hasAncestor } from './content-patterns.js';
import { classAndId, collapseWhitespace, isElement, textOf } from './dom.js';
import type { PageType } from './page-type.js';
import { normaliseTitle } from './prune.js';
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
/** A page intro outside the region (category heading and description) is at most this long. */
const INTRO_MAX_TEXT = 1500;
/** An author/date line is shorter than this. */
const BYLINE_MAX_TEXT = 200;
/** A block holding more than this share of the region's text is a wrapper, never chrome. */
const CHROME_MAX_SHARE = 0.5;

/** Class/id words that always mean chrome (matched anywhere in a token). */
const CHROME_ANYWHERE =
  /cookie|consent|gdpr|newsletter|subscri|breadcrumb|pagination|skip-?link|skip-?to|social-?(?:links|icons|media|share)|share-?(?:bar|buttons|links|tools)|sharing|sharethis|addthis|modal|popup|overlay|offcanvas|off-canvas|drawer|announcement-?bar|promo-?bar|back-?to-?top|mega-?menu|site-?header|site-?footer|global-?header|global-?footer|masthead|navbar|topbar|top-bar|utility-?nav|sidebar/;
/** Class/id words that mean chrome as a whole token (`nav`, but not `canvas`). */
const CHROME_TOKEN =
  /(?:^|[\s_-])(?:nav|navigation|menu|menus|header|footer|share|social|pager|toolbar|banner-ad|ads?|advert|advertisement|sponsored|widget-area|login|signin|search-?form|search-?bar)(?:[\s_-]|$)/;
/** Per type: blocks that belong to other products, other pages or other people. */
const NOT_THIS_PRODUCT =
  /related|recommend|upsell|up-sell|cross-?sell|also-?(?:bought|viewed|like)|you-?may|may-?also|recently-?viewed|similar|complete-?the-?look|frequently-?bought/;
const GRID_CONTROLS = /(?:^|[\s_-])(?:filters?|facets?|refine|refinements?|sort|sorting|sort-?by|toolbar|layered-?nav)(?:[\s_-]|$)/;
const RELATED = /(?:^|[\s_-])(?:related|recommended|more-?stories|read-?next)(?:[\s_-]|$)/;
const READER_COMMENTS = /(?:^|[\s_-])(?:comments?|comment-?list|comment-?form|respond|disqus|replies)(?:[\s_-]|$)/;

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

export function extractRegion(body: Element, stats: StatsMap, opts: RegionOptions): Region {
  const { pageType, titles } = opts;
  const { root, heading } = regionRoot(body, stats, opts.top);
  // The blocks that hold the page heading or the best block are wrappers, whatever their class says.
  const wrappers = new Set<Element>();
  for (const start of [heading, opts.top]) for (let p = start; p && p !== root; p = isElement(p.parent) ? p.parent : null) wrappers.add(p);
  const guard: ChromeGuard = { wrappers, maxText: wrappers.size > 0 ? Infinity : (stats.get(root)?.textLen ?? 0) * CHROME_MAX_SHARE };
  const roots = [root];
  const intro = heading && !contains(root, heading) ? introBlock(heading, root, stats) : null;
  if (intro) roots.unshift(intro);
  const drop = new Set<Element>();
  let titleDropped = false;
  const stack: Element[] = [];
  for (let i = roots.length - 1; i >= 0; i--) stack.push(...childElementsReversed(roots[i] as Element));
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    if (isChrome(el, stats, guard, pageType) || (opts.authorKnown && pageType !== 'forum' && isByline(el, stats))) {
      drop.add(el);
      continue;
    }
    if (!titleDropped && (el.name === 'h1' || el.name === 'h2') && titles.size > 0 && titles.has(normaliseTitle(textOf(el)))) {
      drop.add(el);
      titleDropped = true;
      continue;
    }
    if (el.name === 'p' || el.name === 'pre' || el.name === 'table') continue;
    stack.push(...childElementsReversed(el));
  }
  return { roots, drop };
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

function contains(ancestor: Element, el: Element): boolean {
  for (let p: Element | null = el; p; p = isElement(p.parent) ? p.parent : null) if (p === ancestor) return true;
  return false;
}

/**
 * The largest `<main>` landmark when it holds a fair share of the page; else the smallest
 * block holding both the page heading and the best-scoring block (site bars and footers
 * sit outside it); else the body.
 */
function regionRoot(body: Element, stats: StatsMap, top: Element | null): { root: Element; heading: Element | null } {
  let best: Element | null = null;
  let bestLen = -1;
  let heading: Element | null = null;
  const stack: Element[] = [body];
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    if (STRUCTURAL_BOILERPLATE.has(el.name)) continue;
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
    while (root && root !== body && isElement(root.parent) && siblingProse(root, stats) >= CLIMB_MIN_PROSE) root = root.parent;
    if (root && (stats.get(root)?.textLen ?? 0) >= bodyLen * MAIN_MIN_SHARE) return { root, heading };
  }
  return { root: body, heading };
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

function commonAncestor(a: Element, b: Element): Element | null {
  const seen = new Set<Element>();
  for (let p: Element | null = a; p; p = isElement(p.parent) ? p.parent : null) seen.add(p);
  for (let p: Element | null = b; p; p = isElement(p.parent) ? p.parent : null) if (seen.has(p)) return p;
  return null;
}

/** A short author/date line (the article path's rule: metadata already names the author). */
function isByline(el: Element, stats: StatsMap): boolean {
  const ci = classAndId(el);
  return ci !== '' && PATTERNS.byline.test(ci) && (stats.get(el)?.textLen ?? 0) < BYLINE_MAX_TEXT;
}

/** What class-based chrome rules never drop: wrappers of the content, and blocks above a text share. */
interface ChromeGuard {
  wrappers: ReadonlySet<Element>;
  maxText: number;
}

const NO_GUARD: ChromeGuard = { wrappers: new Set(), maxText: Infinity };

function isChrome(el: Element, stats: StatsMap, guard: ChromeGuard, pageType: PageType): boolean {
  const s = stats.get(el);
  if (!s) return false;
  const name = el.name;
  if (STRUCTURAL_BOILERPLATE.has(name)) return true;
  const role = el.attribs.role;
  if (role !== undefined && PATTERNS.unlikelyRoles.test(role) && name !== 'main' && name !== 'article') return true;
  if (name === 'header' && !holdsPageHeading(el, stats) && !hasAncestor(el, 'article')) return true;
  if (
    s.textLen > 0 &&
    s.textLen <= BOILERPLATE_TEXT_MAX &&
    !HEADINGS.has(name) &&
    PATTERNS.boilerplateText.test(collapseWhitespace(textOf(el)))
  )
    return true;
  const ci = classAndId(el);
  if (ci === '' || s.hasMainish || guard.wrappers.has(el) || s.textLen > guard.maxText) return false;
  if (CHROME_ANYWHERE.test(ci) || CHROME_TOKEN.test(ci)) return !holdsPageHeading(el, stats);
  if (pageType === 'product' && NOT_THIS_PRODUCT.test(ci)) return true;
  if ((pageType === 'collection' || pageType === 'listing') && GRID_CONTROLS.test(ci)) return true;
  if (pageType !== 'product' && RELATED.test(ci)) return true;
  if (pageType !== 'forum' && READER_COMMENTS.test(ci)) return true;
  return false;
}

/** Holds the page's `<h1>` (not a logo link): a page header, which is content. */
function holdsPageHeading(el: Element, stats: StatsMap): boolean {
  const stack: Element[] = [el];
  while (stack.length > 0) {
    const n = stack.pop() as Element;
    if (n.name === 'h1') return linkDensity(stats.get(n)) < 0.5;
    for (const c of n.children) if (isElement(c)) stack.push(c);
  }
  return false;
}

function childElementsReversed(el: Element): Element[] {
  const out: Element[] = [];
  for (let i = el.children.length - 1; i >= 0; i--) {
    const c = el.children[i];
    if (isElement(c)) out.push(c);
  }
  return out;
}
