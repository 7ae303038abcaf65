import type { Element } from 'domhandler';
import { cleanUrl } from './clean-url.js';

/**
 * One URL policy for every link and image we write: the URL is parsed by the WHATWG URL
 * parser against the page's base — which removes tabs and newlines anywhere and strips
 * leading and trailing control characters and spaces, exactly as a browser reads an href,
 * so `java&#x09;script:` or `\njavascript:` are recognised for what they are — and only
 * these schemes pass. An allow-list, not a deny-list: `livescript:`, `vbscript:`, `data:`
 * and any scheme nobody has thought of yet are dropped (null).
 */
const ALLOWED_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:']);

export function resolveUrl(href: string, base: string | null): string | null {
  let url: URL;
  try {
    url = base ? new URL(href, base) : new URL(href);
  } catch {
    return null;
  }
  return ALLOWED_SCHEMES.has(url.protocol) ? url.href : null;
}

/**
 * A URL we write: through the policy, then (unless `clean_urls: false`) without tracking
 * parameters and out of its redirect wrapper — the cleaned URL passes the policy again.
 */
export function outputUrl(href: string, base: string | null, clean: boolean): string | null {
  const url = resolveUrl(href, base);
  if (url === null || !clean || !(url.startsWith('http:') || url.startsWith('https:'))) return url;
  const cleaned = cleanUrl(url);
  return cleaned === url ? url : resolveUrl(cleaned, null);
}

/** The effective base: `<base href>` resolved against the page URL, else the page URL. */
export function effectiveBase(pageUrl: string, baseHref: string | null): string | null {
  let page: string | null = null;
  try {
    page = new URL(pageUrl).href;
  } catch {
    page = null;
  }
  if (baseHref) {
    try {
      const base = page ? new URL(baseHref, page) : new URL(baseHref);
      // a `<base href="javascript:…">` would hand its scheme to every relative and fragment link
      return base.protocol === 'http:' || base.protocol === 'https:' ? base.href : page;
    } catch {
      return page;
    }
  }
  return page;
}

/** Best candidate of a srcset: the widest `w`, else the highest density `x`, else the first. */
/** Longer srcsets are hostile (the candidate split would go quadratic); real ones are < 2 KB. */
const MAX_SRCSET_CHARS = 8192;

export function bestSrcsetCandidate(srcset: string): string | null {
  let best: string | null = null;
  let bestScore = -1;
  for (const part of splitSrcset(srcset.slice(0, MAX_SRCSET_CHARS))) {
    const bits = part.trim().split(/\s+/);
    const url = bits[0];
    if (!url || url.startsWith('data:')) continue;
    const d = bits[1] ?? '1x';
    const n = parseFloat(d);
    const score = d.endsWith('w') ? n : d.endsWith('x') ? n * 1000 : 1000;
    if (Number.isFinite(score) && score > bestScore) {
      bestScore = score;
      best = url;
    }
  }
  return best;
}

/** Commas separate candidates, but URLs may contain commas too (e.g. CDN resize params). */
export function splitSrcset(srcset: string): string[] {
  // As `srcset.split(/,\s+|,(?=\S+\s+\d)/)`, scanning each run of non-space characters
  // once: that regex's lookahead ran from every comma to the end of its run.
  const parts: string[] = [];
  let partStart = 0;
  let at = 0;
  while (at < srcset.length) {
    if (WHITESPACE.test(srcset[at]!)) {
      at++;
      continue;
    }
    let runEnd = at;
    while (runEnd < srcset.length && !WHITESPACE.test(srcset[runEnd]!)) runEnd++;
    let spaceEnd = runEnd;
    while (spaceEnd < srcset.length && WHITESPACE.test(srcset[spaceEnd]!)) spaceEnd++;
    // A comma inside the run splits when a descriptor (space, then a digit) follows the run.
    const descriptorFollows = spaceEnd > runEnd && /\d/.test(srcset[spaceEnd] ?? '');
    for (let i = at; i < runEnd; i++) {
      if (srcset[i] !== ',') continue;
      if (i === runEnd - 1 && spaceEnd > runEnd) {
        // `,\s+`: the comma and the spaces after it.
        parts.push(srcset.slice(partStart, i));
        partStart = spaceEnd;
      } else if (i < runEnd - 1 && descriptorFollows) {
        parts.push(srcset.slice(partStart, i));
        partStart = i + 1;
      }
    }
    at = spaceEnd;
  }
  parts.push(srcset.slice(partStart));
  return parts.filter((s) => s.trim() !== '');
}

