import type { PageSignals } from './page-signals.js';

/**
 * What kind of page this is, decided cheaply before extraction so that type-specific rules
 * can run (threads keep every post, grids keep every card, landing pages keep every section).
 * Every piece of evidence votes for one or more types with a named weight: the URL's shape,
 * JSON-LD and microdata types, OpenGraph, and the page's structure (page-signals.ts). The
 * type with the most votes wins when it has at least MIN_VOTES; otherwise the page is an
 * article when it reads like prose and `other` when it does not.
 *
 * Accuracy against human labels is measured on wcxb-dev (bench/README.md). The weights were
 * set by reading those pages' structure, not by naming any of them.
 */
export type PageType = 'article' | 'forum' | 'product' | 'collection' | 'listing' | 'documentation' | 'service' | 'other';

export const PAGE_TYPES: readonly PageType[] = [
  'article',
  'forum',
  'product',
  'collection',
  'listing',
  'documentation',
  'service',
  'other',
];

type Votes = Record<Exclude<PageType, 'other'>, number>;

/** A lead this large from URL and declarations is not overturned by structure (which adds at most about 5 to a type). */
const DECISIVE_MARGIN = 4;
/** The winner needs at least this many votes; below it the page is `article` (prose) or `other`. */
const MIN_VOTES = 1;
/** Prose (characters in real paragraphs) that makes an undecided page an article rather than `other`. */
const ARTICLE_FALLBACK_PROSE = 160;

/**
 * Linked cards vote listing when their mean text is at most this long (a title, a teaser and
 * a byline): longer ones are an article's sections, each ending on a "learn more" link.
 */
const TEASER_MAX_TEXT = 500;
/** Repeated teasers vote listing when they hold this share of the page's text. */
const TEASERS_MIN_SHARE = 0.3;
/** Weights: strong evidence (the page says what it is) > URL shape > structure. */
const W_DECLARED = 3;
const W_FORUM_DECLARED = 4;
const W_ARTICLE_DECLARED = 2.5;
/** A declared CollectionPage / SearchResultsPage outweighs a site-wide og:type "article" plus long prose (an index's intro). */
const W_INDEX_DECLARED = 3.5;
/** og:type "product" outweighs a publication date, long prose and a headline-like slug (5): shops set it on product pages only, where "article" is often site-wide. */
const W_OG_PRODUCT = 5.5;
const W_URL_STRONG = 2;
const W_URL = 1.5;
const W_URL_WEAK = 1;
const W_STRUCTURE_STRONG = 2.5;
const W_STRUCTURE = 1.5;
const W_STRUCTURE_WEAK = 1;
/** Long, evenly spread prose: a story. */
const W_PROSE = 2;
const W_HINT = 0.5;
/** A home page whose content shows this many dates is a feed of posts (a news or blog front page), not a business's landing page. */
const FEED_HOME_DATES = 8;
/** Distinct asks to act in the content (`Get a quote`, `Book a demo`): a business selling, not a story. */
const MIN_CALLS_TO_ACTION = 2;

const FORUM_HOST = /^(?:forums?|community|communities|discuss|discussions?|bbs|boards?|answers|ask|talk)\./;
const FORUM_PATH =
  /\/t\/[^/]+\/\d+|\/q\/\d+|\/threads?\/|\/topics?\/|\/forums?\/|\/questions\/\d+|\/question\/|\/discussions?\/|\/comments\/|viewtopic|showthread|\/community\/|\/posts?\/\d+/;
const FORUM_QUERY = /(?:^|&)(?:t|topic|threadid)=\d/;
const DOCS_HOST = /^(?:docs?|developers?|devdocs|wiki|learn|api|reference|manual|help|support|kb|knowledge)\.|readthedocs|\.gitbook\.io$/;
const DOCS_PATH_STRONG = /\/(?:docs?|documentation|reference|api|manual)(?:\/|$)/;
const DOCS_PATH = /\/(?:apis|manuals|guides?|tutorials?|handbook|wiki|man|learn|howto|kb|knowledge-?base|sdk|cli)(?:\/|$)/;
const PRODUCT_PATH = /\/(?:products?|p|dp|item|items|ip|pd|pr|sku|buy)\/[^/]+|\.p$|-p-\d+|\/\d{5,}(?:\.html)?$|-\d{6,}(?:\.html)?$/;
const COLLECTION_PATH =
  /\/(?:collections?|categor(?:y|ies)|c|cat|shop|store|browse|b|departments?|catalog|catalogue|range|brands?|sale|deals|gifts?)(?:\/|$)|-c\d+/;
