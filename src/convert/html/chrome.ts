import type { Element } from 'domhandler';
import { BOILERPLATE_TEXT_MAX, HEADINGS, PATTERNS, STRUCTURAL_BOILERPLATE, hasAncestor } from './content-patterns.js';
import { classAndId, collapseWhitespace, isElement, isText, textOf } from './dom.js';
import {
  holdsCardList,
  isCardChromeInCard,
  isCardLinkCopy,
  isCardTagRow,
  isDuplicatePrice,
  isGridCard,
  isGridCardChrome,
  isItemActionRow,
} from './grid-chrome.js';
import { DATE_LIKE } from './page-signals.js';
import type { PageType } from './page-type.js';
import { linkDensity, readsAsProse } from './stats.js';
import { isProfileHref } from './urls.js';
import type { StatsMap } from './stats.js';

/**
 * What is chrome on a page read as a region or a thread (region.ts): landmarks and roles
 * that are never content, class/id words that always mean chrome, short UI labels, and per
 * page type the blocks that are not the page's own. Only generic words: no site's names.
 */

/** Class/id words that always mean chrome (matched anywhere in a token). */
const CHROME_ANYWHERE =
  /cookie|consent|gdpr|newsletter|subscri|breadcrumb|pagination|skip-?link|skip-?to|social-?(?:links|icons|media|share)|share-?(?:bar|buttons|links|tools)|sharing|sharethis|addthis|modal|popup|overlay|offcanvas|off-canvas|drawer|announcement-?bar|promo-?bar|back-?to-?top|mega-?menu|site-?header|site-?footer|global-?header|global-?footer|masthead|navbar|topbar|top-bar|utility-?nav|sidebar|lang(?:uage)?-?(?:switcher|selector|picker|menu)|prev-?next|next-?prev|page-?nav|api-?(?:console|explorer|playground)/;
/** Class/id words that mean chrome as a whole token (`nav`, but not `canvas`). */
const CHROME_TOKEN =
  /(?:^|[\s_-])(?:nav|navigation|menu|menus|share|social|pager|toolbar|banner-ad|ads?|advert|advertisement|sponsored|widget-area|login|signin|search-?form|search-?bar|try-?it)(?:[\s_-]|$)/;
/** The ad words of CHROME_TOKEN, as a whole token (`ad-slot`, `hide-read-more-ad`). */
const AD_TOKEN = /(?:^|[\s_-])ads?(?=[\s_-]|$)/g;
/** A table of contents beside the text (only "toc" as a whole class: "toc-para" wraps sections). */
const TABLE_OF_CONTENTS = /(?:^|\s)(?:toc|on-this-page)(?:\s|$)|table-?of-?contents/;
/** Tag lists under a story or a post (on a grid's cards, tags are facts about the item). */
const TAG_LIST = /(?:^|[\s_-])(?:tags|tag-?list|taglist|post-?tags|tag-?cloud)(?:[\s_-]|$)/;
/** Per type: blocks that belong to other products, other pages or other people. */
const NOT_THIS_PRODUCT =
  /related|recommend|upsell|up-sell|cross-?sell|also-?(?:bought|viewed|like)|you-?may|may-?also|recently-?viewed|similar|complete-?the-?look|frequently-?bought/;
/** Reviews widgets and rating summaries on a product page: other people's words about it. */
const REVIEWS =
  /(?:^|[\s_-])(?:reviews?|review-?list|customer-?reviews|star-?rating|product-?rating|ratings?)(?:[\s_-]|$)|seller-?card|sellercard|seller-?info/;
/** What a theme names the blocks around its grid after: the pager, the filters, the sorting bar. */
const GRID_WRAPPER_WORDS = /paginat|pager|filter|facet|sort|toolbar|refine/;
/**
 * A shop's fine print under a product: legal disclaimers, offer terms, trademark notices
 * ("Results may vary", "Financing subject to credit approval"). Named as a whole token
 * (`seller-legal-text` on a marketplace is the listing's own terms).
 */
const FINE_PRINT = /(?:^|[\s_-])(?:disclaimers?|fine-?print|footnotes?|legal)(?:[\s_-]|$)/;
const GRID_CONTROLS = /(?:^|[\s_-])(?:filters?|facets?|refine|refinements?|sort|sorting|sort-?by|toolbar|layered-?nav)(?:[\s_-]|$)/;
const RELATED = /(?:^|[\s_-])(?:related|recommended|more-?stories|read-?next)(?:[\s_-]|$)/;
const SIMILAR = /similar|suggested/;
/** Per-post widgets of thread software: votes, signatures, user panels, action bars, reply boxes. */
const POST_WIDGETS =
  /(?:^|[\s_-])(?:votes?|voting|vote-?cell|signature|user-?(?:stats|extras|badges?|title|rank|role|level|banner)|profile-?(?:posts|joined|rank|location|custom-?field)|join-?date|post-?(?:count|actions|tools|menu|controls|buttons)|action-?bar|reply-?(?:form|box)|quick-?reply|like-?(?:count|button|box)|reactions?|report|back2top|reputation|reputation-?score|flair|badgecount)(?:[\s_-]|$)/;
