/**
 * Chooses the converter for a response: the declared Content-Type, checked against
 * sniffing so a mislabelled body is still read correctly. Binary formats we do not read
 * (images, audio, video, archives, fonts, office files) → UNSUPPORTED_TYPE naming the type.
 */
import { ServiceError } from '../../errors.js';
import { urlExtension } from '../markdown.js';
import type { Sniffed } from './sniff.js';
import { sniffContent } from './sniff.js';

export type Format = 'html' | 'pdf' | 'json' | 'csv' | 'tsv' | 'xml' | 'markdown' | 'text';

export interface FormatChoice {
  format: Format;
  /** Media type reported as metadata.content_type. */
  mediaType: string;
  /** Set when the declared type was overruled by what the body is. */
  mismatch: string | null;
}

const UNSUPPORTED_PREFIXES = [
  'image/',
  'audio/',
  'video/',
  'font/',
  'model/',
  'application/font-',
  'application/vnd.ms-',
  'application/vnd.openxmlformats',
  'application/vnd.oasis.opendocument',
  'application/x-font',
];
const UNSUPPORTED_TYPES = new Set([
  'application/zip',
  'application/gzip',
  'application/x-gzip',
  'application/x-tar',
  'application/x-7z-compressed',
  'application/x-rar-compressed',
  'application/vnd.rar',
  'application/x-bzip2',
  'application/x-xz',
  'application/zstd',
  'application/wasm',
  'application/x-executable',
  'application/x-msdownload',
  'application/java-archive',
  'application/msword',
  'application/x-shockwave-flash',
  'application/epub+zip',
  'application/x-iso9660-image',
  'application/vnd.android.package-archive',
  'application/x-apple-diskimage',
  'application/x-sqlite3',
  'application/rtf',
]);
const JSON_TYPES = new Set([
  'application/json',
  'text/json',
  'application/ld+json',
  'application/manifest+json',
  'application/geo+json',
  'application/problem+json',
  'application/x-ndjson',
  'application/schema+json',
]);
const CSV_TYPES = new Set(['text/csv', 'application/csv', 'text/comma-separated-values', 'text/x-csv', 'application/vnd.ms-excel.csv']);
const TSV_TYPES = new Set(['text/tab-separated-values', 'text/tsv']);
const XML_TYPES = new Set([
  'application/xml',
  'text/xml',
  'application/rss+xml',
  'application/atom+xml',
  'application/rdf+xml',
  'application/xslt+xml',
]);
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const MARKDOWN_TYPES = new Set(['text/markdown', 'text/x-markdown']);
const GENERIC_TYPES = new Set([
  'application/octet-stream',
  'binary/octet-stream',
  'application/unknown',
  'application/x-download',
  'application/force-download',
]);
const EXTENSION_FORMATS: Record<string, Format> = {
  csv: 'csv',
  tsv: 'tsv',
  tab: 'tsv',
  json: 'json',
  geojson: 'json',
  xml: 'xml',
  rss: 'xml',
  atom: 'xml',
  md: 'markdown',
  markdown: 'markdown',
};
const FORMAT_TYPES: Record<Format, string> = {
  html: 'text/html',
  pdf: 'application/pdf',
  json: 'application/json',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  xml: 'application/xml',
  markdown: 'text/markdown',
  text: 'text/plain',
};

