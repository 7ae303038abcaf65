/**
 * Content sniffing: what the bytes actually are, independent of what the server said.
 * Binary formats are recognised by magic bytes; text formats by their first significant
 * characters. The dispatcher (`pick-format.ts`) weighs this against Content-Type.
 */

/** What sniffing found. `type` is the media type the bytes look like. */
export interface Sniffed {
  kind: 'pdf' | 'html' | 'xml' | 'json' | 'text' | 'binary';
  type: string;
}

/** How many leading bytes sniffing looks at (the WHATWG sniffing spec uses 1445). */
const SNIFF_BYTES = 2048;

/** Magic numbers of formats we recognise only to name them in UNSUPPORTED_TYPE. */
const MAGIC: ReadonlyArray<{ type: string; offset: number; bytes: readonly number[]; weak?: boolean }> = [
  { type: 'image/png', offset: 0, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', offset: 0, bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/gif', offset: 0, bytes: [0x47, 0x49, 0x46, 0x38] },
  { type: 'image/bmp', offset: 0, bytes: [0x42, 0x4d], weak: true },
  { type: 'image/tiff', offset: 0, bytes: [0x49, 0x49, 0x2a, 0x00] },
  { type: 'image/tiff', offset: 0, bytes: [0x4d, 0x4d, 0x00, 0x2a] },
  { type: 'image/x-icon', offset: 0, bytes: [0x00, 0x00, 0x01, 0x00] },
  { type: 'application/zip', offset: 0, bytes: [0x50, 0x4b, 0x03, 0x04] },
  { type: 'application/zip', offset: 0, bytes: [0x50, 0x4b, 0x05, 0x06] },
  { type: 'application/gzip', offset: 0, bytes: [0x1f, 0x8b] },
  { type: 'application/x-bzip2', offset: 0, bytes: [0x42, 0x5a, 0x68] },
  { type: 'application/x-xz', offset: 0, bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00] },
  { type: 'application/zstd', offset: 0, bytes: [0x28, 0xb5, 0x2f, 0xfd] },
  { type: 'application/x-7z-compressed', offset: 0, bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] },
  { type: 'application/vnd.rar', offset: 0, bytes: [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07] },
  { type: 'application/x-tar', offset: 257, bytes: [0x75, 0x73, 0x74, 0x61, 0x72] },
  { type: 'application/x-ole-storage', offset: 0, bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1] },
  { type: 'application/wasm', offset: 0, bytes: [0x00, 0x61, 0x73, 0x6d] },
  { type: 'application/x-executable', offset: 0, bytes: [0x7f, 0x45, 0x4c, 0x46] },
  { type: 'application/x-msdownload', offset: 0, bytes: [0x4d, 0x5a], weak: true },
  { type: 'font/woff', offset: 0, bytes: [0x77, 0x4f, 0x46, 0x46] },
  { type: 'font/woff2', offset: 0, bytes: [0x77, 0x4f, 0x46, 0x32] },
  { type: 'font/otf', offset: 0, bytes: [0x4f, 0x54, 0x54, 0x4f] },
  { type: 'font/ttf', offset: 0, bytes: [0x00, 0x01, 0x00, 0x00, 0x00] },
  { type: 'audio/mpeg', offset: 0, bytes: [0x49, 0x44, 0x33], weak: true },
  { type: 'audio/ogg', offset: 0, bytes: [0x4f, 0x67, 0x67, 0x53] },
  { type: 'audio/flac', offset: 0, bytes: [0x66, 0x4c, 0x61, 0x43] },
  { type: 'video/webm', offset: 0, bytes: [0x1a, 0x45, 0xdf, 0xa3] },
];

export function sniffContent(body: Buffer): Sniffed {
  const head = body.subarray(0, SNIFF_BYTES);
  if (head.includes('%PDF-', 0, 'latin1') && head.indexOf('%PDF-', 0, 'latin1') < 1024) return { kind: 'pdf', type: 'application/pdf' };
  const binary = sniffBinary(head);
  if (binary) return { kind: 'binary', type: binary };
  const text = textHead(head);
  if (text === null) return { kind: 'binary', type: 'application/octet-stream' };
  return sniffText(text);
}