/** Avatars: a picture or a letter, never the name beside it (a class like `no-avatar` may hold the name). */
const AVATAR = /(?:^|[\s_-])(?:avatar|gravatar\w*)(?:[\s_-]|$)/;
const AVATAR_MAX_TEXT = 2;
const SIGNATURE = /signature/;
/** Blocks up to this long are tested for UI wording. */
const SHORT_BLOCK_MAX = 200;
/** Docs and help-centre furniture: feedback widgets, edit and source links, last-modified notes. */
const DOCS_CHROME_TEXT =
  /was this (?:page|article|doc(?:ument)?|section|content|information) (?:helpful|useful)|is this page (?:helpful|useful)|did this (?:page|article) help|edit this page|edit (?:this page )?on github|view (?:this page|source|page source) on github|report a problem with this (?:content|page)|suggest (?:an )?edits?|improve this (?:page|doc)|learn how to contribute|(?:this page was )?last (?:modified|updated|edited) (?:on|at) /i;
/** Calls to action as a whole link text. */
const CALL_TO_ACTION =
  /^(?:learn more|read more|find out more|see more|explore more|discover more|get started(?: for free| free| now| today)?|start (?:your )?free(?: trial)?|start for free|start (?:a|your) project|create (?:an |your )?(?:free )?account|join (?:now|for free|free)|try (?:it )?(?:for )?free|try now|sign up(?: for free| free| now)?|book a demo|request a demo|get a demo|schedule a demo|contact (?:us|sales)|get in touch|talk to sales|download(?: now)?|shop now|buy now|view (?:all|more|details|product)|see (?:all|details)|more info|add to (?:cart|bag|basket)|select options|choose options|quick (?:view|shop|add)|play|listen(?: now)?|watch(?: now)?|(?:older|newer) (?:posts|entries|episodes|articles|stories)|next page|previous page|load more|show more)(?:\s*[›»→>])?$/i;
