import type { Element, ParentNode } from 'domhandler';
import {
  FLAG_CLEAN_CONDITIONALLY,
  FLAG_STRIP_UNLIKELYS,
  FLAG_WEIGHT_CLASSES,
  MIN_PARAGRAPH_LEN,
  PATTERNS,
  STRUCTURAL_BOILERPLATE,
  HEADINGS,
  childElements,
  classWeight,
} from './content-patterns.js';
import { classAndId, collapseWhitespace, contains, isElement, textOf } from './dom.js';
import type { PageType } from './page-type.js';
import { normaliseTitles, pruneContent } from './prune.js';
import { cardImages } from './card-images.js';
import { catalogueBesideStory, indexAroundStory, indexInsideStory } from './index-cards.js';
import { isCategoryGrid } from './collection-region.js';
import { extractRegion, extractThread, locateRegion } from './region.js';
import { dropRepeatedBlocks } from './repeats.js';
import { dropRepeatedButtons } from './cta-links.js';
import { dropClosingBio } from './closing-bio.js';
import { BLOCK_TAGS, computeStats, linkDensity } from './stats.js';
import { findThread } from './thread.js';
import type { ElementStats, StatsMap } from './stats.js';

/**
 * Main-content detection. The idea comes from Mozilla Readability (score paragraphs, credit
 * their ancestors, pick the best container, merge its good siblings, clean conditionally,
 * retry with fewer assumptions) with boilerplate rules in the spirit of trafilatura and
 * Defuddle (structural landmarks, class/id patterns, short boilerplate phrases). The tree
 * is never modified here: the result is a list of content roots plus a set of elements the
 * Markdown writer skips, so retries are cheap and need no re-parse.
 *
 * Phases (see extractMainContent): computeStats → markUnlikely → scoreParagraphs →
 * pickTopCandidate → refineTopCandidate → promoteToLandmark → mergeSiblings → pruneContent
 * (prune.ts); the retry ladder drops one flag per attempt and keeps the rung with the most
 * prose. Shared flags and patterns live in content-patterns.ts.
 */

export { FLAG_CLEAN_CONDITIONALLY, FLAG_STRIP_UNLIKELYS, FLAG_WEIGHT_CLASSES, PATTERNS } from './content-patterns.js';

const ALL_FLAGS = FLAG_STRIP_UNLIKELYS | FLAG_WEIGHT_CLASSES | FLAG_CLEAN_CONDITIONALLY;

/**
 * When the story holds less than this share of a mostly link-free region's text, it missed
 * content spread over blocks. A region full of links (teasers, comment lists, link farms
 * around a short news story) needs more evidence: the story holds less than the second
 * share of a `<main>` landmark, or less than the third share of any region.
 */
const STORY_SHARE_OF_CLEAN_REGION = 0.55;
const REGION_MAX_LINK_DENSITY = 0.2;
const STORY_SHARE_OF_MAIN = 0.3;
const STORY_SHARE_OF_ANY_REGION = 0.1;
/** Page types whose content is the page's main region rather than its best block (region.ts). */
const REGION_TYPES: ReadonlySet<PageType> = new Set(['service', 'product', 'collection', 'listing', 'documentation']);
/** Grids: their cards' pictures repeat the cards' names (card-images.ts). */
const GRID_TYPES: ReadonlySet<PageType> = new Set(['collection', 'listing']);