const WHITESPACE = /\s/;

const LAZY_SRC_ATTRS = ['data-src', 'data-lazy-src', 'data-original', 'data-url', 'data-hi-res-src', 'data-lazy'];

/** The URL an `<img>` really shows (srcset best candidate, lazy-loading attributes, then src). */
export function imageSource(img: Element): string | null {
  const a = img.attribs;
  const srcset = a.srcset ?? a['data-srcset'] ?? siblingSourceSrcset(img);
  if (srcset) {
    const best = bestSrcsetCandidate(srcset);
    if (best) return best;
  }
  for (const name of LAZY_SRC_ATTRS) {
    const v = a[name];
    if (v && !v.startsWith('data:')) return v;
  }
  const src = a.src;
  if (src && !src.trim().startsWith('data:')) return src;
  return null;
}

/** `<picture><source srcset>…<img></picture>`: the first source without a media query. */
function siblingSourceSrcset(img: Element): string | null {
  const parent = img.parent;
  if (parent?.type !== 'tag' || (parent as Element).name !== 'picture') return null;
  for (const c of (parent as Element).children) {
    if (c.type === 'tag' && (c as Element).name === 'source') {
      const s = (c as Element).attribs;
      if (s.srcset && !s.media) return s.srcset;
    }
  }
  return null;
}

/**
 * A link to a member's profile page by its path: `/members/…`, `/u/…`, `/users/…`,
 * `member.php?u=…`. Relative or absolute; the host is not read.
 */
export function isProfileHref(href: string): boolean {
  return PROFILE_SEGMENT.test(hrefPath(href));
}

/**
 * A link to the page itself or a place in it: the page's own URL, bare (a thread title or the
 * breadcrumb's last step linking to where the reader is) or with a fragment (`#fn3`,
 * `#section-2` resolved against the page). A trailing slash does not make another page. Not
 * a hash route (`#/inbox`, `#!/item`): that is another view. A fragment under a `<base href>`
 * elsewhere resolves to that other page.
 */
export function isSameDocumentLink(url: string, page: string | null): boolean {
  if (page === null) return false;
  const hash = url.indexOf('#');
  if (hash >= 0 && (url[hash + 1] === '/' || url[hash + 1] === '!')) return false;
  const own = page.indexOf('#');
  return sameResource(hash < 0 ? url : url.slice(0, hash), own < 0 ? page : page.slice(0, own));
}

/** Equal, or equal but for one trailing slash on the path (`/a/` and `/a`, not `/a?x=/`). */
function sameResource(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.includes('?') || b.includes('?')) return false;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return long.length === short.length + 1 && long.endsWith('/') && long.startsWith(short);
}

/** A profile link by its path, or phpBB's `memberlist.php?mode=viewprofile&u=…`. */
export function linksToProfile(href: string): boolean {
  return isProfileHref(href) || PHPBB_PROFILE.test(href);
}

const PROFILE_SEGMENT = /(?:^|\/)(?:members?|users?|u|profiles?|authors?)(?:\/|\.php)/i;
const PHPBB_PROFILE = /(?:^|\/)memberlist\.php\?(?:[^#]*&)?mode=viewprofile/i;

/** The path of a link target: no scheme and host, no query or fragment. */
function hrefPath(href: string): string {
  const end = href.search(/[?#]/);
  const noQuery = end < 0 ? href : href.slice(0, end);
  const scheme = noQuery.indexOf('//');
  if (scheme < 0) return noQuery;
  const slash = noQuery.indexOf('/', scheme + 2);
  return slash < 0 ? '/' : noQuery.slice(slash);
}
