import type { Element } from 'domhandler';
import { isElement } from './dom.js';

/**
 * Tables. Data tables become GFM pipe tables: the header is `<thead>` or a first row of
 * `<th>`, else the first row is promoted (GFM needs a header row); `colspan` repeats
 * nothing and pads with empty cells so columns stay aligned; pipes are escaped. Layout
 * tables (role=presentation, nested tables, cells holding headings/lists/code, one column)
 * are unwrapped into their cells' blocks.
 */

interface TableWriter {
  blocks(nodes: Element['children']): string[];
  cell(el: Element): string;
  inlineChildren(el: Element): string;
}

const COMPLEX_CELL = new Set(['table', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'pre', 'blockquote', 'hr', 'dl', 'form']);
/** Colspans above this are layout tricks, not data. */
const MAX_COLSPAN = 20;

export function renderTable(table: Element, w: TableWriter): string[] {
  const rows = tableRows(table);
  if (rows.length === 0) return [];
  const cells = rows.map((r) => r.filter((c) => c.name === 'td' || c.name === 'th'));
  let columns = 0;
  for (const r of cells) columns = Math.max(columns, r.reduce((n, c) => n + span(c), 0));
  if (isLayout(table, cells, columns)) return unwrap(cells, w);
  const caption = childrenNamed(table, 'caption')[0];
  const out: string[] = [];
  if (caption) {
    const c = w.inlineChildren(caption).replace(/\s+/g, ' ').trim();
    if (c) out.push(c);
  }
  const grid = cells.map((row) => {
    const line: string[] = [];
    for (const c of row) {
      line.push(w.cell(c));
      for (let i = 1; i < span(c); i++) line.push('');
    }
    while (line.length < columns) line.push('');
    return line;
  });
  const header = grid[0] as string[];
  const body = grid.slice(1);
  const lines = [row(header), `|${header.map(() => ' --- ').join('|')}|`, ...body.map(row)];
  out.push(lines.join('\n'));
  return out;
}

function row(cells: string[]): string {
  return `| ${cells.map((c) => c || ' ').join(' | ')} |`.replace(/ {2,}\|/g, ' |');
}

function span(c: Element): number {
  const n = parseInt(c.attribs.colspan ?? '1', 10);
  return Number.isFinite(n) && n >= 1 ? Math.min(n, MAX_COLSPAN) : 1;
}

function childrenNamed(el: Element, name: string): Element[] {
  return el.children.filter((c): c is Element => isElement(c) && c.name === name);
}

/** Rows of this table only (not of nested tables), thead first, tfoot last. */
function tableRows(table: Element): Element[][] {
  const head: Element[] = [];
  const body: Element[] = [];
  const foot: Element[] = [];
  for (const c of table.children) {
    if (!isElement(c)) continue;
    if (c.name === 'tr') body.push(c);
    else if (c.name === 'thead') head.push(...childrenNamed(c, 'tr'));
    else if (c.name === 'tbody') body.push(...childrenNamed(c, 'tr'));
    else if (c.name === 'tfoot') foot.push(...childrenNamed(c, 'tr'));
  }
  return [...head, ...body, ...foot]
    .map((tr) => tr.children.filter((c): c is Element => isElement(c)))
    .filter((r) => r.length > 0);
}

function isLayout(table: Element, cells: Element[][], columns: number): boolean {
  const role = table.attribs.role;
  if (role === 'presentation' || role === 'none') return true;
  if (columns <= 1 || cells.length <= 1) return true;
  for (const r of cells) for (const c of r) if (hasComplexContent(c)) return true;
  return false;
}

function hasComplexContent(cell: Element): boolean {
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
  for (const r of cells) for (const c of r) out.push(...w.blocks(c.children));
  return out;
}