/** Below this many characters an attempt is considered a miss and the ladder goes on (Readability's 500). */
export const CHAR_THRESHOLD = 500;
/** Pages with more elements than this get one rung: four passes over a million nodes cost seconds. */
const LADDER_MAX_ELEMENTS = 100_000;
/** A first-rung result this long and nearly link-free is accepted even under CHAR_THRESHOLD. */
const SHORT_ARTICLE_CHARS = 250;
/** A paragraph's length adds at most this much (one point per 100 characters). */
const MAX_LENGTH_BONUS = 3;
/** Ancestor levels that receive a paragraph's score (parent full, grandparent half, then /3·level). */
const SCORE_ANCESTOR_LEVELS = 5;
/** Top-5 alternatives within this share of the top score vote for a common ancestor. */
const ALTERNATIVE_SCORE_SHARE = 0.75;
const MIN_ALTERNATIVE_VOTES = 3;
/** A sibling joins the content at this share of the top score (but at least SIBLING_MIN_SCORE). */
const SIBLING_SCORE_SHARE = 0.2;
const SIBLING_MIN_SCORE = 10;
/** A sibling paragraph longer than this with less link text than SIBLING_PROSE_MAX_LINK_DENSITY is the story's. */
const SIBLING_PROSE_MIN_TEXT = 80;
const SIBLING_PROSE_MAX_LINK_DENSITY = 0.25;
/** Headings, figures and lists between kept siblings stay when less of their text than this is links. */
const SIBLING_BETWEEN_MAX_LINK_DENSITY = 0.5;
/** An unlikely-looking wrapper that holds this share of the page text is kept anyway. */
const UNLIKELY_MAX_TEXT_SHARE = 0.5;
/** When no rung of the ladder reaches CHAR_THRESHOLD, content inside boilerplate-looking containers counts this much. */
const UNLIKELY_ATTEMPT_DISCOUNT = 0.25;
/** `<main>` replaces the top candidate when it holds at most this multiple of its text… */
const LANDMARK_MAX_RATIO = 2.5;
/** …and is not mostly links; a top candidate this long is a story and needs no help. */
const LANDMARK_MAX_TOP_TEXT = 1000;
const LANDMARK_MAX_LINK_DENSITY = 0.35;

const PARAGRAPH_TAGS = new Set(['p', 'pre', 'blockquote', 'h2', 'h3', 'h4', 'h5', 'h6']);
const DIV_LIKE = new Set(['div', 'section', 'article', 'main', 'span', 'font', 'center']);
const LIST_ITEM_TAGS = new Set(['li', 'dd']);
const SIBLING_BLOCKS = new Set(['p', 'pre', 'ul', 'ol', 'dl', 'table', 'blockquote', 'figure']);
const NEVER_UNLIKELY = new Set(['body', 'html', 'a', 'main', 'article', 'table', 'tbody', 'tr', 'td', 'th', 'pre', 'code']);

export interface ExtractOptions {
  /** Titles to drop when the content repeats them as a heading (metadata title, og:title, `<title>`). */
  titles?: readonly string[];
  /** Start from these flags (tests use it to look at one rung of the ladder). */
  flags?: number;
  /** The page names its author in metadata, so a lone byline in the content can go. */
  authorKnown?: boolean;
  /** The author the metadata names: a closing paragraph that is their bio goes (closing-bio.ts). */
  author?: string | null;
  /** The page declares when it was published (a dated story, not an index of many). */
  dated?: boolean;
  /** Receives a line per decision (top candidates, attempts); off by default. */
  debug?: (line: string) => void;
  /** Stats of `body` when the caller already computed them (they are computed otherwise). */
  stats?: StatsMap;
  /** The page's type (page-type.ts); type-specific rules run on top of the shared ones. */
  pageType?: PageType;
}

export interface Attempt {
  flags: number;
  textLength: number;
}

export interface MainContent {
  /** Content roots in document order; the writer renders each, skipping `drop`. */
  roots: Element[];
  drop: Set<Element>;
  attempts: Attempt[];
  /** Index into `attempts` of the winner, or -1 when a fallback container was used. */
  winner: number;
  /** Visible text length of the chosen content (after drops). */
  textLength: number;
  stats: StatsMap;
  /** Pictures of a grid's cards, which lean output leaves out (card-images.ts). */
  cardImages?: ReadonlySet<Element>;
  /** The page type the content showed, when it overrules the classifier (an index read as a story). */
  pageType?: PageType;
}

