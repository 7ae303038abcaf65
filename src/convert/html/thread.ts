import type { Element } from 'domhandler';
import { NO_GUARD, isChrome } from './chrome.js';
import { commonAncestor, isElement, templateKey, textOf } from './dom.js';
import type { StatsMap } from './stats.js';

/**
 * A discussion thread's posts: the question and every answer, the first post and every
 * reply. Found from schema.org microdata when the page declares its posts (Comment, Answer,
 * DiscussionForumPosting…), else as the largest group of repeated sibling blocks that each
 * carry text of their own (thread software renders every post from one template, so posts
 * share a tag and class). The thread is the smallest block holding all posts.
 */

/** Microdata types of a post. */
const POST_ITEM_TYPE = /(?:^|\/)(?:Comment|Answer|Question|DiscussionForumPosting|SocialMediaPosting|UserComments)$/;
const QA_ITEM_TYPE = /(?:^|\/)(?:Answer|Question)$/;
/** A post says something: at least this much text that is not links. */
const POST_MIN_PROSE = 40;
/** A thread has at least this many posts (one post and nothing else is an article). */
const MIN_POSTS = 2;
/** No post of a group holds more than this share of the group's text. */
const POST_MAX_SHARE = 0.8;
/** The repeated group must hold at least this share of the page's non-link text. */
const THREAD_MIN_SHARE = 0.2;
/** A block holding nearly all of the page's non-link text wraps the page (a consent centre of vendor lists may hold most of it). */
const WRAPPER_MIN_SHARE = 0.9;

export interface Thread {
  posts: Element[];
  container: Element;
}

export function findThread(body: Element, stats: StatsMap): Thread | null {
  const posts = declaredPosts(body, stats) ?? repeatedPosts(body, stats);
  if (!posts || posts.length < MIN_POSTS) return null;
  let container = posts[0] as Element;
  for (const p of posts) container = commonAncestor(container, p) ?? body;
  return { posts, container };
}

/**
 * Elements whose itemtype is a post, with text of their own: the outermost ones, or all of
 * them when the outermost is one post holding the others (a Question around its Answers,
 * a first post around its replies).
 */
function declaredPosts(body: Element, stats: StatsMap): Element[] | null {
  const all: Element[] = [];
  const outermost: Element[] = [];
  const stack: Array<[Element, boolean]> = [[body, false]];
  while (stack.length > 0) {
    const [el, inside] = stack.pop() as [Element, boolean];
    const type = el.attribs.itemtype;
    const isPost = type?.split(/\s+/).some((t) => POST_ITEM_TYPE.test(t)) === true && prose(el, stats) >= POST_MIN_PROSE;
    if (isPost) {
      all.push(el);
      if (!inside) outermost.push(el);
    }
    for (let i = el.children.length - 1; i >= 0; i--) {
      const c = el.children[i];
      if (isElement(c)) stack.push([c, inside || isPost]);
    }
  }
  if (outermost.length >= MIN_POSTS) return outermost;
  // On a Q&A page the question and the answers are the posts; comments under them are remarks.
  const qa = all.some((p) => QA_ITEM_TYPE.test(p.attribs.itemtype ?? ''));
  const posts = qa ? all.filter((p) => QA_ITEM_TYPE.test(p.attribs.itemtype ?? '')) : all;
  return posts.length >= MIN_POSTS ? posts : null;
}

/**
 * The repeated sibling group (same tag and class, ids and numbers ignored) with the most text.
 * Chrome blocks (cookie centres, sidebars) are not walked and their text does not count
 * toward the page's; a block holding most of the page's text is a wrapper whatever its
 * class says (a theme's "beside-sidebar" page wrapper).
 */
function repeatedPosts(body: Element, stats: StatsMap): Element[] | null {
  const bs = stats.get(body);
  const pageProse = bs ? bs.textLen - bs.linkLen : 0;
  let best: Element[] | null = null;
  let bestProse = 0;
  let chromeProse = 0;
  const stack: Element[] = [body];
  while (stack.length > 0) {
    const parent = stack.pop() as Element;
    const groups = new Map<string, Element[]>();
    for (const c of parent.children) {
      // Cookie centres and sidebars repeat blocks too; they are not the thread.
      if (!isElement(c)) continue;
      if (prose(c, stats) <= pageProse * WRAPPER_MIN_SHARE && isChrome(c, stats, NO_GUARD, 'forum')) {
        chromeProse += prose(c, stats);
        continue;
      }
      stack.push(c);
      // A post is a block of blocks (author line, body); sibling paragraphs are one post's text.
      if (prose(c, stats) < POST_MIN_PROSE || !stats.get(c)?.hasBlock) continue;
      const key = templateKey(c);
      const g = groups.get(key);
      if (g) g.push(c);
      else groups.set(key, [c]);
    }
    for (const g of groups.values()) {
      if (g.length < MIN_POSTS) continue;
      let total = 0;
      let largest = 0;
      for (const m of g) {
        const p = prose(m, stats);
        total += p;
        largest = Math.max(largest, p);
      }
      // One block holding nearly everything beside a small one is a page wrapper and a footer.
      if (largest > total * POST_MAX_SHARE) continue;
      if (total > bestProse) {
        best = g;
        bestProse = total;
      }
    }
  }
  return bestProse > (pageProse - chromeProse) * THREAD_MIN_SHARE ? best : null;
}

