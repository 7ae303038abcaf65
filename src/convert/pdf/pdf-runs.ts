/**
 * First phases of PDF layout (see `pdf-layout.ts`): positioned text runs → fragments (runs
 * on one baseline, split at wide gaps, with plain text and inline Markdown), and removal of
 * running headers, footers and page numbers. Also the small numeric helpers the phases share.
 */

export interface PdfTextItem {
  x: number;
  y: number;
  width: number;
  size: number;
  text: string;
  rotated: boolean;
  /** Set in a fixed-pitch font (pdf.js reports the family as `monospace`). */
  mono?: boolean;
}

export interface PdfPage {
  width: number;
  height: number;
  items: PdfTextItem[];
}

/** Same line when baselines differ by less than this share of the font size. */
export const BASELINE_TOLERANCE = 0.4;
/** A horizontal gap wider than this many font sizes splits a line into fragments. */
const FRAGMENT_GAP = 1.2;
/** A gap wider than this share of the font size gets a space when joining runs. */
const WORD_GAP = 0.15;
/** Top/bottom share of a page where running headers and footers live. */
const MARGIN_SHARE = 0.1;
/** Outer band where a line recurring on 3 pages is a running head even if not on half. */
const OUTER_MARGIN_SHARE = 0.08;

export interface Fragment {
  x0: number;
  x1: number;
  y: number;
  size: number;
  /** Plain text. */
  text: string;
  /** Inline Markdown: prose escaped, fixed-pitch runs as code spans. */
  md: string;
  /** Characters set in a fixed-pitch font, and all characters. */
  monoChars: number;
  chars: number;
}

interface RunGroup {
  x0: number;
  x1: number;
  y: number;
  size: number;
  parts: Part[];
}

interface Part {
  text: string;
  mono: boolean;
  space: boolean;
}

/** Groups runs by baseline, sorts each line left to right, and splits it at wide gaps. */
export function buildFragments(items: PdfTextItem[]): Fragment[] {
  const runs = items.filter((it) => !it.rotated && it.size > 0 && it.text.trim().length > 0).sort((a, b) => a.y - b.y || a.x - b.x);
  const rows: PdfTextItem[][] = [];
  for (const run of runs) {
    const row = rows[rows.length - 1];
    const anchor = row?.[0];
    if (row && anchor && Math.abs(run.y - anchor.y) <= BASELINE_TOLERANCE * Math.max(run.size, anchor.size)) row.push(run);
    else rows.push([run]);
  }
  const fragments: Fragment[] = [];
  for (const row of rows) {
    row.sort((a, b) => a.x - b.x);
    let current: RunGroup | null = null;
    const groups: RunGroup[] = [];
    for (const run of row) {
      const gap = current ? run.x - current.x1 : 0;
      if (current && gap <= FRAGMENT_GAP * Math.max(run.size, current.size)) {
        current.parts.push({ text: run.text, mono: run.mono === true, space: gap > WORD_GAP * run.size });
        current.x1 = Math.max(current.x1, run.x + run.width);
        current.size = Math.max(current.size, run.size);
      } else {
        current = {
          x0: run.x,
          x1: run.x + run.width,
          y: run.y,
          size: run.size,
          parts: [{ text: run.text, mono: run.mono === true, space: false }],
        };
        groups.push(current);
      }
    }
    for (const g of groups) fragments.push({ x0: g.x0, x1: g.x1, y: g.y, size: g.size, ...renderParts(g.parts) });
  }
  return fragments;
}