export function extractMainContent(body: Element, opts: ExtractOptions = {}): MainContent {
  const content = findMainContent(body, opts);
  // Tests of one rung of the ladder (flags) look at the bare result.
  if (opts.flags !== undefined) return content;
  const before = content.drop.size;
  dropRepeatedBlocks(content.roots, content.drop, content.stats, opts.pageType === 'forum');
  if ((content.pageType ?? opts.pageType) === 'article') {
    dropRepeatedButtons(content.roots, content.drop, content.stats);
    if (opts.author) dropClosingBio(content.roots, content.drop, content.stats, opts.author);
  }
  if (content.drop.size !== before) content.textLength = contentLength(content.roots, content.drop, content.stats);
  const pageType = content.pageType ?? opts.pageType;
  if (pageType !== undefined && GRID_TYPES.has(pageType)) content.cardImages = cardImages(content.roots, content.drop, content.stats);
  return content;
}

function findMainContent(body: Element, opts: ExtractOptions): MainContent {
  const stats = opts.stats ?? computeStats(body);
  const bodyStats = stats.get(body) ?? null;
  const totalText = bodyStats ? bodyStats.textLen : 0;
  const titles = normaliseTitles(opts.titles ?? []);
  const regionOpts = { pageType: opts.pageType ?? 'other', titles, authorKnown: opts.authorKnown ?? true };
  const thread = opts.pageType === 'forum' ? findThread(body, stats) : null;
  if (thread) {
    const { roots, drop } = extractThread(body, stats, thread, { ...regionOpts, top: null });
    return { roots, drop, attempts: [], winner: -1, textLength: contentLength(roots, drop, stats), stats };
  }
  if (opts.pageType !== undefined && REGION_TYPES.has(opts.pageType)) {
    const top = pickTopCandidate(body, scoreParagraphs(body, stats, markUnlikely(body, stats, totalText), ALL_FLAGS));
    const place = locateRegion(body, stats, top);
    // A category whose JSON-LD names one Product (its rating) is typed product: its grid says otherwise.
    const category = opts.pageType === 'product' && isCategoryGrid(place.root, stats);
    const pageType = category ? 'collection' : opts.pageType;
    const { roots, drop } = extractRegion(body, stats, { ...regionOpts, pageType, top }, category ? place : undefined);
    const textLength = contentLength(roots, drop, stats);
    return { roots, drop, attempts: [], winner: -1, textLength, stats, ...(category ? { pageType } : {}) };
  }
  const story = extractStory(body, stats, titles, opts);
  // The story is one entry of an index (index-cards.ts): the page is a listing.
  const index =
    opts.pageType !== undefined && opts.flags === undefined
      ? (indexAroundStory(story.firstTop, story.content.textLength, stats) ??
        indexInsideStory(story.content.roots, story.content.drop, stats) ??
        // a dated story beside a grid of other stories (a short news item over "latest news") stays the story
        (opts.dated === true ? null : catalogueBesideStory(body, story.firstTop, story.content.textLength, stats)))
      : null;
  if (index) {
    const { roots, drop } = extractRegion(body, stats, { ...regionOpts, pageType: 'listing', top: index });
    return {
      roots,
      drop,
      attempts: story.content.attempts,
      winner: -1,
      textLength: contentLength(roots, drop, stats),
      stats,
      pageType: 'listing',
    };
  }
  // Unsure whether this is one story: when the best block holds much less than the page's
  // region, the content was spread over blocks (sections, cards, a spec sheet) and the
  // region is the better answer. Only for classified pages (tests of the ladder pass none).
  if (opts.pageType !== undefined && opts.flags === undefined) {
    const place = locateRegion(body, stats, story.firstTop);
    // Pruning only shrinks the region: a story holding this much of its raw text already wins.
    const rawRegion = stats.get(place.root)?.textLen ?? 0;
    if (story.content.textLength >= rawRegion * STORY_SHARE_OF_CLEAN_REGION) return story.content;
    const { roots, drop } = extractRegion(body, stats, { ...regionOpts, top: story.firstTop }, place);
    const regionLength = contentLength(roots, drop, stats);
    if (regionIsBetter(story.content.textLength, regionLength, roots, stats))
      return { roots, drop, attempts: story.content.attempts, winner: -1, textLength: regionLength, stats };
  }
  return story.content;
}

