/**
 * Reading order and structure from positioned PDF text runs. Phases, per page:
 * `buildFragments` (runs on one baseline, split at wide gaps; `pdf-runs.ts`) →
 * `dropRunningLines` (headers, footers, page numbers repeated across pages) →
 * `findGutters` (empty vertical strips with text on both sides = columns; `pdf-columns.ts`)
 * → `orderLines` (full-width bands in order, each multi-column band column by column) →
 * `buildBlocks` (paragraphs from vertical gaps, size changes, short last lines, bullets,
 * fixed-pitch code) → `renderBlocks` (headings from font size, hyphenation joined, page
 * breaks as `<!-- page N -->`).
 * Coordinates are viewport units: x to the right, y down, y = baseline.
 */
import { fence } from '../markdown.js';
import type { Line } from './pdf-columns.js';
import { findGutters, orderLines } from './pdf-columns.js';
import type { PdfPage } from './pdf-runs.js';
import { buildFragments, dropRunningLines, maxOf, median, minOf, roundSize } from './pdf-runs.js';

export type { PdfPage, PdfTextItem } from './pdf-runs.js';

export interface PdfLayout {
  markdown: string;
  /** Non-space characters of text found; 0 means no text layer. */
  textChars: number;
  /** 1-based numbers of pages without any text. */
  emptyPages: number[];
  firstHeading: string | null;
}

/** A paragraph breaks where the baseline step exceeds this multiple of normal line spacing. */
const PARAGRAPH_GAP = 1.35;
/** Blocks this much larger than body text are headings. */
const HEADING_RATIO = 1.15;
/** Chinese, Japanese and Korean lines join without a space. */
const CJK_END = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}、。，．！？：；]$/u;
const CJK_START = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** A table-of-contents line: dot leaders then a page number (arabic or roman). */
// Both start only where a run begins (not right after a dot or a space), so a long run of
// dots or spaces is scanned once, not again from each of its characters.
const DOT_LEADERS = /(?<!\.\s?)(\.\s?){4,}\s*([0-9]{1,4}|[ivxlc]{1,6})$/i;
const DOT_LEADER_RUN = /(?<!\s)\s*(\.\s?){4,}\s*/g;

/** A table-of-contents line: ends in dot leaders and a page number. */
export function endsWithDotLeaders(text: string): boolean {
  return DOT_LEADERS.test(text);
}

/** Dot leaders (with the spaces around them) become ` … `. */
export function shortenDotLeaders(text: string): string {
  return text.replace(DOT_LEADER_RUN, ' … ');
}
const MD_BULLET = /^\s*\\?([•◦▪▫‣⁃●○■□–—*])\s*/;
const BULLET = /^\s*([•◦▪▫‣⁃●○■□–—*])\s*/;
const NUMBERED = /^\s*(\(?\d{1,3}[.)]|\(?[a-z][.)])\s+\S/;

interface Block {
  page: number;
  lines: Line[];
  size: number;
  kind: 'paragraph' | 'bullet' | 'numbered' | 'code' | 'table';
}

/** A bookmark of the document outline: its title and depth (0 = top level). */
export interface PdfOutlineEntry {
  title: string;
  depth: number;
}

export function layoutPdf(pages: PdfPage[], outline: PdfOutlineEntry[] = []): PdfLayout {
  const fragmentsByPage = pages.map((page) => buildFragments(page.items));
  const textChars = fragmentsByPage.reduce((n, frs) => n + frs.reduce((m, f) => m + f.text.replace(/\s/g, '').length, 0), 0);
  const emptyPages = fragmentsByPage.flatMap((frs, i) => (frs.length === 0 ? [i + 1] : []));
  const kept = dropRunningLines(fragmentsByPage, pages);
  const lines = kept.flatMap((frs, i) => orderLines(frs, i + 1, findGutters(frs)));
  const bodySize = dominantSize(lines);
  const spacing = lineSpacing(lines);
  const bookmarks = outlineLevels(outline);
  const blocks = buildBlocks(lines, bodySize, spacing, bookmarks);
  const headingLevels = headingLevelsBySize(blocks, bodySize);
  const { markdown, firstHeading } = renderBlocks(blocks, headingLevels, bookmarks);
  return { markdown, textChars, emptyPages, firstHeading };
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

function buildBlocks(lines: Line[], bodySize: number, spacing: Map<number, number>, outline: Map<string, number>): Block[] {
  const blocks: Block[] = [];
  let block: Block | null = null;
  let closed = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as Line;
    if (line.table) {
      block = { page: line.page, lines: [line], size: line.size, kind: 'table' };
      blocks.push(block);
      continue;
    }
    if (isCode(line) && !inlineCodeLine(block, line, lines[i + 1], spacing)) {
      // Fixed-pitch lines form a code block; code is often set with looser line spacing.
      const prev = block?.lines[block.lines.length - 1];
      const continues =
        block?.kind === 'code' &&
        prev &&
        prev.page === line.page &&
        prev.column === line.column &&
        line.y > prev.y &&
        line.y - prev.y <= 3 * line.size;
      if (block && continues) block.lines.push(line);
      else {
        block = { page: line.page, lines: [line], size: line.size, kind: 'code' };
        blocks.push(block);
      }
      continue;
    }
    const bullet = BULLET.test(line.text);
    const numbered = !bullet && NUMBERED.test(line.text) && roundSize(line.size) <= bodySize * HEADING_RATIO;
    // A line that is a bookmark title stands alone (it becomes a heading).
    const bookmark = outline.has(headingKey(line.text));
    if (
      !block ||
      closed ||
      bookmark ||
      block.kind === 'code' ||
      block.kind === 'table' ||
      startsNewBlock(block, line, bodySize, spacing) ||
      bullet ||
      numbered
    ) {
      block = { page: line.page, lines: [line], size: line.size, kind: bullet ? 'bullet' : numbered ? 'numbered' : 'paragraph' };
      blocks.push(block);
    } else block.lines.push(line);
    closed = bookmark;
  }
  return blocks;
}

