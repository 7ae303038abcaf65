/**
 * Per-card chrome of a grid (collections and listings): what a shop or an index prints in
 * every card besides the item's name, price and line of text — the card's controls
 * ("Compare", "Add to wishlist", "More options", "Read full article") and its savings and
 * merchandising badges ("Save 20%", "Top rated", "Only 3 left!"). Each is a short block whose
 * whole text is the label; a sentence that mentions one stays. Generic words only. Ratings
 * ("4.6 (318)") stay: on charts and catalogues they are what the reader compares.
 */

/** A card's controls, left as text once prepare removed the buttons and inputs. */
const CONTROL_TEXT =
  /^(?:(?:add to )?compare|comparer(?: ne plus comparer)?|add to (?:wish ?list|favou?rites|list)|save to (?:wish ?list|favou?rites|list)|wish ?list|more options|more colou?rs|see (?:all )?options|read (?:the )?full (?:article|story|post)|continue reading|view (?:the )?(?:deal|course|job|event|listing|recipe)|apply now|pre-?order(?: now)?|notify me)$/i;
/** Savings and merchandising badges over a card's name or price. */
const BADGE_TEXT =
  /^(?:save (?:up to )?(?:\d{1,3} ?%|[$€£]\s?\d[\d.,]*)(?: off)?|\d{1,3} ?% off(?:, save [$€£]\s?\d[\d.,]*)?|top rated|best ?seller|new arrivals?|last chance|limited (?:time|stock|edition)|only \d{1,3} left!?|low stock|almost gone|free shipping|free delivery|sponsored|promoted|ad)$/i;
/** A short block of a grid card whose whole text is a control or a badge. */
export function isGridCardChrome(text: string): boolean {
  return CONTROL_TEXT.test(text) || BADGE_TEXT.test(text);
}
