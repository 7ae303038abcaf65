/**
 * Reading order and structure from positioned PDF text runs. Phases, per page:
 * `buildFragments` (runs on one baseline, split at wide gaps) → `dropRunningLines`
 * (headers, footers, page numbers repeated across pages) → `findGutters` (empty vertical
 * strips with text on both sides = columns) → `orderLines` (full-width bands in order,
 * each multi-column band column by column) → `buildBlocks` (paragraphs from vertical
 * gaps, size changes, short last lines, bullets) → `renderBlocks` (headings from font
 * size, hyphenation joined, page breaks as `<!-- page N -->`).
 * Coordinates are viewport units: x to the right, y down, y = baseline.
 */
import { fence } from './markdown.js';

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

export interface PdfLayout {
  markdown: string;
  /** Non-space characters of text found; 0 means no text layer. */
  textChars: number;
  /** 1-based numbers of pages without any text. */
  emptyPages: number[];
  firstHeading: string | null;
}

/** Same line when baselines differ by less than this share of the font size. */
const BASELINE_TOLERANCE = 0.4;
/** A horizontal gap wider than this many font sizes splits a line into fragments. */
const FRAGMENT_GAP = 1.2;
/** A gap wider than this share of the font size gets a space when joining runs. */
const WORD_GAP = 0.15;
/** A paragraph breaks where the baseline step exceeds this multiple of normal line spacing. */
const PARAGRAPH_GAP = 1.35;
/** Blocks this much larger than body text are headings. */
const HEADING_RATIO = 1.15;
/** Top/bottom share of a page where running headers and footers live. */
const MARGIN_SHARE = 0.1;
/** Outer band where a line recurring on 3 pages is a running head even if not on half. */
const OUTER_MARGIN_SHARE = 0.08;
/** Chinese, Japanese and Korean lines join without a space. */
const CJK_END = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}、。，．！？：；]$/u;
const CJK_START = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** A table-of-contents line: dot leaders then a page number (arabic or roman). */
const DOT_LEADERS = /(\.\s?){4,}\s*([0-9]{1,4}|[ivxlc]{1,6})$/i;
const DOT_LEADER_RUN = /\s*(\.\s?){4,}\s*/g;
const MD_BULLET = /^\s*\\?([•◦▪▫‣⁃●○■□–—*])\s*/;
const BULLET = /^\s*([•◦▪▫‣⁃●○■□–—*])\s*/;
const NUMBERED = /^\s*(\(?\d{1,3}[.)]|\(?[a-z][.)])\s+\S/;