/** `/product-category/…`, `/shop_collections/…`. */
const COLLECTION_SEGMENT = /[-_](?:categor(?:y|ies)|collections?)(?:\/|$)/;
const SEARCH_QUERY = /(?:^|&)(?:q|k|search|query)=/;
const LISTING_PATH =
  /\/(?:blog|news|articles|events|jobs|careers|courses|tags?|topics|archives?|search|results|reviews|list|lists|directory|podcasts?|videos|stories|recipes|resources|chart|top|best|latest|popular|people|authors?)\/?$|\/page\/\d+|\/(?:tag|tags|author|category)\/[^/]+\/?$/;
const SERVICE_PATH =
  /\/(?:services?|solutions?|pricing|plans|features?|platform|product|products|what-we-do|use-cases?|industries|for-[a-z-]+|enterprise|business|integrations?|consulting|agency|hire|offerings?)(?:\/|$)|-(?:services?|solutions?|consulting|agency|company|software|platform|tool|app)\/?$/;
const DATED_PATH = /\/20\d\d\/\d\d\//;
/** A slug of five or more words reads like a headline. */
const HEADLINE_SLUG = /^(?:[a-z0-9]+-){4,}[a-z0-9]+(?:\.html?)?$/;
/** schema.org's businesses and what they sell by their type's ending (`LocalBusiness`, `ProfessionalService`, `HVACBusiness`, `ClothingStore`, `Service`…). */
const BUSINESS_LD = /(?:Business|Service|Store|Contractor|Agency|Attorney|Dentist|Physician|Clinic|Restaurant)$/;
/**
 * Blog themes name the template on `<body>`: an archive of a category, tag, author or date,
 * or search results, is an index of posts; a shop theme's product archive is a category grid.
 * A single post says so (`single`, `postid-…`), whatever else its body class holds.
 */
const INDEX_BODY_CLASS = /(?:^|\s)(?:archive|category|search-results)(?:\s|$)/;
const SHOP_BODY_CLASS = /(?:^|\s)(?:woocommerce|tax-product_cat|post-type-archive-product)(?:\s|$)/;
const SINGLE_BODY_CLASS = /(?:^|\s)(?:single|single-post|page-template|postid-\d+)(?:\s|$)/;
const ARTICLE_LD =
  /^(?:Article|NewsArticle|BlogPosting|Report|ReportageNewsArticle|OpinionNewsArticle|AnalysisNewsArticle|Recipe|Review|ScholarlyArticle)$/;

export interface PageTypeResult {
  type: PageType;
  votes: Votes;
}

/**
 * `measure` fills the structure fields of `s` (page-signals.ts measureStructure); it is
 * called only when the URL and the page's own declarations leave the type open: a page
 * that says it is a NewsArticle at a dated URL needs no walk over its cards and posts.
 */
export function classifyPage(s: PageSignals, measure?: () => void): PageTypeResult {
  const v: Votes = { article: 0, forum: 0, product: 0, collection: 0, listing: 0, documentation: 0, service: 0 };
  if (s.bodyText === 0) return { type: 'other', votes: v };
  voteUrl(s, v);
  voteStructuredData(s, v);
  voteMetadata(s, v);
  const lead = ranked(v);
  if (measure && lead.first - lead.second >= DECISIVE_MARGIN) return { type: lead.type, votes: v };
  measure?.();
  voteStructure(s, v);
  const best = ranked(v);
  const type: PageType = best.first >= MIN_VOTES ? best.type : s.proseText >= ARTICLE_FALLBACK_PROSE ? 'article' : 'other';
  return { type, votes: v };
}

/** The leading type and its votes, and the runner-up's votes; ties keep declaration order (article first). */
function ranked(v: Votes): { type: keyof Votes; first: number; second: number } {
  let type: keyof Votes = 'article';
  let first = -Infinity;
  let second = -Infinity;
  for (const [t, n] of Object.entries(v) as Array<[keyof Votes, number]>) {
    if (n > first) {
      second = first;
      first = n;
      type = t;
    } else if (n > second) second = n;
  }
  return { type, first, second };
}

function voteMetadata(s: PageSignals, v: Votes): void {
  if (s.published) v.article += W_STRUCTURE;
  if (s.authored) v.article += W_HINT;
  voteBodyClass(s.bodyClass, v);
}

