/**
 * Reading order for one page (see `pdf-layout.ts`): column gutters found from empty
 * vertical strips, then full-width bands in order, each band column by column.
 */
import { BASELINE_TOLERANCE, type Fragment, maxOf, median, minOf } from './pdf-runs.js';

/** A fragment placed in reading order: its page and column (-1 = spans all columns). */
export interface Line extends Fragment {
  page: number;
  column: number;
}

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