function isCode(line: Line): boolean {
  return line.chars > 0 && line.monoChars / line.chars >= 0.9;
}

/** A lone fixed-pitch line running on inside a prose paragraph (a long path, say) is prose. */
function inlineCodeLine(block: Block | null, line: Line, next: Line | undefined, spacing: Map<number, number>): boolean {
  if (!block || block.kind === 'code' || block.kind === 'table' || (next && isCode(next))) return false;
  const prev = block.lines[block.lines.length - 1] as Line;
  const normal = spacing.get(roundSize(prev.size)) ?? prev.size * 1.2;
  return (
    prev.page === line.page &&
    prev.column === line.column &&
    line.y > prev.y &&
    line.y - prev.y <= PARAGRAPH_GAP * normal &&
    !/:$/.test(prev.text)
  );
}

function startsNewBlock(block: Block, line: Line, bodySize: number, spacing: Map<number, number>): boolean {
  const prev = block.lines[block.lines.length - 1] as Line;
  if (line.page !== prev.page) {
    // A sentence running over a page break continues the paragraph (the page marker follows it).
    const continues =
      line.page === prev.page + 1 &&
      block.kind !== 'code' &&
      roundSize(line.size) === roundSize(prev.size) &&
      roundSize(line.size) < bodySize * HEADING_RATIO;
    return !(continues && !/[.!?:"”)]$/.test(prev.text) && /^\p{Ll}/u.test(line.text));
  }
  // Table-of-contents entries (dot leaders, then a page number) each stand alone.
  if (endsWithDotLeaders(prev.text)) return true;
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
    if (
      b.kind !== 'code' &&
      b.kind !== 'table' &&
      !endsWithDotLeaders(text) &&
      roundSize(b.size) >= bodySize * HEADING_RATIO &&
      b.lines.length <= 4 &&
      text.length <= 200 &&
      /\p{L}/u.test(text)
    )
      sizes.add(roundSize(b.size));
  }
  const sorted = [...sizes].sort((a, b) => b - a);
  return new Map(sorted.map((s, i) => [s, Math.min(6, i + 1)]));
}

/** Outline titles (normalised) → heading level (depth 0 → 2: level 1 is the document title's). */
function outlineLevels(outline: PdfOutlineEntry[]): Map<string, number> {
  const levels = new Map<string, number>();
  for (const entry of outline) {
    const key = headingKey(entry.title);
    if (key && !levels.has(key)) levels.set(key, Math.min(6, entry.depth + 2));
  }
  return levels;
}

function headingKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function renderBlocks(
  blocks: Block[],
  levels: Map<number, number>,
  outline: Map<string, number>,
): { markdown: string; firstHeading: string | null } {
  const out: string[] = [];
  let page = 1;
  let firstHeading: string | null = null;
  for (const block of blocks) {
    while (page < block.page) out.push(`<!-- page ${++page} -->`);
    if (block.kind === 'code') {
      out.push(renderCode(block).trimEnd());
      continue;
    }
    if (block.kind === 'table') {
      out.push(renderTable(block.lines[0]?.table ?? []));
      continue;
    }
    const text = blockText(block, 'text');
    const md = shortenDotLeaders(blockText(block, 'md'));
    const headingLike = block.kind === 'paragraph' && block.lines.length <= 4 && text.length <= 200 && !endsWithDotLeaders(text);
    // Font size first; a body-size line that matches a bookmark title is a heading too.
    const level = headingLike ? (levels.get(roundSize(block.size)) ?? outline.get(headingKey(text))) : undefined;
    if (level !== undefined) {
      firstHeading ??= shortenDotLeaders(text);
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
    if (last !== undefined && isItem && /(^|\n)(- |\d{1,3}\. )[^\n]*$/.test(last) && /^(- |\d{1,3}\. )/.test(last))
      merged[merged.length - 1] = `${last}\n${part}`;
    else merged.push(part);
  }
  return merged;
}

/** A GFM table; the first row is the header. Pipes in cells are escaped. */
function renderTable(rows: string[][]): string {
  const cell = (c: string): string => c.replace(/\|/g, '\\|');
  const width = rows.reduce((w, r) => Math.max(w, r.length), 0);
  const line = (r: string[]): string => `| ${Array.from({ length: width }, (_, i) => cell(r[i] ?? '')).join(' | ')} |`;
  const [head = [], ...body] = rows;
  return [line(head), `|${' --- |'.repeat(width)}`, ...body.map(line)].join('\n');
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
    // An all-capitals word broken over a line (OP- TIONAL) joins too.
    else if (/\p{Lu}{2}-$/u.test(text) && /^\p{Lu}/u.test(next)) text = text.slice(0, -1) + next;
    else if (CJK_END.test(text) && CJK_START.test(next)) text += next;
    else text += ` ${next}`;
  }
  return text
    .replace(/\u00AD/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Keeps PDF text from turning into Markdown syntax at the start of a block. */
function escapeStart(text: string): string {
  return text.replace(/^([#>=[]|[-+*](?=\s)|\d{1,9}(?=[.)]\s))/, (m) => (/^\d/.test(m) ? `${m}\\` : `\\${m}`));
}