function regionIsBetter(storyLength: number, regionLength: number, roots: readonly Element[], stats: StatsMap): boolean {
  if (regionLength === 0) return false;
  const share = storyLength / regionLength;
  let text = 0;
  let links = 0;
  for (const r of roots) {
    text += stats.get(r)?.textLen ?? 0;
    links += stats.get(r)?.linkLen ?? 0;
  }
  const isMain = roots.some((r) => r.name === 'main' || r.attribs.role === 'main');
  return (
    (share < STORY_SHARE_OF_CLEAN_REGION && links < text * REGION_MAX_LINK_DENSITY) ||
    (share < STORY_SHARE_OF_MAIN && isMain) ||
    share < STORY_SHARE_OF_ANY_REGION
  );
}

/** The article path: score paragraphs, pick and refine the best block, merge siblings, prune; retry with fewer flags. */
function extractStory(
  body: Element,
  stats: StatsMap,
  titles: Set<string>,
  opts: ExtractOptions,
): { content: MainContent; firstTop: Element | null } {
  const totalText = stats.get(body)?.textLen ?? 0;
  const attempts: Attempt[] = [];
  const results: Array<{ roots: Element[]; drop: Set<Element>; textLength: number }> = [];
  let firstTop: Element | null = null;
  let flags = opts.flags ?? ALL_FLAGS;
  for (;;) {
    const unlikely = flags & FLAG_STRIP_UNLIKELYS ? markUnlikely(body, stats, totalText) : new Set<Element>();
    const candidates = scoreParagraphs(body, stats, unlikely, flags);
    const top = pickTopCandidate(body, candidates);
    firstTop ??= top;
    const refined = promoteToLandmark(refineTopCandidate(top, body, candidates), body, stats);
    const roots = mergeSiblings(refined, body, candidates, stats);
    if (opts.debug) {
      for (const [el, sc] of topEntries(candidates, 5))
        opts.debug(`flags=${flags} cand ${describe(el)} score=${sc.toFixed(1)} len=${stats.get(el)?.textLen}`);
      opts.debug(`flags=${flags} top=${describe(top)} refined=${describe(refined)} roots=${roots.map(describe).join(', ')}`);
    }
    const drop = pruneContent(roots, { stats, unlikely, flags, titles, top, authorKnown: opts.authorKnown ?? true });
    const textLength = contentLength(roots, drop, stats);
    attempts.push({ flags, textLength });
    opts.debug?.(`attempt flags=${flags} textLength=${textLength} drops=${drop.size}`);
    if (opts.debug) for (const d of drop) opts.debug(`  drop ${describe(d)} len=${stats.get(d)?.textLen}`);
    results.push({ roots, drop, textLength });
    if (textLength >= CHAR_THRESHOLD || stats.size > LADDER_MAX_ELEMENTS) break;
    // A short but clean story found with every flag on beats longer finds of laxer rungs,
    // which tend to be comment threads and footers.
    if (results.length === 1 && textLength >= SHORT_ARTICLE_CHARS && attemptQuality(roots, textLength, stats, body) >= textLength * 0.8)
      break;
    const next = dropOneFlag(flags);
    if (next === flags) break;
    flags = next;
  }
  // No rung reached the threshold: keep the one with the most prose, discounting content
  // that sits in a footer-, sidebar- or menu-like container.
  let best = 0;
  let bestQuality = -1;
  results.forEach((r, i) => {
    const q = attemptQuality(r.roots, r.textLength, stats, body);
    if (q > bestQuality) {
      bestQuality = q;
      best = i;
    }
  });
  const chosen = results[best] as { roots: Element[]; drop: Set<Element>; textLength: number };
  if (chosen.textLength === 0 && totalText > 0) {
    const fallback = fallbackContainer(body);
    const drop = pruneContent([fallback], {
      stats,
      unlikely: new Set(),
      flags: 0,
      titles,
      top: null,
      authorKnown: opts.authorKnown ?? true,
    });
    return {
      content: { roots: [fallback], drop, attempts, winner: -1, textLength: contentLength([fallback], drop, stats), stats },
      firstTop,
    };
  }
  return { content: { roots: chosen.roots, drop: chosen.drop, attempts, winner: best, textLength: chosen.textLength, stats }, firstTop };
}