/** The theme's template name on `<body>` (INDEX_BODY_CLASS). */
function voteBodyClass(cls: string, v: Votes): void {
  if (!INDEX_BODY_CLASS.test(cls) || SINGLE_BODY_CLASS.test(cls)) return;
  if (SHOP_BODY_CLASS.test(cls)) v.collection += W_URL;
  else v.listing += W_URL;
}

function voteUrl(s: PageSignals, v: Votes): void {
  const { host, path, query } = s;
  if (FORUM_HOST.test(host)) v.forum += W_URL_STRONG;
  if (FORUM_PATH.test(path) || FORUM_QUERY.test(query)) v.forum += W_URL_STRONG;
  if (DOCS_HOST.test(host)) v.documentation += W_URL_STRONG;
  if (DOCS_PATH_STRONG.test(path)) v.documentation += W_URL_STRONG;
  else if (DOCS_PATH.test(path)) v.documentation += W_URL_WEAK;
  if (PRODUCT_PATH.test(path)) v.product += W_URL;
  if (COLLECTION_PATH.test(path) || COLLECTION_SEGMENT.test(path) || SEARCH_QUERY.test(query)) v.collection += W_URL;
  if (LISTING_PATH.test(path)) v.listing += W_URL_STRONG;
  if (SERVICE_PATH.test(path)) v.service += W_URL;
  const segments = path.split('/').filter(Boolean);
  if (segments.length === 0) {
    // A home page introduces a business, a shop or a feed, rarely one story.
    v.service += W_URL_WEAK;
    v.listing += W_HINT;
    v.collection += W_HINT;
    v.article -= W_URL;
  }
  const slug = segments[segments.length - 1] ?? '';
  if (DATED_PATH.test(path) || HEADLINE_SLUG.test(slug)) v.article += W_URL;
}

function voteStructuredData(s: PageSignals, v: Votes): void {
  const { ldTypes, aggregateOffer, ogType } = s.structured;
  const items = s.markup.itemTypes;
  const ld = (t: string): boolean => ldTypes.has(t);
  const micro = (t: string): number => items.get(t) ?? 0;
  const product = ld('Product') || ld('ProductGroup') || micro('Product') === 1;
  if (product && !aggregateOffer) v.product += W_DECLARED;
  if (product && aggregateOffer) {
    v.product += W_URL_WEAK;
    v.collection += W_URL;
  }
  // Many product or offer scopes: a grid of products.
  if (micro('Product') >= 3 || micro('Offer') >= 3) v.collection += W_STRUCTURE_STRONG;
  if (ld('DiscussionForumPosting') || ld('QAPage') || micro('DiscussionForumPosting') > 0 || micro('QAPage') > 0)
    v.forum += W_FORUM_DECLARED;
  let articleDeclared = false;
  for (const t of ldTypes) if (ARTICLE_LD.test(t)) articleDeclared = true;
  for (const t of items.keys()) if (ARTICLE_LD.test(t)) articleDeclared = true;
  if (articleDeclared) v.article += W_ARTICLE_DECLARED;
  // A business describing itself (and no story or product on the page): its landing page, whatever the prose says.
  if (!articleDeclared && !product && declaresBusiness(ldTypes)) v.service += W_DECLARED;
  // Comments without an article around them: a thread.
  if (micro('Comment') >= 2 && !articleDeclared) v.forum += W_URL_WEAK;
  // The page declares itself an index of other pages (a category, a recipe index, search
  // results): a grid, whatever its og:type says. A bare ItemList is weaker: listicles carry one.
  if (ld('CollectionPage') || ld('SearchResultsPage') || micro('CollectionPage') > 0 || micro('SearchResultsPage') > 0) {
    v.collection += W_INDEX_DECLARED;
    v.listing += W_INDEX_DECLARED;
  } else if (ld('ItemList') || ld('OfferCatalog') || micro('ItemList') > 0) {
    v.collection += W_URL_WEAK;
    v.listing += W_URL_WEAK;
  }
  if (ld('TechArticle') || ld('APIReference')) v.documentation += W_URL_STRONG;
  if (ld('Service') || ld('SoftwareApplication') || ld('WebApplication')) v.service += W_URL_WEAK;
  if (ogType === 'product.group' || ogType === 'product:group') v.collection += W_DECLARED;
  else if (ogType !== null && /product|item/.test(ogType)) v.product += W_OG_PRODUCT;
  else if (ogType === 'article') v.article += W_URL_WEAK;
}