function prose(el: Element, stats: StatsMap): number {
  const s = stats.get(el);
  return s ? s.textLen - s.linkLen : 0;
}

/** A quote this long (in words) repeating an earlier post is a copy of it; short quotes point at what is answered. */
const COPY_MIN_WORDS = 30;
/** Words per shingle compared between a quote and the earlier posts. */
const SHINGLE_WORDS = 5;
/** Share of a quote's words found in earlier posts' shingles for it to be a copy (its attribution line is not). */
const COPY_MIN_COVER = 0.8;
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * A reply that quotes a long stretch of an earlier post repeats it: the quote is a copy and
 * is dropped (the reply's own words stay). Posts are read in document order; each post's
 * words are hashed into shingles once, so the check is linear in the thread's text.
 */
export function dropQuotedCopies(root: Element, posts: readonly Element[], drop: Set<Element>): void {
  const ordered = postsInOrder(root, new Set(posts));
  // each post's outermost quotes with their words, read once
  const quotes = ordered.map((post) => outermostQuotes(post).map((quote) => ({ quote, ws: words(textOf(quote)) })));
  // most threads quote nothing long enough to be a copy: no post is hashed then
  if (!quotes.some((qs) => qs.some((q) => q.ws.length >= COPY_MIN_WORDS))) return;
  const seen = new Set<number>();
  ordered.forEach((post, i) => {
    for (const { quote, ws } of quotes[i] ?? []) if (isCopy(ws, seen)) drop.add(quote);
    const ws = words(textOf(post));
    for (let k = 0; k + SHINGLE_WORDS <= ws.length; k++) seen.add(shingleHash(ws, k));
  });
}

/**
 * The shingle of SHINGLE_WORDS words at `at` as a 32-bit FNV-1a hash: a thread of 10 MB holds
 * millions of shingles, and numbers cost a fraction of the strings' memory. A collision
 * (rare at this scale) can only count one more shingle as seen.
 */
function shingleHash(ws: readonly string[], at: number): number {
  let h = 0x811c9dc5;
  for (let w = at; w < at + SHINGLE_WORDS; w++) {
    const word = ws[w] as string;
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
    h = Math.imul(h ^ 32, 0x01000193);
  }
  return h >>> 0;
}

function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** Enough of the quote's words lie in shingles seen in earlier posts. */
function isCopy(ws: readonly string[], seen: ReadonlySet<number>): boolean {
  if (ws.length < COPY_MIN_WORDS) return false;
  let coveredUpTo = 0;
  let covered = 0;
  for (let i = 0; i + SHINGLE_WORDS <= ws.length; i++) {
    if (!seen.has(shingleHash(ws, i))) continue;
    const from = Math.max(i, coveredUpTo);
    covered += i + SHINGLE_WORDS - from;
    coveredUpTo = i + SHINGLE_WORDS;
  }
  return covered >= ws.length * COPY_MIN_COVER;
}

/** The outermost posts under `root`, in document order. */
function postsInOrder(root: Element, posts: ReadonlySet<Element>): Element[] {
  const out: Element[] = [];
  const stack: Element[] = [root];
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    if (posts.has(el)) {
      out.push(el);
      continue;
    }
    for (let i = el.children.length - 1; i >= 0; i--) {
      const c = el.children[i];
      if (isElement(c)) stack.push(c);
    }
  }
  return out;
}

/** `<blockquote>`s in `post` not inside another one. */
function outermostQuotes(post: Element): Element[] {
  const out: Element[] = [];
  const stack: Element[] = [post];
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    for (const c of el.children) {
      if (!isElement(c)) continue;
      if (c.name === 'blockquote') out.push(c);
      else stack.push(c);
    }
  }
  return out;
}
