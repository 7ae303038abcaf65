/**
 * Firewall / bot-manager block pages → vendor name, from status + headers + body.
 * A plain 403 with none of these signatures is not a firewall (UPSTREAM_ERROR). Pure.
 */
export const WAF_VENDORS = ['cloudflare', 'akamai', 'imperva', 'datadome', 'perimeterx', 'sucuri', 'aws-waf', 'kasada'] as const;
export type WafVendor = (typeof WAF_VENDORS)[number];

/** How much of an error body is kept for signature matching. */
export const WAF_BODY_SNIFF_BYTES = 64 * 1024;

export interface WafInput {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** The first bytes of the body as text (may be empty). */
  body: string;
}

type Detector = (r: WafInput, h: (name: string) => string) => boolean;

const BLOCKING = (s: number): boolean => s === 401 || s === 403 || s === 405 || s === 406 || s === 429 || s === 503;

const DETECTORS: Array<[WafVendor, Detector]> = [
  [
    'cloudflare',
    (r, h) =>
      h('cf-mitigated') !== '' ||
      ((r.status === 403 || r.status === 503 || r.status === 429) &&
        (h('cf-ray') !== '' || /cloudflare/i.test(h('server'))) &&
        /Just a moment\.\.\.|Attention Required! \| Cloudflare|cf-browser-verification|\/cdn-cgi\/challenge-platform|cf_chl_|Sorry, you have been blocked|cloudflare/i.test(
          r.body,
        )),
  ],
  [
    'akamai',
    (r, h) =>
      BLOCKING(r.status) &&
      (/akamai/i.test(h('server')) ||
        /errors\.edgesuite\.net|AkamaiGHost/i.test(r.body) ||
        (/<title>\s*Access Denied\s*<\/title>/i.test(r.body) && akamaiReference(r.body))),
  ],
  [
    'imperva',
    (r, h) =>
      /Incapsula incident ID|_Incapsula_Resource|Request unsuccessful\. Incapsula/i.test(r.body) ||
      (BLOCKING(r.status) &&
        (h('x-iinfo') !== '' || /incapsula|imperva/i.test(h('x-cdn')) || /incap_ses_|visid_incap_/.test(h('set-cookie')))),
  ],
  [
    'datadome',
    (r, h) =>
      BLOCKING(r.status) &&
      (h('x-datadome') !== '' ||
        h('x-datadome-cid') !== '' ||
        /datadome/i.test(h('server')) ||
        /(^|[,;\s])datadome=/i.test(h('set-cookie')) ||
        /captcha-delivery\.com|ct\.captcha-delivery|dd\.datadome/i.test(r.body)),
  ],
  [
    'perimeterx',
    (r, h) =>
      BLOCKING(r.status) &&
      (/(^|[,;\s])_px(hd|vid|3|2|cc)?=/.test(h('set-cookie')) ||
        /px-captcha|_pxAppId|window\._pxUuid|perimeterx|captcha\.px-cdn\.net|client\.px-cloud\.net|Press (&amp;|&) Hold/i.test(r.body)),
  ],
  [
    'sucuri',
    (r, h) =>
      h('x-sucuri-block') !== '' ||
      (BLOCKING(r.status) && /sucuri|cloudproxy/i.test(h('server'))) ||
      (BLOCKING(r.status) &&
        (h('x-sucuri-id') !== '' || /Sucuri WebSite Firewall|sucuri\.net\/privacy-policy|cloudproxy@sucuri\.net/i.test(r.body))),
  ],
  [
    'aws-waf',
    (r, h) =>
      h('x-amzn-waf-action') !== '' ||
      (BLOCKING(r.status) &&
        (/awswaf|token\.awswaf\.com|aws-waf-token/i.test(r.body) ||
          (/Request blocked\./i.test(r.body) && /cloudfront/i.test(r.body + h('via') + h('x-cache'))) ||
          (r.status === 403 && /^awselb/i.test(h('server')) && /<h1>\s*403 Forbidden\s*<\/h1>/i.test(r.body)))),
  ],
  [
    'kasada',
    (r) => BLOCKING(r.status) && (Object.keys(r.headers).some((k) => k.startsWith('x-kpsdk-')) || /KPSDK|\/ips\.js\?|kpsdk/i.test(r.body)),
  ],
];

const AKAMAI_DENIED = /You don't have permission to access/i;
const AKAMAI_REFERENCE = /Reference\s*#\d+\.[0-9a-f.]/gi;

/**
 * Akamai's "Access Denied" text followed somewhere by its reference number, as
 * `/You don't have permission to access[\s\S]*Reference\s*#\d+\.[0-9a-f.]+/i` tested it,
 * without that regex's rescan of the rest of the body from every copy of the sentence.
 */
function akamaiReference(body: string): boolean {
  const denied = AKAMAI_DENIED.exec(body);
  if (!denied) return false;
  AKAMAI_REFERENCE.lastIndex = denied.index + denied[0].length;
  return AKAMAI_REFERENCE.test(body);
}

/** The vendor whose block page this is, or null. */
export function detectWaf(input: WafInput): WafVendor | null {
  const h = (name: string): string => input.headers[name] ?? '';
  for (const [vendor, test] of DETECTORS) if (test(input, h)) return vendor;
  return null;
}
