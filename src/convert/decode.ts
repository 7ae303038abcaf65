/**
 * Body bytes → text (DESIGN §5): BOM, then the HTTP header's charset, then
 * `<meta charset>` / `http-equiv` / XML declaration in the first 64 KB, then detection.
 * Labels are WHATWG encoding labels, decoded with TextDecoder (full ICU). Pure.
 */
export interface DecodedText {
  text: string;
  /** WHATWG encoding name actually used (e.g. `utf-8`, `shift_jis`, `windows-1251`). */
  charset: string;
  /** True when no BOM, header or meta declared the charset and it was guessed. */
  guessed: boolean;
}

/** How far into the body `<meta>` declarations are looked for. */
export const META_SCAN_BYTES = 64 * 1024;
/** How much of the body the detector samples; enough for a stable guess, cheap on 10 MB. */
const DETECT_SAMPLE_BYTES = 256 * 1024;

export function decodeBody(body: Buffer, contentTypeHeader?: string | null): DecodedText {
  const bom = sniffBom(body);
  if (bom) return { text: decodeWith(bom.charset, body.subarray(bom.length)), charset: bom.charset, guessed: false };

  const fromHeader = resolveLabel(charsetParam(contentTypeHeader));
  if (fromHeader) return { text: decodeWith(fromHeader, body), charset: fromHeader, guessed: false };

  const fromMeta = resolveMetaLabel(prescanMeta(body));
  if (fromMeta) return { text: decodeWith(fromMeta, body), charset: fromMeta, guessed: false };

  const detected = detectCharset(body.subarray(0, DETECT_SAMPLE_BYTES));
  return { text: decodeWith(detected.charset, body), charset: detected.charset, guessed: detected.guessed };
}

/** Canonical WHATWG encoding name for a label, or null when unknown. */
export function resolveLabel(label: string | null | undefined): string | null {
  if (!label) return null;
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return null;
  }
}

/** A meta-declared UTF-16 means UTF-8 (the bytes were read as ASCII to find it); x-user-defined → windows-1252. */
function resolveMetaLabel(label: string | null): string | null {
  const enc = resolveLabel(label);
  if (enc === 'utf-16le' || enc === 'utf-16be') return 'utf-8';
  if (enc === 'x-user-defined') return 'windows-1252';
  return enc;
}

function decodeWith(charset: string, bytes: Uint8Array): string {
  if (charset === 'windows-1252') return decodeWindows1252(bytes);
  return new TextDecoder(charset, { ignoreBOM: true }).decode(bytes);
}

/** windows-1252 for 0x80–0x9F (WHATWG index); undefined slots map to the C1 control, as WHATWG says. */
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/**
 * Node 20's TextDecoder drops bytes 0x80–0x9F for windows-1252 (and its labels latin1,
 * iso-8859-1, ascii…), losing curly quotes and dashes; decode it by hand.
 */
export function decodeWindows1252(bytes: Uint8Array): string {
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return latin1.replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80] ?? c);
}

function sniffBom(b: Buffer): { charset: string; length: number } | null {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return { charset: 'utf-8', length: 3 };
  if (b[0] === 0xfe && b[1] === 0xff) return { charset: 'utf-16be', length: 2 };
  if (b[0] === 0xff && b[1] === 0xfe) return { charset: 'utf-16le', length: 2 };
  return null;
}

/** `charset` parameter of a Content-Type value (quoted or not). */
export function charsetParam(contentType: string | null | undefined): string | null {
  if (!contentType) return null;
  const m = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType);
  const v = (m?.[1] ?? m?.[2] ?? '').trim();
  return v === '' ? null : v;
}