function describe(el: Element): string {
  const path: string[] = [];
  let p: ParentNode | null = el;
  for (let i = 0; i < 4 && isElement(p); i++, p = p.parent) {
    const id = p.attribs.id ? `#${p.attribs.id}` : '';
    const cls = p.attribs.class ? `.${p.attribs.class.trim().split(/\s+/).slice(0, 2).join('.')}` : '';
    path.unshift(`${p.name}${id}${cls}`);
  }
  return path.join('>');
}

function attemptQuality(roots: Element[], textLength: number, stats: StatsMap, body: Element): number {
  let linkLen = 0;
  let total = 0;
  for (const r of roots) {
    const s = stats.get(r);
    linkLen += s?.linkLen ?? 0;
    total += s?.textLen ?? 0;
  }
  const prose = textLength * (total > 0 ? 1 - linkLen / total : 1);
  for (let p: ParentNode | null = roots[0] ?? null; isElement(p) && p !== body; p = p.parent) {
    if (STRUCTURAL_BOILERPLATE.has(p.name) || PATTERNS.unlikely.test(classAndId(p))) return prose * UNLIKELY_ATTEMPT_DISCOUNT;
  }
  return prose;
}

function dropOneFlag(flags: number): number {
  if (flags & FLAG_STRIP_UNLIKELYS) return flags & ~FLAG_STRIP_UNLIKELYS;
  if (flags & FLAG_WEIGHT_CLASSES) return flags & ~FLAG_WEIGHT_CLASSES;
  if (flags & FLAG_CLEAN_CONDITIONALLY) return flags & ~FLAG_CLEAN_CONDITIONALLY;
  return flags;
}

/** Elements whose class/id/role say "not content" (Readability's unlikely candidates). */
function markUnlikely(body: Element, stats: StatsMap, totalText: number): Set<Element> {
  const out = new Set<Element>();
  const stack: Element[] = childElements(body).reverse();
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    if (isUnlikely(el, stats, totalText)) {
      out.add(el);
      continue;
    }
    if (el.name === 'pre' || el.name === 'code' || el.name === 'table' || el.name === 'p') continue;
    const kids = el.children;
    for (let i = kids.length - 1; i >= 0; i--) {
      const c = kids[i];
      if (isElement(c)) stack.push(c);
    }
  }
  return out;
}

function isUnlikely(el: Element, stats: StatsMap, totalText: number): boolean {
  if (NEVER_UNLIKELY.has(el.name)) return false;
  const role = el.attribs.role;
  const s = stats.get(el);
  if (s?.hasMainish) return false;
  if (s && totalText > 0 && s.textLen > totalText * UNLIKELY_MAX_TEXT_SHARE && !isReaderComments(el, s.textLen, totalText)) return false;
  if (role !== undefined && PATTERNS.unlikelyRoles.test(role)) return true;
  const ci = classAndId(el);
  if (ci === '') return false;
  return PATTERNS.unlikely.test(ci) && !PATTERNS.maybeCandidate.test(ci);
}

/** A block named for reader comments: the section, its list or the comment service's thread. */
const READER_COMMENTS_SECTION = /(?:^|[\s_-])(?:comments|comment-?list|commentlist|disqus_thread)(?:[\s_-]|$)/i;
/** A comments block that also calls itself a board, forum, thread or discussion holds a thread's replies. */
const THREAD_WORDS = /discussion|board|forum|thread|topic/i;
/** Text outside the comments that makes the page a story with comments under it, not a thread. */
const STORY_BESIDE_COMMENTS = 1000;

