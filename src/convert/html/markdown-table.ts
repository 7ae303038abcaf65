import type { Element } from 'domhandler';
import { isElement, pushAll } from './dom.js';

/**
 * Tables. Data tables become GFM pipe tables: the header is `<thead>` or a first row of
 * `<th>`, else the first row is promoted (GFM needs a header row); `colspan` repeats
 * nothing and pads with empty cells so columns stay aligned; pipes are escaped. Layout
 * tables (role=presentation, nested tables, cells holding headings/lists/code, one column)
 * are unwrapped into their cells' blocks.
 */

interface TableWriter {
  /** Elements the extraction dropped: such rows are left out. */
  skipped(el: Element): boolean;
  blocks(nodes: Element['children']): string[];
  cell(el: Element): string;
  inlineChildren(el: Element): string;
}

const COMPLEX_CELL = new Set(['table', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'pre', 'blockquote', 'hr', 'dl', 'form']);
/** Colspans above this are layout tricks, not data. */
const MAX_COLSPAN = 20;

export function renderTable(table: Element, w: TableWriter): string[] {
  const cells = tableCells(table, w);
  if (cells.length === 0) return [];
  let columns = 0;
  for (const r of cells) {
    let n = 0;
    for (const c of r) n += span(c);
    if (n > columns) columns = n;
  }
  if (isLayout(table, cells, columns)) return unwrap(cells, w);
  const caption = childrenNamed(table, 'caption')[0];
  const out: string[] = [];
  if (caption) {
    const c = w.inlineChildren(caption).replace(/\s+/g, ' ').trim();
    if (c) out.push(c);
  }
  // One string per row, built directly: tables of 300,000 rows exist, and per-row arrays
  // were most of their rendering time (bench/extract-robustness.mjs).
  const lines: string[] = [];
  for (let r = 0; r < cells.length; r++) {
    lines.push(row(w, cells[r] as Element[], columns));
    if (r === 0) lines.push(`|${' --- |'.repeat(columns)}`);
  }
  out.push(lines.join('\n'));
  return out;
}

/** `| a | b |`, colspans padded with empty cells and short rows padded to `columns`. */
function row(w: TableWriter, cells: readonly Element[], columns: number): string {
  let line = '|';
  let filled = 0;
  for (const c of cells) {
    const text = w.cell(c);
    line += text === '' ? '  |' : ` ${text} |`;
    const n = span(c);
    for (let i = 1; i < n; i++) line += '  |';
    filled += n;
  }
  for (; filled < columns; filled++) line += '  |';
  // Matches start only where a run of spaces begins, so a long run is scanned once.
  return line.replace(/(?<! ) {2,}\|/g, ' |');
}

function span(c: Element): number {
  const raw = c.attribs.colspan;
  if (raw === undefined) return 1;
  const n = parseInt(raw, 10);
  return Number.isFinite(n) && n >= 1 ? Math.min(n, MAX_COLSPAN) : 1;
}

function childrenNamed(el: Element, name: string): Element[] {
  return el.children.filter((c): c is Element => isElement(c) && c.name === name);
}

/**
 * The `td`/`th` cells of each row of this table only (not of nested tables), thead rows
 * first, tfoot rows last; rows without cells are skipped.
 */
function tableCells(table: Element, w: TableWriter): Element[][] {
  const head: Element[][] = [];
  const body: Element[][] = [];
  const foot: Element[][] = [];
  const addRows = (group: Element, into: Element[][]): void => {
    for (const tr of group.children) if (isElement(tr) && tr.name === 'tr' && !w.skipped(tr)) addRow(tr, into);
  };
  for (const c of table.children) {
    if (!isElement(c) || w.skipped(c)) continue;
    if (c.name === 'tr') addRow(c, body);
    else if (c.name === 'thead') addRows(c, head);
    else if (c.name === 'tbody') addRows(c, body);
    else if (c.name === 'tfoot') addRows(c, foot);
  }
  // concat, not push(...rows): a spread of 300,000 rows overflows the argument limit
  return head.concat(body, foot);
}

function addRow(tr: Element, into: Element[][]): void {
  const cells: Element[] = [];
  for (const c of tr.children) if (isElement(c) && (c.name === 'td' || c.name === 'th')) cells.push(c);
  if (cells.length > 0) into.push(cells);
}

function isLayout(table: Element, cells: Element[][], columns: number): boolean {
  const role = table.attribs.role;
  if (role === 'presentation' || role === 'none') return true;
  if (columns <= 1 || cells.length <= 1) return true;
  for (const r of cells) for (const c of r) if (hasComplexContent(c)) return true;
  return false;
}

function hasComplexContent(cell: Element): boolean {
  let leaf = true; // most cells hold text only: no stack needed
  for (const c of cell.children) if (isElement(c)) leaf = false;
  if (leaf) return false;
  const stack: Element[] = [cell];
  let visited = 0;
  while (stack.length > 0 && visited++ < 500) {
    const el = stack.pop() as Element;
    for (const c of el.children) {
      if (!isElement(c)) continue;
      if (COMPLEX_CELL.has(c.name)) return true;
      stack.push(c);
    }
  }
  return false;
}

function unwrap(cells: Element[][], w: TableWriter): string[] {
  const out: string[] = [];
  for (const r of cells) for (const c of r) pushAll(out, w.blocks(c.children));
  return out;
}
