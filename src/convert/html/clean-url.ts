/**
 * Clean URLs (issue 22): well-known tracking parameters are removed from every link and image
 * URL we write, and redirect wrappers that carry their target in the URL itself are unwrapped.
 * Everything else of the URL stays byte-exact (order, encoding and case of the other
 * parameters, the fragment). `clean_urls: false` skips all of it.
 *
 * The list is ours, in this one file: parameters that only identify a campaign, a click or a
 * mail recipient and never select content. A parameter is removed only by an exact name (or
 * the `utm_` prefix), case-insensitively; anything unknown is kept.
 */

/** Exact parameter names (lower case). */
const TRACKING_PARAMS = new Set([
  // Google Ads / Analytics
  'gclid',
  'gclsrc',
  'dclid',
  'gbraid',
  'wbraid',
  '_ga',
  '_gl',
  // Meta, Microsoft, TikTok, Twitter/X, LinkedIn, Yandex, Instagram
  'fbclid',
  'msclkid',
  'ttclid',
  'twclid',
  'li_fat_id',
  'yclid',
  'igshid',
  'ref_src',
  'ref_url',
  // Mailchimp, HubSpot, Marketo, Vero, Oracle Eloqua, Drip, Klaviyo
  'mc_cid',
  'mc_eid',
  '_hsenc',
  '_hsmi',
  '__hssc',
  '__hstc',
  '__hsfp',
  'hsctatracking',
  'mkt_tok',
  'vero_conv',
  'vero_id',
  'elqtrackid',
  'elqtrack',
  '__s',
  '_kx',
  // Matomo / Piwik, Adobe, Omeda, generic campaign ids
  'pk_campaign',
  'pk_kwd',
  'pk_source',
  'pk_medium',
  'pk_content',
  'mtm_campaign',
  'mtm_source',
  'mtm_medium',
  'mtm_content',
  'mtm_keyword',
  'mtm_cid',
  's_cid',
  'oly_anon_id',
  'oly_enc_id',
  'rb_clickid',
  'wickedid',
  'srsltid',
]);

/** Parameter-name prefixes (lower case): Google's `utm_*` campaign family. */
const TRACKING_PREFIXES = ['utm_'];

/**
 * Redirect wrappers unwrapped only when the target is a parameter of the URL itself: the
 * host (or a suffix of it), the path, and the parameter holding the target.
 */
