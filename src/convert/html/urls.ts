import type { Element } from 'domhandler';

/**
 * Links and images are made absolute against the page URL (or its `<base href>`).
 * `javascript:`, `vbscript:` and `data:` targets are dropped (null).
 */
const UNSAFE_SCHEME = /^\s*(?:javascript|vbscript|data):/i;

export function resolveUrl(href: string, base: string | null): string | null {
  const raw = href.trim();
  if (raw === '' || UNSAFE_SCHEME.test(raw)) return null;
  try {
    return base ? new URL(raw, base).href : new URL(raw).href;
  } catch {
    return raw.includes(' ') ? null : raw;
  }
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
      return page ? new URL(baseHref.trim(), page).href : new URL(baseHref.trim()).href;
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
function splitSrcset(srcset: string): string[] {
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
