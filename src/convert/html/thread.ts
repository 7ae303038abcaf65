import type { Element } from 'domhandler';
import { NO_GUARD, isChrome } from './chrome.js';
import { isElement } from './dom.js';
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
/** A post says something: at least this much text that is not links. */
const POST_MIN_PROSE = 40;
/** A thread has at least this many posts (one post and nothing else is an article). */
const MIN_POSTS = 2;
/** The repeated group must hold at least this share of the page's non-link text. */
const THREAD_MIN_SHARE = 0.2;

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

/** Outermost elements whose itemtype is a post, with text of their own. */
function declaredPosts(body: Element, stats: StatsMap): Element[] | null {
  const out: Element[] = [];
  const stack: Element[] = [body];
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    const type = el.attribs.itemtype;
    if (type?.split(/\s+/).some((t) => POST_ITEM_TYPE.test(t)) && prose(el, stats) >= POST_MIN_PROSE) {
      out.push(el);
      continue;
    }
    for (let i = el.children.length - 1; i >= 0; i--) {
      const c = el.children[i];
      if (isElement(c)) stack.push(c);
    }
  }
  return out.length >= MIN_POSTS ? out : null;
}

/** The repeated sibling group (same tag and class, ids and numbers ignored) with the most text. */
function repeatedPosts(body: Element, stats: StatsMap): Element[] | null {
  const bs = stats.get(body);
  const pageProse = bs ? bs.textLen - bs.linkLen : 0;
  let best: Element[] | null = null;
  let bestProse = pageProse * THREAD_MIN_SHARE;
  const stack: Element[] = [body];
  while (stack.length > 0) {
    const parent = stack.pop() as Element;
    const groups = new Map<string, Element[]>();
    for (const c of parent.children) {
      // Cookie centres and sidebars repeat blocks too; they are not the thread.
      if (!isElement(c) || isChrome(c, stats, NO_GUARD, 'forum')) continue;
      stack.push(c);
      // A post is a block of blocks (author line, body); sibling paragraphs are one post's text.
      if (prose(c, stats) < POST_MIN_PROSE || !stats.get(c)?.hasBlock) continue;
      const key = `${c.name}.${classSignature(c)}`;
      const g = groups.get(key);
      if (g) g.push(c);
      else groups.set(key, [c]);
    }
    for (const g of groups.values()) {
      if (g.length < MIN_POSTS) continue;
      let total = 0;
      for (const m of g) total += prose(m, stats);
      if (total > bestProse) {
        best = g;
        bestProse = total;
      }
    }
  }
  return best;
}

/** Class tokens without per-post ones (`post-1234`, `author-jo`): what the template gives every post. */
function classSignature(el: Element): string {
  const cls = el.attribs.class;
  if (!cls) return '';
  return cls
    .split(/\s+/)
    .filter((t) => t !== '' && !/\d/.test(t))
    .sort()
    .join(' ');
}

function prose(el: Element, stats: StatsMap): number {
  const s = stats.get(el);
  return s ? s.textLen - s.linkLen : 0;
}

function commonAncestor(a: Element, b: Element): Element | null {
  const seen = new Set<Element>();
  for (let p: Element | null = a; p; p = isElement(p.parent) ? p.parent : null) seen.add(p);
  for (let p: Element | null = b; p; p = isElement(p.parent) ? p.parent : null) if (seen.has(p)) return p;
  return null;
}