const REDIRECTS: ReadonlyArray<{ host: RegExp; path: RegExp; param: string }> = [
  { host: /^(?:www\.)?google\.[a-z.]+$/, path: /^\/url$/, param: 'q' },
  { host: /^(?:www\.)?google\.[a-z.]+$/, path: /^\/url$/, param: 'url' },
  { host: /^l\.facebook\.com$|^lm\.facebook\.com$/, path: /^\/l\.php$/, param: 'u' },
  { host: /^l\.instagram\.com$/, path: /^\/$/, param: 'u' },
  { host: /^out\.reddit\.com$/, path: /^\/t3_/, param: 'url' },
  { host: /^(?:www\.)?youtube\.com$/, path: /^\/redirect$/, param: 'q' },
  { host: /^(?:www\.)?linkedin\.com$/, path: /^\/redir\/redirect$/, param: 'url' },
  { host: /(?:^|\.)safelinks\.protection\.outlook\.com$/, path: /^\/$/, param: 'url' },
  { host: /^(?:www\.)?bing\.com$/, path: /^\/ck\/a$/, param: 'u' },
  { host: /^slack-redir\.net$/, path: /^\/link$/, param: 'url' },
  { host: /^(?:www\.)?deviantart\.com$/, path: /^\/users\/outgoing$/, param: '' },
  { host: /^href\.li$/, path: /^\/$/, param: '' },
  // affiliate networks' click trackers: the shop's page is a parameter of the click URL
  { host: /(?:^|\.)(?:pxf\.io|sjv\.io|7eer\.net|evyy\.net)$/, path: /^\/c\//, param: 'u' }, // Impact
  { host: /^go\.(?:skimresources|redirectingat)\.com$/, path: /^\/?$/, param: 'url' }, // Skimlinks
  { host: /^redirect\.viglink\.com$/, path: /^\/?$/, param: 'u' }, // Sovrn
  { host: /^(?:www\.)?avantlink\.com$/, path: /^\/click\.php$/, param: 'url' },
  { host: /^(?:www\.)?awin1\.com$/, path: /^\/(?:cread|awclick)\.php$/, param: 'ued' },
  { host: /^click\.linksynergy\.com$/, path: /^\/(?:deeplink|link)$/, param: 'murl' }, // Rakuten
  { host: /(?:^|\.)rockporch\.com$/, path: /^\/mlink\//, param: 'redirectUrl' },
  { host: /(?:^|\.)(?:anrdoezrs\.net|jdoqocy\.com|tkqlhce\.com|dpbolvw\.net|kqzyfj\.com)$/, path: /^\/click-/, param: 'url' }, // CJ
  { host: /\.go2cloud\.org$/, path: /^\/aff_c$/, param: 'url' }, // HasOffers
];

/**
 * CJ's other form carries the target in the path: `/links/<id>/type/dlg/[sid/<sub>/]https://…`.
 */
const PATH_REDIRECT = {
  host: /(?:^|\.)(?:anrdoezrs\.net|jdoqocy\.com|tkqlhce\.com|dpbolvw\.net|kqzyfj\.com)$/,
  path: /^\/links\/\d+\/type\/dlg\/(?:sid\/[^/]+\/)?(https?:\/\/.+)$/,
};

/**
 * Marketplaces' own referral and click-path parameters, removed on those hosts only: who
 * sent the visitor (an affiliate's `tag`, `linkCode`, `ascsubtag`), which widget and search
 * it came from (`pf_rd_*`, `pd_rd_*`, `qid`, `sr`, `_trksid`, `itmprp`, …). What selects
 * the item, its variant, seller or language stays. Amazon's `/ref=…` path tail is the same
 * click path written into the path.
 */
const HOST_TRACKING: ReadonlyArray<{ host: RegExp; params: ReadonlySet<string>; prefixes: readonly string[]; pathTail?: RegExp }> = [
  {
    host: /(?:^|\.)amazon\.(?:com|ca|de|fr|it|es|nl|se|pl|in|sg|ae|sa|eg|co\.(?:uk|jp)|com\.(?:au|br|mx|tr|be))$/,
    params: new Set([
      'tag',
      'linkcode',
      'linkid',
      'ascsubtag',
      'creative',
      'creativeasin',
      'camp',
      'ref',
      'ref_',
      'qid',
      'sr',
      'sprefix',
      'crid',
      'dib',
      'dib_tag',
      'content-id',
      '_encoding',
      'keywords',
    ]),
    prefixes: ['pf_rd_', 'pd_rd_'],
    pathTail: /\/ref=[^/?#]*$/,
  },
  {
    host: /(?:^|\.)ebay\.(?:com|ca|de|fr|it|es|nl|at|ch|ie|pl|be|co\.uk|com\.au)$/,
    params: new Set([
      '_trkparms',
      '_trksid',
      'hash',
      'itmprp',
      'itmmeta',
      'amdata',
      'mkcid',
      'mkrid',
      'mkevt',
      'campid',
      'customid',
      'toolid',
      '_skw',
      '_from',
    ]),
    prefixes: [],
  },
];

type HostRules = (typeof HOST_TRACKING)[number];

function isTracking(name: string, host: HostRules | null): boolean {
  let n = name.toLowerCase();
  if (n.includes('%')) {
    try {
      n = decodeURIComponent(n);
    } catch {
      return false;
    }
  }
  if (TRACKING_PARAMS.has(n)) return true;
  for (const p of TRACKING_PREFIXES) if (n.startsWith(p)) return true;
  if (host === null) return false;
  if (host.params.has(n)) return true;
  for (const p of host.prefixes) if (n.startsWith(p)) return true;
  return false;
}

/** The marketplace rules for the URL's host, if any. */
function hostRules(href: string): HostRules | null {
  const start = href.indexOf('//');
  if (start < 0) return null;
  const end = href.slice(start + 2).search(/[/?#]/);
  const authority = end < 0 ? href.slice(start + 2) : href.slice(start + 2, start + 2 + end);
  const host = authority
    .slice(authority.lastIndexOf('@') + 1)
    .replace(/:\d+$/, '')
    .toLowerCase();
  for (const r of HOST_TRACKING) if (r.host.test(host)) return r;
  return null;
}

/** Unwrap hops at most this often (a wrapper around a wrapper). */
const MAX_UNWRAP = 3;

/**
 * The URL without tracking parameters, redirect wrappers unwrapped. Takes and returns an
 * absolute URL (already through the URL policy); the caller re-checks an unwrapped target.
 */
export function cleanUrl(href: string): string {
  let url = href;
  for (let i = 0; i < MAX_UNWRAP; i++) {
    const target = unwrapRedirect(url);
    if (target === null) break;
    url = target;
  }
  return stripTracking(url);
}

/** The target of a known redirect wrapper, when it is an absolute http(s) URL inside the URL; else null. */
function unwrapRedirect(href: string): string | null {
  if (!href.includes('?') && !href.includes('href.li') && !href.includes('/type/dlg/')) return null;
  let u: URL;
  try {
    u = new URL(href);
  } catch {
    return null;
  }
  const inPath = PATH_REDIRECT.host.test(u.hostname) ? PATH_REDIRECT.path.exec(u.pathname + u.search) : null;
  if (inPath?.[1]) {
    try {
      const t = new URL(inPath[1]);
      if (t.protocol === 'http:' || t.protocol === 'https:') return t.href;
    } catch {
      // not a URL: keep the wrapper
    }
  }
  for (const r of REDIRECTS) {
    if (!r.host.test(u.hostname) || !r.path.test(u.pathname)) continue;
    // `param: ''`: the target is the whole query (`?https://…`)
    const raw = r.param === '' ? decodeSafe(u.search.slice(1)) : u.searchParams.get(r.param);
    if (!raw) continue;
    try {
      const t = new URL(raw);
      if (t.protocol === 'http:' || t.protocol === 'https:') return t.href;
    } catch {
      // not an absolute URL: keep the wrapper
    }
  }
  return null;
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The query without tracking parameters; every other byte of the URL as it was. */
function stripTracking(href: string): string {
  const host = hostRules(href);
  const q = href.indexOf('?');
  if (q < 0) return host?.pathTail ? withoutPathTail(href, host.pathTail) : href;
  const hash = href.indexOf('#', q);
  const query = href.slice(q + 1, hash < 0 ? href.length : hash);
  const fragment = hash < 0 ? '' : href.slice(hash);
  if (query === '') return href;
  const parts = query.split('&');
  const kept = parts.filter((p) => {
    if (p === '') return true;
    const eq = p.indexOf('=');
    return !isTracking(eq < 0 ? p : p.slice(0, eq), host);
  });
  const path = host?.pathTail ? withoutPathTail(href.slice(0, q), host.pathTail) : href.slice(0, q);
  if (kept.length === parts.length && path.length === q) return href;
  const rest = kept.filter((p) => p !== '').join('&');
  return `${path}${rest === '' ? '' : `?${rest}`}${fragment}`;
}

/** The URL (no query) without its click-path tail (`/dp/B0…/ref=as_li_ss_tl` → `/dp/B0…`). */
function withoutPathTail(href: string, tail: RegExp): string {
  const hash = href.indexOf('#');
  const main = hash < 0 ? href : href.slice(0, hash);
  const cut = main.replace(tail, '');
  // never cut into the host: a tail is a path segment after it
  if (cut.length === main.length || cut.length <= main.indexOf('//') + 2 || !cut.slice(main.indexOf('//') + 2).includes('/')) return href;
  return cut + (hash < 0 ? '' : href.slice(hash));
}
