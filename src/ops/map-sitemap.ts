import { createGunzip } from 'node:zlib';

/**
 * Sitemap parsing (sitemaps.org XML, sitemap indexes, plain-text lists) and a capped
 * gunzip. Tolerant by design: a truncated file still yields the entries before the cut.
 */
export interface SitemapEntry {
  loc: string;
  lastmod?: string;
}

export interface ParsedSitemap {
  kind: 'index' | 'urlset' | 'text';
  entries: SitemapEntry[];
}

const GZIP_MAGIC = [0x1f, 0x8b] as const;

export function isGzip(body: Buffer): boolean {
  return body.length >= 2 && body[0] === GZIP_MAGIC[0] && body[1] === GZIP_MAGIC[1];
}

/**
 * Gunzips at most `maxBytes` of output; a bigger (or endless) stream is cut there
 * (`truncated: true`), a corrupt one yields what decoded before the damage.
 */
export function gunzipCapped(body: Buffer, maxBytes: number): Promise<{ data: Buffer; truncated: boolean }> {
  return new Promise((resolve) => {
    const gz = createGunzip();
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (truncated: boolean): void => {
      if (done) return;
      done = true;
      gz.destroy();
      resolve({ data: Buffer.concat(chunks).subarray(0, maxBytes), truncated });
    };
    gz.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > maxBytes) finish(true);
    });
    gz.on('end', () => finish(false));
    gz.on('error', () => finish(false));
    gz.end(body);
  });
}

/**
 * Element matching: an opening tag, then the text up to the first closing tag, leftmost
 * first, as `/<(?:[\w-]+:)?url\b[^>]*>([\s\S]*?)<\/(?:[\w-]+:)?url>/g` would find them.
 * Scanned by hand, because such a regex restarts at every `<url` and scans to the end of
 * the text when nothing closes it: quadratic on a sitemap of unclosed blocks.
 */
interface ElementPattern {
  /** The opening tag's name part, global; when `attributes`, the tag runs on to the first `>`. */
  open: RegExp;
  attributes: boolean;
  /** The closing tag, global. */
  close: RegExp;
}

const BLOCK: Record<'index' | 'urlset', ElementPattern> = {
  index: { open: /<(?:[\w-]+:)?sitemap\b/g, attributes: true, close: /<\/(?:[\w-]+:)?sitemap>/g },
  urlset: { open: /<(?:[\w-]+:)?url\b/g, attributes: true, close: /<\/(?:[\w-]+:)?url>/g },
};
/** `<loc>` of the entry itself, not of image/video/news extensions inside it. */
const LOC: ElementPattern = { open: /<((?:[\w-]+:)?)loc>/g, attributes: false, close: /<\/(?:[\w-]+:)?loc>/g };
const LASTMOD: ElementPattern = { open: /<(?:[\w-]+:)?lastmod>/g, attributes: false, close: /<\/(?:[\w-]+:)?lastmod>/g };
const EXTENSION_PREFIXES = new Set(['image:', 'video:', 'news:', 'xhtml:']);

interface FoundElement {
  /** The opening tag's match (its groups, e.g. the namespace prefix). */
  open: RegExpExecArray;
  inner: string;
}

/** Every element of the pattern in `text`, in order; each character is scanned a bounded number of times. */
function* elementsOf(text: string, pattern: ElementPattern): Generator<FoundElement> {
  let from = 0;
  for (;;) {
    pattern.open.lastIndex = from;
    const open = pattern.open.exec(text);
    if (!open) return;
    let innerStart = open.index + open[0].length;
    if (pattern.attributes) {
      const gt = text.indexOf('>', innerStart);
      // No `>` left: no later tag can open either.
      if (gt < 0) return;
      innerStart = gt + 1;
    }
    pattern.close.lastIndex = innerStart;
    const close = pattern.close.exec(text);
    // No closing tag left: no later element can close either.
    if (!close) return;
    yield { open, inner: text.slice(innerStart, close.index) };
    from = close.index + close[0].length;
  }
}

function firstElement(text: string, pattern: ElementPattern): FoundElement | null {
  for (const element of elementsOf(text, pattern)) return element;
  return null;
}

export function parseSitemap(text: string): ParsedSitemap {
  const head = text.slice(0, 4096);
  const isIndex =
    /<(?:[\w-]+:)?sitemapindex[\s>]/.test(head) || (!/<(?:[\w-]+:)?urlset[\s>]/.test(head) && /<(?:[\w-]+:)?sitemapindex[\s>]/.test(text));
  const isXml = isIndex || /<(?:[\w-]+:)?urlset[\s>]/.test(text.slice(0, 65536)) || /^\s*<\?xml/.test(head);
  if (!isXml) return { kind: 'text', entries: textEntries(text) };
  const entries: SitemapEntry[] = [];
  for (const { inner } of elementsOf(text, isIndex ? BLOCK.index : BLOCK.urlset)) {
    const loc = firstLoc(inner);
    if (loc === null) continue;
    const lastmod = firstElement(inner, LASTMOD)?.inner;
    entries.push(lastmod ? { loc, lastmod: xmlText(lastmod) } : { loc });
  }
  return { kind: isIndex ? 'index' : 'urlset', entries };
}

function firstLoc(inner: string): string | null {
  for (const { open, inner: raw } of elementsOf(inner, LOC)) {
    if (EXTENSION_PREFIXES.has((open[1] ?? '').toLowerCase())) continue;
    const loc = xmlText(raw);
    return loc === '' ? null : loc;
  }
  return null;
}

/** Element text: CDATA unwrapped, the five XML entities and numeric references decoded, trimmed. */
export function xmlText(raw: string): string {
  const cdata = /^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/.exec(raw);
  const text = cdata ? (cdata[1] ?? '') : raw;
  return text
    .replace(/&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|(amp|lt|gt|quot|apos));/gi, (whole, dec?: string, hex?: string, name?: string) => {
      if (dec) return safeChar(Number(dec), whole);
      if (hex) return safeChar(Number.parseInt(hex, 16), whole);
      return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[(name ?? '').toLowerCase() as 'amp'] ?? whole;
    })
    .trim();
}

function safeChar(code: number, fallback: string): string {
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : fallback;
}

/** A plain-text sitemap: one absolute URL per line. */
function textEntries(text: string): SitemapEntry[] {
  const out: SitemapEntry[] = [];
  for (const line of text.split(/\r?\n/)) {
    const t = line.trim();
    if (/^https?:\/\/\S+$/i.test(t)) out.push({ loc: t });
  }
  return out;
}
