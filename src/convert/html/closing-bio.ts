import type { Element } from 'domhandler';
import { collapseWhitespace, isElement, textOf } from './dom.js';
import { linkDensity } from './stats.js';
import type { StatsMap } from './stats.js';

/**
 * A story's closing note about its writer: the last paragraphs of the content that open with
 * the name the metadata gives as the author, followed by what bios say ("Dana Reyes is a
 * freelance writer…", "Karina holds an MBA…", "Jean-Luc started the site in 2010…"). They
 * are the writer's bio printed under the story, without a box of its own.
 */

/** Leaf blocks looked at from the end of the content. */
const CLOSING_LEAVES = 4;
/** A bio paragraph's length bounds. */
const BIO_MIN_TEXT = 60;
const BIO_MAX_TEXT = 900;
/** A line under the bio ("View all posts", social links) is short and mostly links. */
const TAIL_LINK_MAX_TEXT = 100;
const LEAF_BLOCKS = new Set(['p', 'div', 'li', 'dd', 'span', 'em', 'i', 'section', 'aside', 'footer']);
const BIO_VERB = /^(?:is|was|has|had|holds|lives|writes|covers|joined|started|founded|loves|graduated|earned|spent)$/i;
/** At most this many words (initials, "MD", "PhD") between the name and the verb. */
const BIO_VERB_GAP = 3;

/** Adds to `drop` the closing paragraphs of `roots` that are the metadata author's bio. */
export function dropClosingBio(roots: readonly Element[], drop: Set<Element>, stats: StatsMap, author: string): void {
  const names = personNames(author);
  if (names.length === 0) return;
  const leaves = lastLeaves(roots, drop, stats);
  for (const el of leaves) {
    const s = stats.get(el);
    if (!s || s.textLen === 0) continue;
    const text = collapseWhitespace(textOf(el))
      .trim()
      .replace(/^[*_\s]+/, '');
    if (s.textLen >= BIO_MIN_TEXT && s.textLen <= BIO_MAX_TEXT && names.some((n) => opensBio(text, n))) {
      drop.add(el);
      continue;
    }
    if (s.textLen <= TAIL_LINK_MAX_TEXT && linkDensity(s) > 0.5) continue;
    break;
  }
}

interface PersonName {
  full: string;
  first: string;
}

/**
 * The people the metadata names ("A and B", "A, B"): two to four words, each capitalised and
 * not all capitals (a brand, "QCY Official", or a team, "The Editors", is no person).
 */
function personNames(author: string): PersonName[] {
  const out: PersonName[] = [];
  for (const raw of author.split(/[,&]|\band\b/)) {
    const full = collapseWhitespace(raw.replace(/\([^()]*\)/g, ' ')).trim();
    const parts = full.split(/\s+/);
    if (parts.length < 2 || parts.length > 4) continue;
    if (!parts.every((p) => /^\p{Lu}[\p{Ll}'’.-]/u.test(p) || /^\p{Lu}\.?$/u.test(p))) continue;
    const first = parts[0] as string;
    if (/^(?:the|our|team|staff|editors?)$/i.test(first)) continue;
    out.push({ full, first });
  }
  return out;
}

/** "Full Name [up to three words] is …" or "First is …". */
function opensBio(text: string, name: PersonName): boolean {
  let rest: string;
  if (text.startsWith(`${name.full} `) || text.startsWith(`${name.full},`)) rest = text.slice(name.full.length);
  else if (text.startsWith(`${name.first} `)) rest = text.slice(name.first.length);
  else return false;
  const words = rest
    .replace(/[,]/g, ' ')
    .trim()
    .split(/\s+/)
    .slice(0, BIO_VERB_GAP + 1);
  return words.some((w) => BIO_VERB.test(w));
}

/** The last CLOSING_LEAVES leaf blocks of the content (not dropped), last first. */
function lastLeaves(roots: readonly Element[], drop: ReadonlySet<Element>, stats: StatsMap): Element[] {
  const out: Element[] = [];
  const stack: Element[] = [...roots];
  while (stack.length > 0 && out.length < CLOSING_LEAVES) {
    const el = stack.pop() as Element;
    if (drop.has(el)) continue;
    const s = stats.get(el);
    if (!s || s.textLen === 0) continue;
    if (!s.hasBlock && LEAF_BLOCKS.has(el.name)) {
      out.push(el);
      continue;
    }
    if (el.name === 'pre' || el.name === 'table' || el.name === 'figure' || el.name === 'ul' || el.name === 'ol') {
      out.push(el);
      continue;
    }
    for (const c of el.children) if (isElement(c)) stack.push(c);
  }
  return out;
}