/** Plain text and inline Markdown of a fragment's runs; fixed-pitch runs become code spans. */
function renderParts(parts: Part[]): Pick<Fragment, 'text' | 'md' | 'monoChars' | 'chars'> {
  let text = '';
  let md = '';
  let monoChars = 0;
  let chars = 0;
  let span: string | null = null;
  const closeSpan = (): void => {
    if (span === null) return;
    const code = span.replace(/\s+/g, ' ').trim();
    if (code) {
      const ticks = '`'.repeat((code.match(/`+/g) ?? []).reduce((n, run) => Math.max(n, run.length), 0) + 1);
      const pad = code.startsWith('`') || code.endsWith('`') ? ' ' : '';
      md += `${ticks}${pad}${code}${pad}${ticks}`;
    }
    span = null;
  };
  const isMono = (part: Part | undefined): boolean => part?.mono === true && /[^.\s]/.test(part.text);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as Part;
    const gap = part.space && !text.endsWith(' ') && !part.text.startsWith(' ') ? ' ' : '';
    text += gap + part.text;
    const visible = part.text.replace(/\s/g, '').length;
    chars += visible;
    // Dot leaders and other punctuation-only runs in a fixed-pitch font are not code; a
    // run glued between two fixed-pitch runs (a variable in a code string) stays in the span.
    const next = parts[i + 1];
    const glued = span !== null && !part.space && next !== undefined && !next.space && isMono(next);
    const mono = isMono(part) || glued;
    if (mono && visible > 0) {
      monoChars += visible;
      if (span === null) {
        md += gap;
        span = part.text;
      } else span += gap + part.text;
    } else if (mono && span !== null) span += gap + part.text;
    else {
      closeSpan();
      md += gap + escapeProse(part.text);
    }
  }
  closeSpan();
  return { text: text.replace(/\s+/g, ' ').trim(), md: md.replace(/\s+/g, ' ').trim(), monoChars, chars };
}

/** Escapes what would otherwise turn prose into Markdown or HTML. Intraword `_` stays. */
export function escapeProse(text: string): string {
  return (
    text
      .replace(/([\\`*])/g, '\\$1')
      // Brackets only make a link when `](` follows; reference definitions are caught at block start.
      .replace(/\]\(/g, ']\\(')
      .replace(/<(?=[A-Za-z/!?])/g, '\\<')
      .replace(/_+/g, (run, at: number, all: string) => (atWordEdge(all, at, at + run.length) ? run.replace(/_/g, '\\_') : run))
  );
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** A run of `_` from `start` to `end` is escaped unless letters or digits sit on both sides (intraword). */
function atWordEdge(text: string, start: number, end: number): boolean {
  const before = start === 0 ? '' : String.fromCodePoint(codePointBefore(text, start));
  const after = end === text.length ? '' : String.fromCodePoint(text.codePointAt(end)!);
  return !WORD_CHAR.test(before) || !WORD_CHAR.test(after);
}

function codePointBefore(text: string, at: number): number {
  const low = text.charCodeAt(at - 1);
  const high = at >= 2 ? text.charCodeAt(at - 2) : 0;
  return low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? text.codePointAt(at - 2)! : low;
}

/**
 * Removes fragments in the top or bottom margin whose text (digits masked) recurs on at
 * least half the pages at about the same height (or on 3 pages, in the outermost band),
 * plus bare page numbers in the margins.
 */
export function dropRunningLines(byPage: Fragment[][], pages: PdfPage[]): Fragment[][] {
  const key = (f: Fragment, height: number): string => `${Math.round((f.y / height) * 50)}|${f.text.replace(/\d+/g, '#').toLowerCase()}`;
  const inMargin = (f: Fragment, height: number): boolean => f.y < height * MARGIN_SHARE || f.y > height * (1 - MARGIN_SHARE);
  const counts = new Map<string, number>();
  byPage.forEach((frs, i) => {
    const height = pages[i]?.height ?? 792;
    for (const k of new Set(frs.filter((f) => inMargin(f, height)).map((f) => key(f, height)))) counts.set(k, (counts.get(k) ?? 0) + 1);
  });
  const minPages = Math.max(3, Math.ceil(byPage.length / 2));
  return byPage.map((frs, i) => {
    const height = pages[i]?.height ?? 792;
    return frs.filter((f) => {
      if (!inMargin(f, height)) return true;
      const repeats = counts.get(key(f, height)) ?? 0;
      if (byPage.length >= 3 && repeats >= minPages) return false;
      // Chapter-wise running heads recur on fewer pages; in the outer band 3 repeats suffice.
      if (repeats >= 3 && (f.y < height * OUTER_MARGIN_SHARE || f.y > height * (1 - OUTER_MARGIN_SHARE))) return false;
      return !/^(page\s*)?\d{1,4}(\s*(of|\/)\s*\d{1,4})?$|^[-–—]\s*\d{1,4}\s*[-–—]$/i.test(f.text);
    });
  });
}

export function roundSize(size: number): number {
  return Math.round(size * 2) / 2;
}

export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

export function minOf(values: number[]): number {
  return values.reduce((a, b) => Math.min(b, a), Infinity);
}

export function maxOf(values: number[]): number {
  return values.reduce((a, b) => Math.max(b, a), -Infinity);
}