/** The charset declared by `<meta charset>`, `<meta http-equiv=content-type>` or `<?xml encoding>`. */
export function prescanMeta(body: Buffer): string | null {
  const head = body.subarray(0, META_SCAN_BYTES).toString('latin1');
  const xml = /^\s*<\?xml\s[^>]*encoding\s*=\s*["']([^"']+)["']/i.exec(head);
  if (xml?.[1]) return xml[1];
  const text = head.replace(/<!--[\s\S]*?(?:-->|$)/g, ' ');
  const metaTag = /<meta\b([^>]*)>?/gi;
  for (let m = metaTag.exec(text); m; m = metaTag.exec(text)) {
    const attrs = parseAttributes(m[1] ?? '');
    const direct = attrs.get('charset');
    if (direct) return direct;
    if (attrs.get('http-equiv')?.toLowerCase() === 'content-type') {
      const fromContent = /charset\s*=\s*["']?([^"';\s]+)/i.exec(attrs.get('content') ?? '')?.[1];
      if (fromContent) return fromContent;
    }
  }
  return null;
}

function parseAttributes(src: string): Map<string, string> {
  const attrs = new Map<string, string>();
  const re = /([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
  for (let m = re.exec(src); m; m = re.exec(src)) {
    const name = (m[1] ?? '').toLowerCase();
    if (!attrs.has(name)) attrs.set(name, (m[2] ?? m[3] ?? m[4] ?? '').trim());
  }
  return attrs;
}

/**
 * Guesses an encoding: pure ASCII and valid UTF-8 first, then the East Asian multi-byte
 * encodings judged by how much of the decoded text falls in their script, then Cyrillic
 * single-byte encodings, else windows-1252 (what browsers fall back to).
 */
export function detectCharset(sample: Uint8Array): { charset: string; guessed: boolean } {
  let high = 0;
  let zeros = 0;
  for (const byte of sample) {
    if (byte >= 0x80) high++;
    else if (byte === 0) zeros++;
  }
  if (zeros > sample.length / 4) return { charset: utf16Order(sample), guessed: true };
  if (high === 0) return { charset: 'utf-8', guessed: false };
  if (decodesCleanly('utf-8', sample)) return { charset: 'utf-8', guessed: true };

  const ja = best(['shift_jis', 'euc-jp'], sample, isKana);
  if (ja && ja.ratio >= 0.2) return { charset: ja.charset, guessed: true };
  const ko = best(['euc-kr'], sample, isHangul);
  if (ko && ko.ratio >= 0.7) return { charset: ko.charset, guessed: true };
  const zh = best(['gb18030', 'big5'], sample, isHan);
  if (zh && zh.ratio >= 0.6) return { charset: zh.charset, guessed: true };

  // Cyrillic words are runs of high bytes; Latin-1 accents sit alone between ASCII letters
  if (highRunShare(sample) >= 0.5) {
    const lower1251 = scriptRatio(decodeWith('windows-1251', sample), isLowerCyrillic);
    const lowerKoi = scriptRatio(decodeWith('koi8-r', sample), isLowerCyrillic);
    return { charset: lowerKoi > lower1251 ? 'koi8-r' : 'windows-1251', guessed: true };
  }
  return { charset: 'windows-1252', guessed: true };
}

/** Share of high bytes (≥ 0x80) that have a high-byte neighbour. */
function highRunShare(sample: Uint8Array): number {
  let high = 0;
  let inRun = 0;
  for (let i = 0; i < sample.length; i++) {
    if ((sample[i] ?? 0) < 0x80) continue;
    high++;
    if ((sample[i - 1] ?? 0) >= 0x80 || (sample[i + 1] ?? 0) >= 0x80) inRun++;
  }
  return high === 0 ? 0 : inRun / high;
}

function utf16Order(sample: Uint8Array): string {
  let evenZeros = 0;
  for (let i = 0; i < sample.length; i += 2) if (sample[i] === 0) evenZeros++;
  return evenZeros > sample.length / 4 ? 'utf-16be' : 'utf-16le';
}

function decodesCleanly(charset: string, sample: Uint8Array): boolean {
  try {
    // stream: true tolerates a multi-byte sequence cut at the end of the sample
    new TextDecoder(charset, { fatal: true }).decode(sample, { stream: true });
    return true;
  } catch {
    return false;
  }
}

function best(charsets: string[], sample: Uint8Array, inScript: (cp: number) => boolean): { charset: string; ratio: number } | null {
  let winner: { charset: string; ratio: number } | null = null;
  for (const charset of charsets) {
    if (!decodesCleanly(charset, sample)) continue;
    const ratio = scriptRatio(new TextDecoder(charset).decode(sample, { stream: true }), inScript);
    if (!winner || ratio > winner.ratio) winner = { charset, ratio };
  }
  return winner;
}

/** Share of non-ASCII, non-punctuation characters for which `inScript` holds. */
function scriptRatio(text: string, inScript: (cp: number) => boolean): number {
  let total = 0;
  let hits = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp < 0x80 || (cp >= 0x3000 && cp <= 0x303f) || (cp >= 0xff00 && cp <= 0xff65)) continue;
    total++;
    if (inScript(cp)) hits++;
  }
  return total === 0 ? 0 : hits / total;
}

const isKana = (cp: number): boolean => cp >= 0x3040 && cp <= 0x30ff;
const isHangul = (cp: number): boolean => (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0x3130 && cp <= 0x318f);
const isHan = (cp: number): boolean => cp >= 0x4e00 && cp <= 0x9fff;
const isLowerCyrillic = (cp: number): boolean => cp >= 0x0430 && cp <= 0x045f;