/**
 * Reader comments under a story are not its content, however much the readers wrote: a
 * popular post's comment section can hold most of the page's text, and would otherwise be
 * kept as a wrapper that holds most of the page. Only when the page has a story of its own
 * beside them; a page that is all comments is a thread.
 */
function isReaderComments(el: Element, textLen: number, totalText: number): boolean {
  if (totalText - textLen < STORY_BESIDE_COMMENTS) return false;
  const ci = classAndId(el);
  return ci !== '' && READER_COMMENTS_SECTION.test(ci) && !THREAD_WORDS.test(ci);
}

function tagBaseScore(name: string): number {
  switch (name) {
    case 'div':
    case 'article':
    case 'main':
      return 5;
    case 'pre':
    case 'td':
    case 'blockquote':
      return 3;
    case 'address':
    case 'ol':
    case 'ul':
    case 'dl':
    case 'dd':
    case 'dt':
    case 'li':
    case 'form':
      return -3;
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
    case 'th':
      return -5;
    default:
      return 0;
  }
}

type Candidates = Map<Element, number>;

function isScorable(el: Element, s: ElementStats): boolean {
  if (PARAGRAPH_TAGS.has(el.name)) return true;
  if (DIV_LIKE.has(el.name)) return !s.hasBlock;
  if (LIST_ITEM_TAGS.has(el.name)) return s.textLen - s.linkLen >= MIN_PARAGRAPH_LEN;
  return false;
}

function scoreParagraphs(body: Element, stats: StatsMap, unlikely: Set<Element>, flags: number): Candidates {
  const cands: Candidates = new Map();
  const stack: Element[] = childElements(body).reverse();
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    if (unlikely.has(el) || STRUCTURAL_BOILERPLATE.has(el.name)) continue;
    const s = stats.get(el);
    if (!s) continue;
    let scoreLen = 0;
    let scoreCommas = 0;
    let anc: ParentNode | null = null;
    let scoredWhole = false;
    if (el.name === 'td') {
      // A table cell is a container of its own: layout tables put the story in one cell.
      const run = s.hasBlock ? looseText(el, stats) : { len: s.textLen, commas: s.commas };
      scoreLen = run.len;
      scoreCommas = run.commas;
      anc = el;
      scoredWhole = !s.hasBlock;
    } else if (isScorable(el, s)) {
      scoreLen = s.textLen;
      scoreCommas = s.commas;
      anc = el.parent;
      scoredWhole = true;
    } else if (DIV_LIKE.has(el.name)) {
      // Text lying loose in a container beside blocks is a paragraph of that container
      // (Readability wraps such runs in <p> first).
      const run = looseText(el, stats);
      scoreLen = run.len;
      scoreCommas = run.commas;
      anc = el;
    }
    if (scoreLen >= MIN_PARAGRAPH_LEN) {
      // Text split by <br> pairs is several paragraphs: let its length count for more.
      const lengthCap = MAX_LENGTH_BONUS + Math.floor(s.breaks / 2);
      const score = 1 + scoreCommas + Math.min(Math.floor(scoreLen / 100), lengthCap);
      for (let level = 0; level < SCORE_ANCESTOR_LEVELS && isElement(anc); level++) {
        if (anc.name === 'html') break;
        let cur = cands.get(anc);
        if (cur === undefined) cur = tagBaseScore(anc.name) + classWeight(anc, flags);
        const divider = level === 0 ? 1 : level === 1 ? 2 : level * 3;
        cands.set(anc, cur + score / divider);
        anc = anc.parent;
      }
    }
    // A scored paragraph's inside is not scored again (a <font> in a <td>, a <div> in a <p>).
    if (scoredWhole && scoreLen >= MIN_PARAGRAPH_LEN) continue;
    const kids = el.children;
    for (let i = kids.length - 1; i >= 0; i--) {
      const c = kids[i];
      if (isElement(c)) stack.push(c);
    }
  }
  // Link-heavy containers are navigation, whatever their raw score.
  for (const [el, score] of cands) cands.set(el, score * (1 - linkDensity(stats.get(el))));
  return cands;
}