interface Fragment {
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

interface Line extends Fragment {
  page: number;
  column: number;
}

interface Block {
  page: number;
  lines: Line[];
  size: number;
  kind: 'paragraph' | 'bullet' | 'numbered' | 'code';
}

export function layoutPdf(pages: PdfPage[]): PdfLayout {
  const fragmentsByPage = pages.map((page) => buildFragments(page.items));
  const textChars = fragmentsByPage.reduce((n, frs) => n + frs.reduce((m, f) => m + f.text.replace(/\s/g, '').length, 0), 0);
  const emptyPages = fragmentsByPage.flatMap((frs, i) => (frs.length === 0 ? [i + 1] : []));
  const kept = dropRunningLines(fragmentsByPage, pages);
  const lines = kept.flatMap((frs, i) => orderLines(frs, i + 1, findGutters(frs)));
  const bodySize = dominantSize(lines);
  const spacing = lineSpacing(lines);
  const blocks = buildBlocks(lines, bodySize, spacing);
  const headingLevels = headingLevelsBySize(blocks, bodySize);
  const { markdown, firstHeading } = renderBlocks(blocks, headingLevels);
  return { markdown, textChars, emptyPages, firstHeading };
}

/** Groups runs by baseline, sorts each line left to right, and splits it at wide gaps. */
function buildFragments(items: PdfTextItem[]): Fragment[] {
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
        current = { x0: run.x, x1: run.x + run.width, y: run.y, size: run.size, parts: [{ text: run.text, mono: run.mono === true, space: false }] };
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
  for (const part of parts) {
    const gap = part.space && !text.endsWith(' ') && !part.text.startsWith(' ') ? ' ' : '';
    text += gap + part.text;
    const visible = part.text.replace(/\s/g, '').length;
    chars += visible;
    // Dot leaders and other punctuation-only runs in a fixed-pitch font are not code.
    const mono = part.mono && /[^.\s]/.test(part.text);
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
function escapeProse(text: string): string {
  return text
    .replace(/([\\`*])/g, '\\$1')
    // Brackets only make a link when `](` follows; reference definitions are caught at block start.
    .replace(/\]\(/g, ']\\(')
    .replace(/<(?=[A-Za-z/!?])/g, '\\<')
    .replace(/(^|[^\p{L}\p{N}_])(_+)|(_+)(?=$|[^\p{L}\p{N}_])/gu, (m) => m.replace(/_/g, '\\_'));
}

/**
 * Removes fragments in the top or bottom margin whose text (digits masked) recurs on at
 * least half the pages at about the same height (or on 3 pages, in the outermost band),
 * plus bare page numbers in the margins.
 */
function dropRunningLines(byPage: Fragment[][], pages: PdfPage[]): Fragment[][] {
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

interface Gutter {
  start: number;
  end: number;
}

/**
 * Column gutters: x-intervals no narrow fragment crosses, with enough text on both sides
 * that overlaps vertically. Wide fragments (titles, abstracts) are ignored here; they
 * become full-width bands in `orderLines`.
 */
function findGutters(fragments: Fragment[]): Gutter[] {
  if (fragments.length < 6) return [];
  const minX = minOf(fragments.map((f) => f.x0));
  const maxX = maxOf(fragments.map((f) => f.x1));
  const width = maxX - minX;
  const narrow = fragments.filter((f) => f.x1 - f.x0 < 0.6 * width).sort((a, b) => a.x0 - b.x0);
  if (narrow.length < 6) return [];
  const size = median(narrow.map((f) => f.size));
  // Coverage per 1-unit bin (difference array); a gutter may be crossed by a few stray
  // narrow fragments (a centred author line), which then read as full-width bands.
  const bins = Math.ceil(width) + 2;
  const delta = new Int32Array(bins + 1);
  for (const f of narrow) {
    delta[Math.max(0, Math.floor(f.x0 - minX))]! += 1;
    delta[Math.min(bins, Math.ceil(f.x1 - minX))]! -= 1;
  }
  const allowed = Math.max(1, Math.floor(narrow.length * 0.03));
  const gaps: Gutter[] = [];
  let coverage = 0;
  let runStart = -1;
  for (let b = 0; b < bins; b++) {
    coverage += delta[b] ?? 0;
    if (coverage <= allowed) {
      if (runStart < 0) runStart = b;
    } else if (runStart >= 0) {
      if (b - runStart >= Math.max(0.8 * size, 6) && runStart > 0) gaps.push({ start: minX + runStart, end: minX + b });
      runStart = -1;
    }
  }
  return gaps.filter((g) => {
    const left = narrow.filter((f) => f.x1 <= g.start);
    const right = narrow.filter((f) => f.x0 >= g.end);
    const spanning = fragments.filter((f) => f.x0 < g.start && f.x1 > g.end).length;
    if (left.length < 3 || right.length < 3 || spanning > fragments.length * 0.4) return false;
    if (Math.min(left.length, right.length) < narrow.length * 0.15) return false;
    const top = Math.max(minOf(left.map((f) => f.y)), minOf(right.map((f) => f.y)));
    const bottom = Math.min(maxOf(left.map((f) => f.y)), maxOf(right.map((f) => f.y)));
    return bottom - top > 3 * size;
  });
}

/**
 * Reading order: fragments sorted top-down; a fragment crossing a gutter closes the
 * current band. A band is emitted column by column, each top-down; fragments on one
 * baseline inside a column merge into one line.
 */
function orderLines(fragments: Fragment[], page: number, gutters: Gutter[]): Line[] {
  const sorted = [...fragments].sort((a, b) => a.y - b.y || a.x0 - b.x0);
  const columnOf = (f: Fragment): number => gutters.filter((g) => (f.x0 + f.x1) / 2 > g.end).length;
  const spans = (f: Fragment): boolean => gutters.some((g) => f.x0 < g.start && f.x1 > g.end);
  const out: Line[] = [];
  let band: Fragment[] = [];
  const flush = (): void => {
    for (let col = 0; col <= gutters.length; col++) {
      out.push(...mergeBaselines(band.filter((f) => columnOf(f) === col), page, col));
    }
    band = [];
  };
  for (const f of sorted) {
    if (gutters.length > 0 && spans(f)) {
      flush();
      out.push({ ...f, page, column: -1 });
    } else band.push(f);
  }
  flush();
  return out;
}

function mergeBaselines(fragments: Fragment[], page: number, column: number): Line[] {
  const lines: Line[] = [];
  for (const f of fragments) {
    const last = lines[lines.length - 1];
    if (last && Math.abs(f.y - last.y) <= BASELINE_TOLERANCE * Math.max(f.size, last.size)) {
      last.text += ` ${f.text}`;
      last.md += ` ${f.md}`;
      last.monoChars += f.monoChars;
      last.chars += f.chars;
      last.x0 = Math.min(last.x0, f.x0);
      last.x1 = Math.max(last.x1, f.x1);
      last.size = Math.max(last.size, f.size);
    } else lines.push({ ...f, page, column });
  }
  return lines;
}

/** The font size carrying the most characters: body text. */
function dominantSize(lines: Line[]): number {
  const weight = new Map<number, number>();
  for (const l of lines) weight.set(roundSize(l.size), (weight.get(roundSize(l.size)) ?? 0) + l.text.length);
  let best = 10;
  let most = -1;
  for (const [size, w] of weight) if (w > most) [best, most] = [size, w];
  return best;
}

/** Typical baseline step between consecutive lines of one column and size, per size. */
function lineSpacing(lines: Line[]): Map<number, number> {
  const steps = new Map<number, number[]>();
  for (let i = 1; i < lines.length; i++) {
    const a = lines[i - 1] as Line;
    const b = lines[i] as Line;
    if (a.page !== b.page || a.column !== b.column || roundSize(a.size) !== roundSize(b.size)) continue;
    const step = b.y - a.y;
    if (step > 0 && step < 3 * b.size) {
      const list = steps.get(roundSize(b.size)) ?? [];
      list.push(step);
      steps.set(roundSize(b.size), list);
    }
  }
  // Lower median: paragraph gaps are the outliers and must not drag the norm up.
  return new Map([...steps].map(([size, list]) => [size, [...list].sort((a, b) => a - b)[Math.floor((list.length - 1) / 2)] as number]));
}

function buildBlocks(lines: Line[], bodySize: number, spacing: Map<number, number>): Block[] {
  const blocks: Block[] = [];
  let block: Block | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as Line;
    if (isCode(line) && !inlineCodeLine(block, line, lines[i + 1], spacing)) {
      // Fixed-pitch lines form a code block; code is often set with looser line spacing.
      const prev = block?.lines[block.lines.length - 1];
      const continues = block?.kind === 'code' && prev && prev.page === line.page && prev.column === line.column && line.y > prev.y && line.y - prev.y <= 3 * line.size;
      if (block && continues) block.lines.push(line);
      else {
        block = { page: line.page, lines: [line], size: line.size, kind: 'code' };
        blocks.push(block);
      }
      continue;
    }
    const bullet = BULLET.test(line.text);
    const numbered = !bullet && NUMBERED.test(line.text) && roundSize(line.size) <= bodySize * HEADING_RATIO;
    if (!block || block.kind === 'code' || startsNewBlock(block, line, bodySize, spacing) || bullet || numbered) {
      block = { page: line.page, lines: [line], size: line.size, kind: bullet ? 'bullet' : numbered ? 'numbered' : 'paragraph' };
      blocks.push(block);
    } else block.lines.push(line);
  }
  return blocks;
}

function isCode(line: Line): boolean {
  return line.chars > 0 && line.monoChars / line.chars >= 0.9;
}

/** A lone fixed-pitch line running on inside a prose paragraph (a long path, say) is prose. */
function inlineCodeLine(block: Block | null, line: Line, next: Line | undefined, spacing: Map<number, number>): boolean {
  if (!block || block.kind === 'code' || (next && isCode(next))) return false;
  const prev = block.lines[block.lines.length - 1] as Line;
  const normal = spacing.get(roundSize(prev.size)) ?? prev.size * 1.2;
  return prev.page === line.page && prev.column === line.column && line.y > prev.y && line.y - prev.y <= PARAGRAPH_GAP * normal && !/:$/.test(prev.text);
}

function startsNewBlock(block: Block, line: Line, bodySize: number, spacing: Map<number, number>): boolean {
  const prev = block.lines[block.lines.length - 1] as Line;
  if (line.page !== prev.page) {
    // A sentence running over a page break continues the paragraph (the page marker follows it).
    const continues = line.page === prev.page + 1 && block.kind !== 'code' && roundSize(line.size) === roundSize(prev.size) && roundSize(line.size) < bodySize * HEADING_RATIO;
    return !(continues && !/[.!?:"”)]$/.test(prev.text) && /^\p{Ll}/u.test(line.text));
  }
  // Table-of-contents entries (dot leaders, then a page number) each stand alone.
  if (DOT_LEADERS.test(prev.text)) return true;
  if (Math.abs(roundSize(line.size) - roundSize(block.size)) > 0.5) return true;
  const heading = roundSize(block.size) >= bodySize * HEADING_RATIO;
  if (line.column !== prev.column && line.y < prev.y) {
    // A paragraph running from the foot of one column to the head of the next continues.
    return heading || /[.!?:"”)]$/.test(prev.text);
  }
  const step = line.y - prev.y;
  const normal = spacing.get(roundSize(line.size)) ?? line.size * 1.2;
  if (step <= 0 || step > PARAGRAPH_GAP * normal) return true;
  if (heading) return false;
  const right = maxOf(block.lines.map((l) => l.x1));
  const shortLast = block.lines.length > 1 && prev.x1 < right - 4 * line.size && /[.!?:"”)]$/.test(prev.text);
  const indented = line.x0 > prev.x0 + 1.5 * line.size && block.kind === 'paragraph';
  return shortLast || indented;
}

/** Distinct sizes above body size, largest first → levels 1..6 (capped at 6). */
function headingLevelsBySize(blocks: Block[], bodySize: number): Map<number, number> {
  const sizes = new Set<number>();
  for (const b of blocks) {
    const text = blockText(b, 'text');
    if (b.kind !== 'code' && !DOT_LEADERS.test(text) && roundSize(b.size) >= bodySize * HEADING_RATIO && b.lines.length <= 4 && text.length <= 200 && /\p{L}/u.test(text)) sizes.add(roundSize(b.size));
  }
  const sorted = [...sizes].sort((a, b) => b - a);
  return new Map(sorted.map((s, i) => [s, Math.min(6, i + 1)]));
}

function renderBlocks(blocks: Block[], levels: Map<number, number>): { markdown: string; firstHeading: string | null } {
  const out: string[] = [];
  let page = 1;
  let firstHeading: string | null = null;
  for (const block of blocks) {
    while (page < block.page) out.push(`<!-- page ${++page} -->`);
    if (block.kind === 'code') {
      out.push(renderCode(block).trimEnd());
      continue;
    }
    const text = blockText(block, 'text');
    const md = blockText(block, 'md').replace(DOT_LEADER_RUN, ' … ');
    const level = block.kind === 'paragraph' && block.lines.length <= 4 && text.length <= 200 && !DOT_LEADERS.test(text) ? levels.get(roundSize(block.size)) : undefined;
    if (level !== undefined) {
      firstHeading ??= text.replace(DOT_LEADER_RUN, ' … ');
      out.push(`${'#'.repeat(level)} ${md.replace(/^#+\s*/, '')}`);
    } else if (block.kind === 'bullet') out.push(`- ${escapeStart(md.replace(MD_BULLET, ''))}`);
    else if (block.kind === 'numbered') out.push(md.replace(/^\s*\(?(\d{1,3})[.)]\s+/, '$1. '));
    else out.push(escapeStart(md));
  }
  const markdown = mergeListRuns(out).join('\n\n');
  return { markdown: markdown ? `${markdown}\n` : '', firstHeading };
}

/** Consecutive list items are separated by single newlines (a tight list). */
function mergeListRuns(parts: string[]): string[] {
  const merged: string[] = [];
  for (const part of parts) {
    const last = merged[merged.length - 1];
    const isItem = /^(- |\d{1,3}\. )/.test(part);
    if (last !== undefined && isItem && /(^|\n)(- |\d{1,3}\. )[^\n]*$/.test(last) && /^(- |\d{1,3}\. )/.test(last)) merged[merged.length - 1] = `${last}\n${part}`;
    else merged.push(part);
  }
  return merged;
}

/** A code block: lines kept, indentation rebuilt from x offsets in character widths. */
function renderCode(block: Block): string {
  const widths = block.lines.filter((l) => l.text.length > 0).map((l) => (l.x1 - l.x0) / l.text.length);
  const charWidth = median(widths) || block.size * 0.6;
  const left = minOf(block.lines.map((l) => l.x0));
  return fence(block.lines.map((l) => ' '.repeat(Math.max(0, Math.round((l.x0 - left) / charWidth))) + l.text).join('\n'));
}

/** Joins a block's lines: hyphenation at line ends is undone, other breaks become spaces. */
function blockText(block: Block, field: 'text' | 'md'): string {
  let text = '';
  for (const line of block.lines) {
    const next = line[field];
    if (!text) text = next;
    else if (/\p{L}[-\u00AD]$/u.test(text) && /^\p{Ll}/u.test(next)) text = text.slice(0, -1) + next;
    else if (CJK_END.test(text) && CJK_START.test(next)) text += next;
    else text += ` ${next}`;
  }
  return text.replace(/\u00AD/g, '').replace(/\s+/g, ' ').trim();
}

/** Keeps PDF text from turning into Markdown syntax at the start of a block. */
function escapeStart(text: string): string {
  return text.replace(/^([#>=[]|[-+*](?=\s)|\d{1,9}(?=[.)]\s))/, (m) => (/^\d/.test(m) ? `${m}\\` : `\\${m}`));
}

function roundSize(size: number): number {
  return Math.round(size * 2) / 2;
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function minOf(values: number[]): number {
  return values.reduce((a, b) => (b < a ? b : a), Infinity);
}

function maxOf(values: number[]): number {
  return values.reduce((a, b) => (b > a ? b : a), -Infinity);
}
