import type { Element } from 'domhandler';
import { childrenByTemplate, isElement } from './dom.js';
import type { StatsMap } from './stats.js';

/**
 * Lean Markdown on grids (issue 22): the pictures of a grid's cards. On a category, search
 * or index page every card repeats its name as a picture (a product photo, a thumbnail, a
 * carousel of colour variants) next to the name itself; each picture costs a URL of 20–80
 * tokens and adds no word the card does not already say. The cards' text stays, and with it
 * every card's link. Judged from structure only: three or more sibling cards of one
 * template (same tag and first class), each holding a picture and a name of its own.
 */

/** A grid has at least this many cards. */
const MIN_CARDS = 3;
/** A card names its item in at least this much text (outside its pictures' alt). */
const CARD_MIN_TEXT = 8;
/** A card is a teaser, not a story: longer blocks keep their pictures (an illustrated post). */
const CARD_MAX_TEXT = 1500;
/** Share of a group's members that must look like cards. */
const CARD_SHARE = 0.75;

/** Images inside the repeated cards under `roots` (outside `drop`), for the writer to leave out. */
export function cardImages(roots: readonly Element[], drop: ReadonlySet<Element>, stats: StatsMap): Set<Element> {
  const out = new Set<Element>();
  const stack: Element[] = [...roots];
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    const cards = cardGroups(el, drop, stats);
    for (const c of el.children) {
      if (!isElement(c) || drop.has(c)) continue;
      if (cards.has(c)) collectImages(c, drop, out);
      else if (stats.imagesOf(c) > 0) stack.push(c);
    }
  }
  return out;
}

/** Children of `parent` that are cards of a repeated template holding pictures. */
function cardGroups(parent: Element, drop: ReadonlySet<Element>, stats: StatsMap): Set<Element> {
  const { groups, elements } = childrenByTemplate(parent, drop);
  const cards = new Set<Element>();
  if (elements < MIN_CARDS) return cards;
  for (const members of groups.values()) {
    if (members.length < MIN_CARDS) continue;
    const carded = members.filter((m) => isCard(m, stats));
    if (carded.length >= MIN_CARDS && carded.length >= members.length * CARD_SHARE) for (const m of carded) cards.add(m);
  }
  return cards;
}

/** A picture, a name of its own and a link: a card, not a gallery tile (picture only) nor a post. */
function isCard(el: Element, stats: StatsMap): boolean {
  const text = stats.textLenOf(el);
  return stats.imagesOf(el) > 0 && text >= CARD_MIN_TEXT && text <= CARD_MAX_TEXT && (stats.linkLenOf(el) > 0 || el.name === 'a');
}

function collectImages(card: Element, drop: ReadonlySet<Element>, out: Set<Element>): void {
  const stack: Element[] = [card];
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    if (el.name === 'img') out.add(el);
    for (const c of el.children) if (isElement(c) && !drop.has(c)) stack.push(c);
  }
}