/** Length and commas of the text directly inside `el` (text nodes and inline children). */
function looseText(el: Element, stats: StatsMap): { len: number; commas: number } {
  let len = 0;
  let commas = 0;
  for (const c of el.children) {
    if (c.type === 'text') {
      const t = c.data.trim();
      if (t === '') continue;
      len += t.length;
      for (let i = 0; i < t.length; i++) if (t.charCodeAt(i) === 44) commas++;
    } else if (isElement(c) && !BLOCK_TAGS.has(c.name)) {
      const cs = stats.get(c);
      if (cs && !cs.hasBlock && c.name !== 'a') {
        len += cs.textLen;
        commas += cs.commas;
      }
    }
  }
  return { len, commas };
}

function pickTopCandidate(body: Element, cands: Candidates): Element {
  let top: Element | null = null;
  let best = -Infinity;
  for (const [el, score] of cands) {
    if (score > best) {
      best = score;
      top = el;
    }
  }
  return top ?? body;
}

/** The n best candidates without sorting them all (pages can have 100,000). */
function topEntries(cands: Candidates, n: number): Array<[Element, number]> {
  const best: Array<[Element, number]> = [];
  for (const e of cands) {
    if (best.length < n || e[1] > (best[best.length - 1] as [Element, number])[1]) {
      best.push(e);
      best.sort((a, b) => b[1] - a[1]);
      if (best.length > n) best.pop();
    }
  }
  return best;
}

function refineTopCandidate(top: Element, body: Element, cands: Candidates): Element {
  if (top === body) return body;
  const topScore = cands.get(top) ?? 0;
  // Several near-top candidates under one ancestor: the ancestor is the article.
  const ranked = topEntries(cands, 5).slice(1);
  const alternatives = ranked.filter(([, s]) => s >= topScore * ALTERNATIVE_SCORE_SHARE).map(([el]) => el);
  if (alternatives.length >= MIN_ALTERNATIVE_VOTES) {
    let parent = top.parent;
    while (isElement(parent) && parent !== body) {
      let votes = 0;
      for (const alt of alternatives) if (contains(parent, alt)) votes++;
      if (votes >= MIN_ALTERNATIVE_VOTES) {
        top = parent;
        break;
      }
      parent = parent.parent;
    }
  }
  // Climb while the parent scores better than what we hold.
  let lastScore = cands.get(top) ?? topScore;
  const threshold = lastScore / 3;
  let parent = top.parent;
  while (isElement(parent) && parent !== body && parent.name !== 'html') {
    const ps = cands.get(parent);
    if (ps === undefined) {
      parent = parent.parent;
      continue;
    }
    if (ps < threshold) break;
    if (ps > lastScore) {
      top = parent;
      break;
    }
    lastScore = ps;
    parent = parent.parent;
  }
  // An only child says nothing; its parent is the real container.
  let p = top.parent;
  while (isElement(p) && p !== body && p.name !== 'html' && childElements(p).length === 1) {
    top = p;
    p = p.parent;
  }
  return top;
}

/**
 * Product pages, docs and landing pages spread their content over several blocks inside
 * `<main>`; when the best block holds a fair share of main's text and main is not a link
 * farm, main is the content (its boilerplate is pruned later).
 */
function promoteToLandmark(top: Element, body: Element, stats: StatsMap): Element {
  const ts = stats.get(top);
  if (!ts || top === body || ts.textLen >= LANDMARK_MAX_TOP_TEXT) return top;
  for (let p = top.parent; isElement(p) && p !== body; p = p.parent) {
    if (p.name !== 'main' && p.attribs.role !== 'main') continue;
    const ms = stats.get(p);
    if (ms && ms.textLen <= ts.textLen * LANDMARK_MAX_RATIO && linkDensity(ms) < LANDMARK_MAX_LINK_DENSITY) return p;
    return top;
  }
  return top;
}