function declaresBusiness(ldTypes: ReadonlySet<string>): boolean {
  for (const t of ldTypes) if (BUSINESS_LD.test(t)) return true;
  return false;
}

function voteStructure(s: PageSignals, v: Votes): void {
  if (s.codeBlocks >= 3) v.documentation += W_STRUCTURE;
  if (s.codeBlocks >= 10) v.documentation += W_STRUCTURE_WEAK;
  if (s.inlineCode >= 10) v.documentation += W_STRUCTURE_WEAK;
  // Code listings with code words in the prose around them: a reference page, not a product's landing page.
  if (s.codeBlocks > 0 && s.inlineCode >= 3) v.documentation += W_STRUCTURE_WEAK;
  const c = s.cards;
  const home = s.path.split('/').every((p) => p === '');
  if (c.count >= 4 && c.withPrice >= 3) v.collection += W_STRUCTURE_STRONG;
  else if (c.count >= 6 && c.withImage >= 4) {
    // Pictured cards that no price, cart or home page makes a shop's grid: stories, episodes, recipes.
    const unpriced = c.withPrice === 0 && s.prices < 3 && s.markup.cartControls === 0 && !home;
    v.collection += unpriced ? W_HINT : W_STRUCTURE_WEAK;
    v.listing += W_STRUCTURE_WEAK;
  } else if (c.count >= 6 && c.meanText >= 60 && c.meanText <= TEASER_MAX_TEXT) v.listing += W_STRUCTURE;
  const cart = s.markup.cartControls;
  if (cart >= 1 && cart <= 3) v.product += W_STRUCTURE;
  if (cart >= 5) v.collection += W_STRUCTURE;
  // Teasers that are a good part of the page (not three "related stories" under an article).
  const t = s.teasers;
  if (t.count >= 3 && t.count * t.meanText >= s.bodyText * TEASERS_MIN_SHARE) v.listing += W_STRUCTURE;
  // Dated entries read as a thread's posts only when some block names itself a post, comment,
  // reply or message: entries that none does are a list of dated items (cost reports, job ads).
  const thread = s.threadBlocks > 0;
  if (s.posts.count >= 3) v.forum += thread ? W_STRUCTURE : W_HINT;
  else if (s.posts.count === 2) v.forum += thread ? W_STRUCTURE_WEAK : W_HINT;
  if (s.threadBlocks >= 10 && s.times >= 3) v.forum += W_STRUCTURE_WEAK;
  const perHeading = s.proseText / Math.max(1, s.headings);
  if (s.proseText >= 2000 && s.proseParagraphs >= 8 && perHeading >= 300) v.article += W_PROSE;
  else if (s.proseText >= 1000 && perHeading >= 200) v.article += W_STRUCTURE_WEAK;
  // Many headings over little prose each: a landing page's sections.
  if (perHeading < 150 && s.headings >= 5) v.service += W_STRUCTURE_WEAK;
  if (s.bodyLinkDensity > 0.6 && s.proseText < 800) {
    v.listing += W_STRUCTURE_WEAK;
    v.collection += W_HINT;
  }
  if (s.sections >= 5 && s.proseText < 2500) v.service += W_STRUCTURE_WEAK;
  voteLandingCues(s, v);
  if (home && s.contentDates >= FEED_HOME_DATES) v.listing += W_STRUCTURE;
  if (s.headings >= 6 && s.proseParagraphs < 10 && s.prices < 3 && c.withImage < 4) v.service += W_HINT;
}

/**
 * A landing page asks its reader to act and quotes its customers; a story shows its date.
 * A shop's home page quotes its customers too: priced cards keep it a grid. A publication
 * date that only the JSON-LD carries (SEO plugins stamp one on every page) and that the
 * content never shows takes back the date's vote for article.
 */
function voteLandingCues(s: PageSignals, v: Votes): void {
  if (s.cards.withPrice < 3) {
    if (s.callsToAction >= MIN_CALLS_TO_ACTION) v.service += W_STRUCTURE_WEAK;
    if (s.testimonials > 0) v.service += W_STRUCTURE_WEAK;
  }
  if (s.published && !s.structured.datedByMetaTag && s.contentDates === 0) v.article -= W_STRUCTURE;
}