/** A skip link's label: it jumps over a gallery or a carousel to a mark on the same page. */
const SKIP_LINK_TEXT = /^skip (?:to |over |past )?(?:the )?[a-z]+(?: [a-z]+){0,3}$/i;
/** Thread software's UI labels: quote expanders, post numbers, reply prompts, edit notes. */
const THREAD_UI_TEXT =
  /^(?:click to (?:expand|shrink)\.*|#\d+|post|permalink|top|back to top|sorted by:?|(?:asked|modified|active|viewed) ?\d[\w .,]{0,20}(?:ago|times)|(?:posts|joined|join date|registered|messages|reputation|reaction score|points|member since|location|trophies)\s*:.{0,40}|(?:replies|views):? ?[\d.,]+k?|[\d.,]+k? (?:answers?|replies|comments|views)|(?:you must )?(?:log in|sign in|login) (?:or (?:register|sign up) )?to (?:reply|post|comment)(?: here)?\.?|(?:post a )?reply|reply with quote|multi-?quote|quote|report|share|like|\d+ likes?|ask (?:a )?question|start asking to get answers|author|op|original poster|thread starter|topic starter|online|offline|last edited:? .{0,40}|members don't see this ad\.?|advertisement - members don't see this ad)$/i;
/** A shop's control labels left behind when prepare removed the controls. */
const SHOP_UI_TEXT =
  /^(?:quantity|qty|add to (?:cart|bag|basket)|buy (?:it )?now|add to (?:wish|watch) ?list|save for later|contact (?:the )?seller|ask a question)$/i;
/**
 * A shop's prompts around a product, up to a short block: feedback on its widgets, "report
 * an issue", a form's error messages, a carousel's paging labels, screen-reader hints for
 * collapsed text.
 */
const SHOP_UI_NOTICE =
  /^(?:did you find (?:this|these|the) [\w ]{0,40}(?:useful|helpful)\??|thank you for your feedback\b|(?:please )?sign in to (?:provide|give|leave) feedback\b|would you like to tell us about a lower price\??|report an? (?:issue|problem) with this (?:product|item|listing)\b|report this (?:product|item|listing)\b|please enter a valid\b|there was a problem (?:calculating|loading|adding|updating|checking)\b|(?:previous|next) (?:page|slide|set) of (?:related |recommended |sponsored )*(?:products|items)\b|(?:brief|full) content visible, double tap to read\b|(?:please )?(?:sign|log) ?in to (?:add|save|set|follow|see|view|continue|check out|purchase)\b|you(?:'re|’re| are) not (?:signed|logged) in\b|open (?:this page )?in (?:the )?(?:[\w-]+ )?(?:desktop )?app\b|(?:set (?:a |up a )?)?price alert$|(?:see|spot(?:ted)?|found) (?:any|an) (?:errors?|mistakes?) on this page\b|(?:video )?chat with an? [\w ]{1,30} expert\b)/i;
/**
 * A shop's delivery, returns, payment and seller badges, the same on every product: free
 * shipping or returns, N-day returns, instalments, secure checkout, delivery estimates,
 * "ships from", "sold by", protection-plan offers.
 */
const SHOP_POLICY_TEXT =
  /^(?:(?:free|fast|easy|hassle[- ]free)(?: standard| express| next[- ]day| 2[- ]day| uk| us)? (?:shipping|delivery|returns?|exchanges)\b|\d+[- ]days? (?:free )?(?:returns?|money[- ]back guarantee)\b|(?:or|pay in) \d+ (?:interest[- ]free )?(?:payments|instal?ments)\b|secure (?:checkout|payments?)\b|estimated delivery\b|order (?:within|today)\b|ships from\b|sold by\b|add a protection plan\b|free \d+[- ]days? returns?\b|returns? (?:&|and) exchanges? accepted\b|arrives? (?:by|today|tomorrow)\b|(?:standard|express|next[- ]day) delivery (?:\(|available\b)|(?:try )?risk[- ]free(?: for)? \d+[- ](?:days?|nights?)\b|risk[- ]free \d+[- ](?:day|night|week) trial\b|.{0,30}\b\d+[- ]month financing\b|(?:from|starting at) [$€£][\d.,]+ or [$€£][\d.,]+\/mo\b|this item is gift eligible\b|final sale items? (?:cannot|can't) be returned\b)/i;
/** Badges are blocks of their own; an inline value ("Returns: 30 days returns") is a labelled fact of the item. */
const SHOP_POLICY_BLOCKS = new Set(['div', 'p', 'li', 'section', 'aside', 'ul']);
/** Shop badges are short lines. */
const SHOP_POLICY_MAX = 120;
/** A grid's result count and sort/filter labels left when prepare removed the controls. */
const GRID_UI_TEXT =
  /^(?:(?:showing )?[\d,.\u2013-]+(?: of [\d,.]+)?(?: [a-z]+){0,2}\s*)?(?:sort(?: by)?:?|filter(?: by)?:?|refine|clear all|view:?|show:?)$|^(?:showing )?(?:all )?[\d,.\u2013-]+ (?:of [\d,.]+ )?results?$/i;
/** A grid's count of what it holds, alone on a line ("296 products", "(296 items)", "Products (296)", "loaded 296 results", "27 items found"). */
const GRID_COUNT_TEXT =
  /^(?:loaded |showing )?\(?[\d,.]+ (?:products?|items?|results?)(?: found)?\)?$|^(?:products|items|results) \([\d,.]+\)$/i;
/** A placeholder that scripts replace ("Loading…"), or an icon font's label ("Icon"): never the content itself. */
const PLACEHOLDER_TEXT = /^(?:(?:loading|please wait|spinner)\s*(?:\.{1,3}|…)?|icon)$/i;
/** A counter's text: a number alone ("20", "1.2k"). */
const COUNTER_TEXT = /^\s*\d[\d.,]*k?\s*$/i;
/** Counters are blocks of their own; a number inline (a span in a sentence) is part of the text. */
const COUNTER_BLOCKS = new Set(['div', 'li', 'dd', 'dt', 'footer', 'header', 'aside', 'section']);
/** Longer thread notices: the invitation to ask or browse under a Q&A page. */
const THREAD_UI_NOTICE = /^(?:not the answer you're looking for\?|browse other questions tagged)/i;
const READER_COMMENTS = /(?:^|[\s_-])(?:comments?|comment-?list|comment-?form|respond|disqus|replies)(?:[\s_-]|$)/;

/** What class-based chrome rules never drop: wrappers of the content, and blocks above a text share. */
/** Dates are looked for in text nodes shorter than this (a byline, not a paragraph). */
const DATE_TEXT_MAX = 200;
const CODE_PANEL_MAX_LINK_DENSITY = 0.3;
/** Elements that are text themselves, never chrome by their class. */
const TEXT_BLOCKS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'pre', 'code', 'table', 'blockquote']);
/** Remarks under a post hold less than this share of it. */
const REMARKS_MAX_SHARE = 0.5;

export interface ChromeGuard {
  readonly wrappers: ReadonlySet<Element>;
  readonly maxText: number;
  /** The blocks around a category's grid: not chrome for naming its pager or filters (collection-region.ts). */
  gridWrappers?: ReadonlySet<Element>;
  /** A Q&A thread's posts: comments nested in a post (remarks under an answer) are not posts. */
  posts?: ReadonlySet<Element>;
}

export const NO_GUARD: ChromeGuard = { wrappers: new Set(), maxText: Infinity };

export function isChrome(el: Element, stats: StatsMap, guard: ChromeGuard, pageType: PageType): boolean {
  const s = stats.get(el);
  if (!s) return false;
  const name = el.name;
  const grid = pageType === 'collection' || pageType === 'listing';
  // An aside of code listings is the examples panel of a reference page, not a sidebar.
  if (STRUCTURAL_BOILERPLATE.has(name)) return !(name === 'aside' && s.codeBlocks > 0 && linkDensity(s) < CODE_PANEL_MAX_LINK_DENSITY);
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
  if (s.textLen > 0 && s.textLen <= SHORT_BLOCK_MAX && isChromeText(el, s.textLen, s.linkLen, pageType, stats)) return true;
  if (pageType === 'listing' && (isCardTagRow(el, stats) || isItemActionRow(el, stats))) return true;
  // The item's link a second time, out of the keyboard order: the card read twice.
  if (name === 'a' && isCardLinkCopy(el, stats, grid)) return true;
  if (
    pageType === 'product' &&
    s.textLen > 0 &&
    s.textLen <= SHOP_POLICY_MAX &&
    SHOP_POLICY_BLOCKS.has(name) &&
    SHOP_POLICY_TEXT.test(collapseWhitespace(textOf(el)).trim())
  )
    return true;
  // A price a card says twice (an equal "was" price, a sale block's copy): once is the price.
  if (grid && isDuplicatePrice(el, stats)) return true;
  const ci = classAndId(el);
  // Fine print is never the product's text, even when its class scored it the best block ("product-disclaimer").
  if (pageType === 'product' && FINE_PRINT.test(ci) && !TEXT_BLOCKS.has(name) && !s.hasMainish && !holdsPageHeading(el, stats)) return true;
  if (ci === '' || s.hasMainish || guard.wrappers.has(el) || s.textLen > guard.maxText) return false;
  // A category's grid wrapped in blocks named for its pager and filters is still the grid.
  if (guard.gridWrappers?.has(el) && GRID_WRAPPER_WORDS.test(ci)) return false;
  // A card of the grid is content whatever its class says ("subscription-eligible", "modal-trigger").
  if (grid && isGridCard(el, stats) && !isFacetOption(ci, s.textLen, s.linkLen)) return false;
  // Chrome words describe containers: a heading or paragraph styled "anchorWithStickyNavbar" is still text.
  if (!TEXT_BLOCKS.has(name) && isChromeByClass(ci) && !(grid && adWordOnly(ci) && holdsCardList(el, stats)))
    return !holdsPageHeading(el, stats);
  if (pageType === 'product' && (NOT_THIS_PRODUCT.test(ci) || REVIEWS.test(ci))) return true;
  // A filter class on a block of prose (an FAQ in the facets' accordion) does not make it chrome.
  if (grid && GRID_CONTROLS.test(ci)) return !readsAsProse(s);
  if (!grid && TAG_LIST.test(ci)) return true;
  if ((pageType !== 'product' && RELATED.test(ci)) || SIMILAR.test(ci)) return true;
  if (READER_COMMENTS.test(ci) && (pageType !== 'forum' || remarkInPost(el, s.textLen, stats, guard.posts))) return true;
  // A "signature" holding a date is the post's author card ("answered May 3 by …"), not a signature.
  // A "signature" holding a date is the post's author card ("answered May 3 by …"), and a
  // widget holding a link to a member's profile is the author line: both stay.
  if (pageType === 'forum' && POST_WIDGETS.test(ci)) return !((SIGNATURE.test(ci) && holdsDate(el)) || holdsProfileLink(el));
  if (pageType === 'forum' && AVATAR.test(ci) && s.textLen <= AVATAR_MAX_TEXT) return true;
  return false;
}

/** A facet's option is a short link alone; a product card has more than a name or a longer one. */
const FACET_OPTION_MAX_TEXT = 40;

/**
 * One option of a grid's filter panel ("Lens Mount", "Discount"), named for the filters by its
 * class: its siblings repeat it like cards, but a short link and nothing else is a control.
 */
function isFacetOption(ci: string, textLen: number, linkLen: number): boolean {
  return textLen <= FACET_OPTION_MAX_TEXT && linkLen >= textLen && GRID_CONTROLS.test(ci);
}

function isChromeByClass(ci: string): boolean {
  return CHROME_ANYWHERE.test(ci) || CHROME_TOKEN.test(ci) || TABLE_OF_CONTENTS.test(ci);
}

/** The only chrome word of the class is `ad`/`ads`: on a grid, a list of cards so named is still the list (holdsCardList). */
function adWordOnly(ci: string): boolean {
  const rest = ci.replace(AD_TOKEN, ' ');
  return rest !== ci && !isChromeByClass(rest);
}

/** Holds the page's `<h1>` (not a logo link): a page header, which is content. */
/**
 * Remarks under a question or an answer: a comment block holding a minority of a post that
 * is not itself a comment. (When the posts are comments, comments inside them are nested
 * replies, which are posts; a block holding most of its post is the post's body.)
 */
function remarkInPost(el: Element, textLen: number, stats: StatsMap, posts: ReadonlySet<Element> | undefined): boolean {
  if (!posts) return false;
  for (let p = el.parent; isElement(p); p = p.parent) {
    if (!posts.has(p)) continue;
    if (READER_COMMENTS.test(classAndId(p)) || /Comment/.test(p.attribs.itemtype ?? '')) return false;
    return textLen < (stats.get(p)?.textLen ?? 0) * REMARKS_MAX_SHARE;
  }
  return false;
}

/** Short blocks whose words are UI: docs feedback and edit links, calls to action, thread labels. */
function isChromeText(el: Element, textLen: number, linkLen: number, pageType: PageType, stats: StatsMap): boolean {
  const t = collapseWhitespace(textOf(el));
  if (DOCS_CHROME_TEXT.test(t)) return true;
  if (pageType === 'product' && SHOP_UI_NOTICE.test(t.trim())) return true;
  if (isSkipLink(el, t.trim())) return true;
  if (textLen > BOILERPLATE_TEXT_MAX) return false;
  if (PLACEHOLDER_TEXT.test(t)) return true;
  // A call to action is a link (or a block of links) that says only "Learn more" or "Get started".
  if (linkLen >= textLen * 0.9 && CALL_TO_ACTION.test(t)) return true;
  if (pageType === 'product' && SHOP_UI_TEXT.test(t)) return true;
  if (
    (pageType === 'collection' || pageType === 'listing') &&
    (GRID_UI_TEXT.test(t) || GRID_COUNT_TEXT.test(t.trim()) || isGridCardChrome(t))
  )
    return true;
  if (isCardChromeInCard(el, t.trim(), stats)) return true;
  if (pageType !== 'forum') return false;
  // A block holding only a number is a post's counter (likes, votes, its index), never its text.
  if (COUNTER_BLOCKS.has(el.name) && COUNTER_TEXT.test(t)) return true;
  return THREAD_UI_TEXT.test(t) || THREAD_UI_NOTICE.test(t);
}

/** A link to a mark on this page saying "Skip images" or "Skip listing": keyboard furniture. */
function isSkipLink(el: Element, text: string): boolean {
  if (el.name !== 'a' || !SKIP_LINK_TEXT.test(text)) return false;
  return (el.attribs.href ?? '').includes('#');
}

export function holdsPageHeading(el: Element, stats: StatsMap): boolean {
  const stack: Element[] = [el];
  while (stack.length > 0) {
    const n = stack.pop() as Element;
    if (n.name === 'h1') return linkDensity(stats.get(n)) < 0.5;
    for (const c of n.children) if (isElement(c)) stack.push(c);
  }
  return false;
}

function holdsProfileLink(el: Element): boolean {
  const stack: Element[] = [el];
  while (stack.length > 0) {
    const n = stack.pop() as Element;
    if (n.name === 'a' && isProfileHref(n.attribs.href ?? '')) return true;
    for (const c of n.children) if (isElement(c)) stack.push(c);
  }
  return false;
}

/** Holds a date as a byline writes it (a `<time>`, or a date in a short text). */
export function holdsDate(el: Element): boolean {
  const stack: Element[] = [el];
  while (stack.length > 0) {
    const n = stack.pop() as Element;
    if (n.name === 'time') return true;
    for (const c of n.children) {
      if (isElement(c)) stack.push(c);
      else if (isText(c) && c.data.length < DATE_TEXT_MAX && DATE_LIKE.test(c.data)) return true;
    }
  }
  return false;
}