function sniffBinary(head: Buffer): string | null {
  if (startsWith(head, 0, [0x52, 0x49, 0x46, 0x46]) && head.length >= 12) {
    const fourcc = head.toString('latin1', 8, 12);
    return fourcc === 'WEBP'
      ? 'image/webp'
      : fourcc === 'WAVE'
        ? 'audio/wav'
        : fourcc === 'AVI '
          ? 'video/x-msvideo'
          : 'application/octet-stream';
  }
  if (head.length >= 12 && head.toString('latin1', 4, 8) === 'ftyp') {
    const brand = head.toString('latin1', 8, 12);
    if (brand.startsWith('avif')) return 'image/avif';
    if (brand.startsWith('heic') || brand.startsWith('heix') || brand.startsWith('mif1')) return 'image/heic';
    if (brand.startsWith('M4A')) return 'audio/mp4';
    return 'video/mp4';
  }
  for (const magic of MAGIC) {
    if (startsWith(head, magic.offset, magic.bytes)) {
      // Two- or three-byte signatures ("BM", "MZ", "ID3") also start ordinary text.
      if (magic.weak && textHead(head) !== null) continue;
      if (magic.type === 'application/zip') return zipFlavour(head);
      return magic.type;
    }
  }
  if (head.length >= 2 && head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0 && !isUtf16Bom(head)) return 'audio/mpeg';
  return null;
}

/** Office Open XML and OpenDocument files are zip archives; name them when the first entry tells. */
function zipFlavour(head: Buffer): string {
  const text = head.toString('latin1');
  if (text.includes('word/')) return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  if (text.includes('xl/')) return 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  if (text.includes('ppt/')) return 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
  const odf = /mimetypeapplication\/(vnd\.oasis\.opendocument\.[a-z.]+)/.exec(text);
  if (odf?.[1]) return `application/${odf[1]}`;
  if (text.includes('META-INF/')) return 'application/java-archive';
  return 'application/zip';
}

function startsWith(buf: Buffer, offset: number, bytes: readonly number[]): boolean {
  if (buf.length < offset + bytes.length) return false;
  return bytes.every((b, i) => buf[offset + i] === b);
}

function isUtf16Bom(head: Buffer): boolean {
  return (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
}

/**
 * The sniff window as text, or null when it looks binary: NUL bytes or many control
 * characters outside a UTF-16 body. Decoding errors at the window edge are tolerated.
 */
function textHead(head: Buffer): string | null {
  if (isUtf16Bom(head)) {
    const le = head[0] === 0xff;
    const bytes = head.subarray(2, head.length - (head.length % 2));
    return le ? bytes.toString('utf16le') : Buffer.from(bytes).swap16().toString('utf16le');
  }
  const start = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  let control = 0;
  for (let i = start; i < head.length; i++) {
    const b = head[i] ?? 0;
    if (b === 0) return null;
    if (b < 0x09 || (b > 0x0d && b < 0x20 && b !== 0x1b)) control++;
  }
  if (control > Math.max(2, head.length / 50)) return null;
  return head.toString('utf8', start);
}

function sniffText(text: string): Sniffed {
  const t = text.replace(/^\s+/, '');
  const lower = t.slice(0, 1024).toLowerCase();
  if (/^<!doctype html|^<html[\s>]|^<head[\s>]|^<body[\s>]/.test(lower)) return { kind: 'html', type: 'text/html' };
  if (lower.startsWith('<?xml') || /^<(rss|feed|urlset|sitemapindex|rdf:rdf)[\s>]/.test(lower)) {
    if (/<html[\s>]/.test(lower) && /xhtml/.test(lower)) return { kind: 'html', type: 'application/xhtml+xml' };
    return { kind: 'xml', type: 'application/xml' };
  }
  if (lower.startsWith('<!--') || lower.startsWith('<!doctype')) {
    if (/<html[\s>]|<!doctype html/.test(lower)) return { kind: 'html', type: 'text/html' };
  }
  if (/^[{[]/.test(t) && /^[{[]\s*(["{[\]}\d-]|true|false|null)/.test(t)) return { kind: 'json', type: 'application/json' };
  if (/<(html|head|body|div|p|table|script|title)[\s>]/i.test(lower.slice(0, 512)) && lower.startsWith('<')) {
    return { kind: 'html', type: 'text/html' };
  }
  return { kind: 'text', type: 'text/plain' };
}