export function pickFormat(contentType: string | null, body: Buffer, url: string): FormatChoice {
  const declared = contentType?.trim().toLowerCase() || null;
  const sniffed = sniffContent(body);
  const fromSniff = (format: Format): FormatChoice => ({
    format,
    mediaType: format === 'html' || format === 'xml' ? sniffed.type : FORMAT_TYPES[format],
    mismatch: declared && !GENERIC_TYPES.has(declared) ? `served as ${declared} but the body is ${sniffed.type}` : null,
  });
  const asDeclared = (format: Format): FormatChoice => ({ format, mediaType: declared ?? FORMAT_TYPES[format], mismatch: null });

  if (sniffed.kind === 'pdf') return declared === 'application/pdf' ? asDeclared('pdf') : fromSniff('pdf');
  if (sniffed.kind === 'binary') throw unsupported(sniffed.type, declared);
  if (declared === 'image/svg+xml' || (sniffed.kind === 'xml' && startsAsSvg(head(body)))) {
    throw unsupported('image/svg+xml', declared);
  }
  if (declared === null || GENERIC_TYPES.has(declared)) return byContent(sniffed.kind, url, fromSniff, declared);
  if (isUnsupportedType(declared)) {
    if (sniffed.kind === 'text') throw unsupported(declared, null);
    return fromSniff(sniffed.kind);
  }
  if (declared === 'application/pdf') return byContent(sniffed.kind, url, fromSniff, declared);
  if (HTML_TYPES.has(declared)) {
    if (sniffed.kind === 'json' && parsesAsJson(body)) return fromSniff('json');
    if (sniffed.kind === 'xml' && /<(rss|feed|urlset|sitemapindex|rdf:rdf)[\s>]/i.test(head(body))) return fromSniff('xml');
    return asDeclared('html');
  }
  if (JSON_TYPES.has(declared) || declared.endsWith('+json')) return sniffed.kind === 'html' ? fromSniff('html') : asDeclared('json');
  if (CSV_TYPES.has(declared)) return sniffed.kind === 'html' ? fromSniff('html') : asDeclared('csv');
  if (TSV_TYPES.has(declared)) return sniffed.kind === 'html' ? fromSniff('html') : asDeclared('tsv');
  if (XML_TYPES.has(declared) || declared.endsWith('+xml')) {
    if (sniffed.kind !== 'html') return asDeclared('xml');
    // XHTML is XML: no mismatch to report.
    return sniffed.type === 'application/xhtml+xml' ? { format: 'html', mediaType: sniffed.type, mismatch: null } : fromSniff('html');
  }
  if (MARKDOWN_TYPES.has(declared)) return asDeclared('markdown');
  if (declared === 'text/plain') {
    const byExtension = EXTENSION_FORMATS[urlExtension(url)];
    if (byExtension && (byExtension !== 'json' || sniffed.kind === 'json')) return asPlainAs(byExtension);
    if (sniffed.kind === 'json' && parsesAsJson(body)) return fromSniff('json');
    if (sniffed.kind === 'html' || sniffed.kind === 'xml') return fromSniff(sniffed.kind);
    return asDeclared('text');
  }
  if (sniffed.kind === 'html' || sniffed.kind === 'xml' || (sniffed.kind === 'json' && parsesAsJson(body))) return fromSniff(sniffed.kind);
  // text/* and textual application/* types (javascript, yaml, sql…): shown as text.
  return asDeclared('text');
}

/** text/plain with a telling URL extension (raw files on code hosts are served so). */
function asPlainAs(format: Format): FormatChoice {
  return { format, mediaType: FORMAT_TYPES[format], mismatch: null };
}

function byContent(
  kind: Exclude<Sniffed['kind'], 'pdf' | 'binary'>,
  url: string,
  fromSniff: (f: Format) => FormatChoice,
  declared: string | null,
): FormatChoice {
  if (kind !== 'text') return fromSniff(kind);
  const byExtension = EXTENSION_FORMATS[urlExtension(url)];
  const choice = fromSniff(byExtension && byExtension !== 'json' ? byExtension : 'text');
  return declared === 'application/pdf' ? { ...choice, mismatch: `served as ${declared} but the body is text` } : choice;
}

function isUnsupportedType(type: string): boolean {
  return UNSUPPORTED_TYPES.has(type) || UNSUPPORTED_PREFIXES.some((p) => type.startsWith(p));
}

function unsupported(detected: string, declared: string | null): ServiceError {
  const served = declared && declared !== detected ? ` (served as ${declared})` : '';
  return new ServiceError('UNSUPPORTED_TYPE', `content type ${detected}${served} is not supported`, { detected_type: detected });
}

const SPACES = /\s*/y;
const XML_DECLARATION = /<\?xml[^>]*>/iy;
const SVG_DOCTYPE = /<!doctype svg[^>]*>/iy;
const SVG_ROOT = /<svg[\s>]/iy;

/**
 * Whether the text is an SVG document: optional XML declaration, comments and SVG doctype,
 * then `<svg`. A scanner with anchored (sticky) regexes, one attempt each, so it is linear:
 * the single regex it replaces backtracked exponentially on `<?xml?>` + `<!---->` × 30.
 */
export function startsAsSvg(text: string): boolean {
  let at = skip(SPACES, text, 0);
  const afterDeclaration = skip(XML_DECLARATION, text, at);
  if (afterDeclaration >= 0) at = skip(SPACES, text, afterDeclaration);
  while (text.startsWith('<!--', at)) {
    // A comment ends at the first `-->`, as in XML.
    const end = text.indexOf('-->', at + 4);
    if (end < 0) return false;
    at = skip(SPACES, text, end + 3);
  }
  const afterDoctype = skip(SVG_DOCTYPE, text, at);
  if (afterDoctype >= 0) at = skip(SPACES, text, afterDoctype);
  return skip(SVG_ROOT, text, at) >= 0;
}

/** Where a match of the sticky `pattern` at `at` ends, or -1 when it does not match there. */
function skip(pattern: RegExp, text: string, at: number): number {
  pattern.lastIndex = at;
  return pattern.test(text) ? pattern.lastIndex : -1;
}

function head(body: Buffer): string {
  return body.subarray(0, 2048).toString('utf8');
}

function parsesAsJson(body: Buffer): boolean {
  if (body.length > 10 * 1024 * 1024) return false;
  try {
    JSON.parse(body.toString('utf8').replace(/^\uFEFF/, ''));
    return true;
  } catch {
    return false;
  }
}
