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

const BLOCK = {
  index: /<(?:[\w-]+:)?sitemap\b[^>]*>([\s\S]*?)<\/(?:[\w-]+:)?sitemap>/g,
  urlset: /<(?:[\w-]+:)?url\b[^>]*>([\s\S]*?)<\/(?:[\w-]+:)?url>/g,
};
/** `<loc>` of the entry itself, not of image/video/news extensions inside it. */
const LOC = /<((?:[\w-]+:)?)loc>([\s\S]*?)<\/(?:[\w-]+:)?loc>/g;
const LASTMOD = /<(?:[\w-]+:)?lastmod>([\s\S]*?)<\/(?:[\w-]+:)?lastmod>/;
const EXTENSION_PREFIXES = new Set(['image:', 'video:', 'news:', 'xhtml:']);

export function parseSitemap(text: string): ParsedSitemap {
  const head = text.slice(0, 4096);
  const isIndex =
    /<(?:[\w-]+:)?sitemapindex[\s>]/.test(head) || (!/<(?:[\w-]+:)?urlset[\s>]/.test(head) && /<(?:[\w-]+:)?sitemapindex[\s>]/.test(text));
  const isXml = isIndex || /<(?:[\w-]+:)?urlset[\s>]/.test(text.slice(0, 65536)) || /^\s*<\?xml/.test(head);
  if (!isXml) return { kind: 'text', entries: textEntries(text) };
  const entries: SitemapEntry[] = [];
  const block = isIndex ? BLOCK.index : BLOCK.urlset;
  block.lastIndex = 0;
  for (let m = block.exec(text); m !== null; m = block.exec(text)) {
    const inner = m[1] ?? '';
    const loc = firstLoc(inner);
    if (loc === null) continue;
    const lastmod = LASTMOD.exec(inner)?.[1];
    entries.push(lastmod ? { loc, lastmod: xmlText(lastmod) } : { loc });
  }
  return { kind: isIndex ? 'index' : 'urlset', entries };
}

function firstLoc(inner: string): string | null {
  LOC.lastIndex = 0;
  for (let m = LOC.exec(inner); m !== null; m = LOC.exec(inner)) {
    if (EXTENSION_PREFIXES.has((m[1] ?? '').toLowerCase())) continue;
    const loc = xmlText(m[2] ?? '');
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
