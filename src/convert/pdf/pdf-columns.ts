/**
 * Reading order for one page (see `pdf-layout.ts`): column gutters found from empty
 * vertical strips, then full-width bands in order, each band column by column.
 */
import type { Fragment } from './pdf-runs.js';
import { BASELINE_TOLERANCE, maxOf, median, minOf } from './pdf-runs.js';

/** A fragment placed in reading order: its page and column (-1 = spans all columns). */
export interface Line extends Fragment {
  page: number;
  column: number;
  /** Set when the line is a whole table: rows of cells (inline Markdown). */
  table?: string[][];
}

/** Rows a table needs at least (header included). */
const MIN_TABLE_ROWS = 3;
/** A cell narrower than this many font sizes is short (a text-column line is longer). */
const SHORT_CELL_EMS = 12;

export interface Gutter {
  start: number;
  end: number;
}

/**
 * Column gutters: x-intervals no narrow fragment crosses, with enough text on both sides
 * that overlaps vertically. Wide fragments (titles, abstracts) are ignored here; they
 * become full-width bands in `orderLines`.
 */
export function findGutters(fragments: Fragment[]): Gutter[] {
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
export function orderLines(fragments: Fragment[], page: number, gutters: Gutter[]): Line[] {
  const sorted = [...fragments].sort((a, b) => a.y - b.y || a.x0 - b.x0);
  const columnOf = (f: Fragment): number => gutters.filter((g) => (f.x0 + f.x1) / 2 > g.end).length;
  const spans = (f: Fragment): boolean => gutters.some((g) => f.x0 < g.start && f.x1 > g.end);
  const out: Line[] = [];
  let band: Fragment[] = [];
  const tableLine = (rows: Fragment[][], colOf: (f: Fragment) => number, columns: number): Line => tableToLine(rows, colOf, columns, page);
  const bandTable = (fragments: Fragment[], gs: Gutter[], colOf: (f: Fragment) => number): Line | null => {
    const rows = rowsOf(fragments);
    if (
      mostlyMono(fragments) ||
      rows.length < MIN_TABLE_ROWS ||
      rows.filter((r) => new Set(r.map(colOf)).size >= 2).length < rows.length * 0.7
    )
      return null;
    // Text columns are filled with lines of 15+ ems; table cells are mostly short.
    const short = fragments.filter((f) => f.x1 - f.x0 < SHORT_CELL_EMS * f.size).length;
    // Lines of running text often start in lower case (a sentence continuing); cells rarely do.
    const lower = fragments.filter((f) => /^\p{Ll}/u.test(f.text)).length;
    return short >= fragments.length * 0.7 && lower < fragments.length * 0.35 ? tableLine(rows, colOf, gs.length + 1) : null;
  };
  const flush = (): void => {
    // A band whose rows line up across the columns, with short cells, is one table.
    const table = gutters.length > 0 ? bandTable(band, gutters, columnOf) : null;
    if (table) out.push(table);
    else {
      for (let col = 0; col <= gutters.length; col++) {
        const lines = mergeBaselines(
          band.filter((f) => columnOf(f) === col),
          page,
          col,
        );
        for (const line of lines) out.push(line);
      }
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

/** Fragments grouped by baseline, top-down, each row left to right. */
function rowsOf(fragments: Fragment[]): Fragment[][] {
  const rows: Fragment[][] = [];
  for (const f of [...fragments].sort((a, b) => a.y - b.y || a.x0 - b.x0)) {
    const row = rows[rows.length - 1];
    const anchor = row?.[0];
    if (row && anchor && Math.abs(f.y - anchor.y) <= BASELINE_TOLERANCE * Math.max(f.size, anchor.size)) row.push(f);
    else rows.push([f]);
  }
  return rows;
}

function tableToLine(rows: Fragment[][], columnOf: (f: Fragment) => number, columns: number, page: number): Line {
  const all = rows.flat();
  const cells = rows.map((row) => {
    const out = Array.from({ length: columns }, () => '');
    for (const f of row) {
      const col = Math.min(columns - 1, columnOf(f));
      out[col] = out[col] ? `${out[col]} ${f.md}` : f.md;
    }
    return out;
  });
  const first = all[0] as Fragment;
  return {
    x0: minOf(all.map((f) => f.x0)),
    x1: maxOf(all.map((f) => f.x1)),
    y: first.y,
    size: first.size,
    text: rows.map((r) => r.map((f) => f.text).join(' ')).join(' '),
    md: '',
    monoChars: 0,
    chars: all.reduce((n, f) => n + f.chars, 0),
    page,
    column: -1,
    table: cells,
  };
}

/**
 * Runs of at least MIN_TABLE_ROWS consecutive rows of two or more fragments whose
 * x-extents leave common vertical gaps: a table inside one column. Returns the rows
 * split into table runs and plain rows, in order.
 */
function splitTables(rows: Fragment[][]): Array<{ table: boolean; rows: Fragment[][] }> {
  const parts: Array<{ table: boolean; rows: Fragment[][] }> = [];
  let i = 0;
  while (i < rows.length) {
    let j = i;
    while (j < rows.length && (rows[j]?.length ?? 0) >= 2) j++;
    if (j - i >= MIN_TABLE_ROWS && !mostlyMono(rows.slice(i, j).flat()) && separators(rows.slice(i, j).flat()).length > 0) {
      parts.push({ table: true, rows: rows.slice(i, j) });
      i = j;
    } else {
      const end = Math.max(j, i + 1);
      parts.push({ table: false, rows: rows.slice(i, end) });
      i = end;
    }
  }
  return parts;
}

/** Aligned columns in a fixed-pitch font are code (a struct, a help text), not a table. */
function mostlyMono(fragments: Fragment[]): boolean {
  const chars = fragments.reduce((n, f) => n + f.chars, 0);
  return chars > 0 && fragments.reduce((n, f) => n + f.monoChars, 0) / chars >= 0.5;
}

/** x positions of the vertical gaps no fragment crosses (the union of their extents). */
function separators(fragments: Fragment[]): number[] {
  const sorted = [...fragments].sort((a, b) => a.x0 - b.x0);
  const cuts: number[] = [];
  let reach = sorted[0]?.x1 ?? 0;
  for (const f of sorted) {
    if (f.x0 - reach > 0.5 * f.size) cuts.push((reach + f.x0) / 2);
    reach = Math.max(reach, f.x1);
  }
  return cuts;
}

function mergeBaselines(fragments: Fragment[], page: number, column: number): Line[] {
  const out: Line[] = [];
  for (const part of splitTables(rowsOf(fragments))) {
    if (part.table) {
      const cuts = separators(part.rows.flat());
      out.push(tableToLine(part.rows, (f) => cuts.filter((c) => (f.x0 + f.x1) / 2 > c).length, cuts.length + 1, page));
    } else for (const line of mergeRows(part.rows.flat(), page, column)) out.push(line); // no spread: a page may hold many rows
  }
  return out;
}

function mergeRows(fragments: Fragment[], page: number, column: number): Line[] {
  const lines: Line[] = [];
  for (const f of fragments) {
    const last = lines[lines.length - 1];
    if (last && Math.abs(f.y - last.y) <= BASELINE_TOLERANCE * Math.max(f.size, last.size)) {
      // Fixed-pitch text keeps its alignment: the gap becomes as many spaces as it is wide.
      const charWidth = f.text.length > 0 ? (f.x1 - f.x0) / f.text.length : f.size * 0.6;
      const mono = f.monoChars >= f.chars * 0.9 && last.monoChars >= last.chars * 0.9;
      const gap = mono && charWidth > 0 ? ' '.repeat(Math.min(80, Math.max(1, Math.round((f.x0 - last.x1) / charWidth)))) : ' ';
      last.text += `${gap}${f.text}`;
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