function mergeSiblings(top: Element, body: Element, cands: Candidates, stats: StatsMap): Element[] {
  if (top === body || !isElement(top.parent)) return [top];
  const topScore = cands.get(top) ?? 0;
  const threshold = Math.max(SIBLING_MIN_SCORE, topScore * SIBLING_SCORE_SHARE);
  const siblings = childElements(top.parent);
  const keep = new Array<boolean>(siblings.length).fill(false);
  const topClass = top.attribs.class ?? '';
  siblings.forEach((sib, i) => {
    if (sib === top) {
      keep[i] = true;
      return;
    }
    if (STRUCTURAL_BOILERPLATE.has(sib.name)) return;
    const bonus = topClass !== '' && sib.attribs.class === topClass ? topScore * SIBLING_SCORE_SHARE : 0;
    const score = cands.get(sib);
    if (score !== undefined && score + bonus >= threshold) {
      keep[i] = true;
      return;
    }
    const s = stats.get(sib);
    if (!s) return;
    const isParagraph = sib.name === 'p' || SIBLING_BLOCKS.has(sib.name) || (DIV_LIKE.has(sib.name) && !s.hasBlock);
    if (!isParagraph) return;
    const ld = linkDensity(s);
    if (s.textLen > SIBLING_PROSE_MIN_TEXT && ld < SIBLING_PROSE_MAX_LINK_DENSITY) keep[i] = true;
    // a short sentence (it has a full stop) without links: the story's, too
    else if (s.textLen > 0 && s.textLen <= SIBLING_PROSE_MIN_TEXT && ld === 0 && /\.( |$)/.test(collapseWhitespace(textOf(sib))))
      keep[i] = true;
  });
  // Headings, figures and lists between kept siblings belong to the same story.
  const first = keep.indexOf(true);
  const last = keep.lastIndexOf(true);
  // A page builder's blocks of one kind (every text block of the post has the same class): a
  // short one between two kept ones (a heading and its lead-in) is the story's, too.
  const keptClasses = new Set<string>();
  siblings.forEach((sib, i) => {
    if (keep[i] && sib.attribs.class) keptClasses.add(sib.attribs.class);
  });
  for (let i = first + 1; i < last; i++) {
    if (keep[i]) continue;
    const sib = siblings[i] as Element;
    const sameKind = sib.attribs.class !== undefined && keptClasses.has(sib.attribs.class);
    if (sameKind || HEADINGS.has(sib.name) || SIBLING_BLOCKS.has(sib.name) || sib.name === 'img' || sib.name === 'picture') {
      if (linkDensity(stats.get(sib)) < SIBLING_BETWEEN_MAX_LINK_DENSITY) keep[i] = true;
    }
  }
  for (let i = 0; i < siblings.length; i++) {
    if (keep[i]) continue;
    const sib = siblings[i] as Element;
    if (HEADINGS.has(sib.name) && keep[i + 1] && i + 1 < siblings.length) keep[i] = true;
  }
  return siblings.filter((_, i) => keep[i]);
}

function contentLength(roots: Element[], drop: Set<Element>, stats: StatsMap): number {
  let total = 0;
  for (const r of roots) total += stats.get(r)?.textLen ?? 0;
  for (const d of drop) {
    if (!hasDroppedAncestor(d, drop)) total -= stats.get(d)?.textLen ?? 0;
  }
  return Math.max(0, total);
}

function hasDroppedAncestor(el: Element, drop: Set<Element>): boolean {
  let p = el.parent;
  while (isElement(p)) {
    if (drop.has(p)) return true;
    p = p.parent;
  }
  return false;
}

function fallbackContainer(body: Element): Element {
  let main: Element | null = null;
  let article: Element | null = null;
  const stack = childElements(body).reverse();
  while (stack.length > 0 && !main) {
    const el = stack.pop() as Element;
    if (el.name === 'main' || el.attribs.role === 'main') main = el;
    else if (el.name === 'article' && !article) article = el;
    for (const c of childElements(el).reverse()) stack.push(c);
  }
  return main ?? article ?? body;
}
