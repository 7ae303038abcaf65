/**
 * Test-only encoder for legacy charsets, built by inverting TextDecoder (Node ships
 * decoders only): single bytes for 8-bit encodings, two-byte sequences for the East
 * Asian ones. Enough for the sample texts in these tests.
 */
import { decodeWindows1252 } from '../../../src/convert/decode.js';

const tables = new Map<string, Map<string, number[]>>();

function table(charset: string): Map<string, number[]> {
  const cached = tables.get(charset);
  if (cached) return cached;
  const map = new Map<string, number[]>();
  const dec = new TextDecoder(charset, { fatal: true });
  const decode = (b: Uint8Array): string => (charset === 'windows-1252' ? decodeWindows1252(b) : dec.decode(b));
  const add = (bytes: number[]): void => {
    try {
      const s = decode(Uint8Array.from(bytes));
      if ([...s].length === 1 && !map.has(s) && s !== '\uFFFD') map.set(s, bytes);
    } catch {
      // not a valid sequence in this charset
    }
  };
  for (let b = 0; b < 0x100; b++) add([b]);
  if (['shift_jis', 'euc-jp', 'euc-kr', 'gb18030', 'gbk', 'big5'].includes(charset)) {
    for (let lead = 0x81; lead <= 0xfe; lead++) for (let trail = 0x40; trail <= 0xfe; trail++) add([lead, trail]);
  }
  tables.set(charset, map);
  return map;
}

export function encodeLegacy(text: string, charset: string): Buffer {
  const map = table(charset);
  const out: number[] = [];
  for (const ch of text) {
    const bytes = map.get(ch);
    if (!bytes) throw new Error(`cannot encode ${JSON.stringify(ch)} in ${charset}`);
    out.push(...bytes);
  }
  return Buffer.from(out);
}
