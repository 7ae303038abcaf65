/**
 * CSV/TSV → a GFM table. Phases: sniff the dialect (delimiter, quote) from a sample →
 * parse rows (RFC 4180 quoting, bounded in rows, columns and cell size) → decide whether
 * the first row is a header → render (ragged rows padded, pipes escaped, newlines → <br>).
 */
import { MAX_MARKDOWN_CHARS, truncatedWarning } from '../markdown.js';
import type { Warning } from '../types.js';

/** Rows kept; a longer file is cut with TRUNCATED (a table this long is for machines anyway). */
export const MAX_ROWS = 50_000;
/** Columns kept; wider rows are cut with TRUNCATED (a million-column row stays linear). */
export const MAX_COLUMNS = 100;
/** Characters kept per cell. */
const MAX_CELL_CHARS = 2_000;
/** Lines of the file the dialect sniffer looks at. */
const SAMPLE_LINES = 50;
const DELIMITERS = [',', '\t', ';', '|'] as const;

export interface CsvDialect {
  delimiter: string;
  quote: string;
}

export interface CsvConversion {
  markdown: string;
  warnings: Warning[];
  rows: number;
  columns: number;
}

export function csvToMarkdown(text: string, hint: { delimiter?: string } = {}): CsvConversion {
  const source = text.replace(/^\uFEFF/, '');
  const dialect = sniffDialect(source, hint.delimiter);
  const parsed = parseRows(source, dialect);
  const rows = parsed.rows.filter((r) => !(r.length === 1 && r[0] === ''));
  const warnings: Warning[] = [];
  if (parsed.truncatedRows) warnings.push(truncatedWarning(`table cut at ${MAX_ROWS} rows`));
  if (parsed.maxColumns > MAX_COLUMNS) warnings.push(truncatedWarning(`table cut at ${MAX_COLUMNS} of ${parsed.maxColumns} columns`));
  if (rows.length === 0) return { markdown: '', warnings, rows: 0, columns: 0 };
  const width = Math.min(
    MAX_COLUMNS,
    rows.reduce((w, r) => Math.max(w, r.length), 0),
  );
  const header = hasHeader(rows) ? (rows.shift() as string[]) : [];
  const lines = [renderRow(pad(header, width)), `|${' --- |'.repeat(width)}`];
  let size = lines[0]!.length + lines[1]!.length;
  for (const row of rows) {
    const line = renderRow(pad(row, width));
    size += line.length + 1;
    if (size > MAX_MARKDOWN_CHARS) {
      warnings.push(truncatedWarning(`table cut at ${lines.length - 2} rows to stay under ${MAX_MARKDOWN_CHARS} characters`));
      break;
    }
    lines.push(line);
  }
  return { markdown: `${lines.join('\n')}\n`, warnings, rows: lines.length - 2, columns: width };
}

function pad(row: string[], width: number): string[] {
  const out = row.slice(0, width);
  while (out.length < width) out.push('');
  return out;
}

function renderRow(cells: string[]): string {
  return `| ${cells.map(escapeCell).join(' | ')} |`;
}

function escapeCell(cell: string): string {
  return cell.trim().replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>');
}

/**
 * Picks the delimiter whose per-line count (outside quotes) is non-zero and most consistent
 * over the sample; ties go to the order in DELIMITERS. The quote is `"` unless fields are
 * wrapped in `'` and never in `"`.
 */
export function sniffDialect(text: string, forced?: string): CsvDialect {
  const sample = text
    .slice(0, 64 * 1024)
    .split(/\r?\n/)
    .slice(0, SAMPLE_LINES)
    .filter((l) => l.length > 0);
  const quote = /(^|[,;\t|])'[^']*'([,;\t|]|$)/m.test(sample.join('\n')) && !/(^|[,;\t|])"/m.test(sample.join('\n')) ? "'" : '"';
  if (forced) return { delimiter: forced, quote };
  let best: { delimiter: string; score: number } = { delimiter: ',', score: -1 };
  for (const delimiter of DELIMITERS) {
    const counts = sample.map((line) => countOutsideQuotes(line, delimiter, quote));
    const nonZero = counts.filter((c) => c > 0);
    if (nonZero.length === 0) continue;
    const mode = modeOf(nonZero);
    const consistent = counts.filter((c) => c === mode).length / counts.length;
    if (consistent < 0.3) continue;
    const score = consistent * 10 + Math.min(mode, 10) * 0.1 + nonZero.length / counts.length;
    if (score > best.score) best = { delimiter, score };
  }
  return { delimiter: best.delimiter, quote };
}

function countOutsideQuotes(line: string, delimiter: string, quote: string): number {
  let count = 0;
  let quoted = false;
  for (const c of line) {
    if (c === quote) quoted = !quoted;
    else if (c === delimiter && !quoted) count++;
  }
  return count;
}

function modeOf(values: number[]): number {
  const freq = new Map<number, number>();
  for (const v of values) freq.set(v, (freq.get(v) ?? 0) + 1);
  let best = 0;
  let bestCount = -1;
  for (const [v, c] of freq) if (c > bestCount || (c === bestCount && v > best)) [best, bestCount] = [v, c];
  return best;
}

interface Parsed {
  rows: string[][];
  truncatedRows: boolean;
  maxColumns: number;
}

/** RFC 4180 parser: quoted fields may hold delimiters, doubled quotes and newlines. */
export function parseRows(text: string, { delimiter, quote }: CsvDialect): Parsed {
  const rows: string[][] = [];
  let row: string[] = [];
  let columns = 0;
  let maxColumns = 0;
  let field = '';
  let quoted = false;
  let i = 0;
  const n = text.length;
  const endField = (): void => {
    columns++;
    if (row.length < MAX_COLUMNS) row.push(field.length > MAX_CELL_CHARS ? `${field.slice(0, MAX_CELL_CHARS)}…` : field);
    field = '';
  };
  const endRow = (): boolean => {
    endField();
    maxColumns = Math.max(maxColumns, columns);
    rows.push(row);
    row = [];
    columns = 0;
    return rows.length > MAX_ROWS;
  };
  while (i < n) {
    const c = text[i] as string;
    if (quoted) {
      if (c === quote) {
        if (text[i + 1] === quote) {
          field += quote;
          i += 2;
          continue;
        }
        quoted = false;
      } else if (field.length <= MAX_CELL_CHARS) field += c;
      i++;
    } else if (c === quote && field.trim() === '') {
      quoted = true;
      field = '';
      i++;
    } else if (c === delimiter) {
      endField();
      i++;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      i++;
      if (endRow()) return { rows: rows.slice(0, MAX_ROWS), truncatedRows: true, maxColumns };
    } else {
      if (field.length <= MAX_CELL_CHARS) field += c;
      i++;
    }
  }
  if (field !== '' || row.length > 0) endRow();
  return { rows, truncatedRows: false, maxColumns };
}

/**
 * The first row is a header when it has no empty or numeric cells, its values are unique,
 * and either some column below it is mostly numeric or dates, or its cells are shorter
 * than the typical cell below (Python's csv.Sniffer.has_header reasons the same way).
 */
export function hasHeader(rows: string[][]): boolean {
  const [first, ...rest] = rows;
  if (!first || rest.length === 0) return rows.length === 1;
  const cells = first.map((c) => c.trim());
  if (cells.some((c) => c === '' || isNumeric(c))) return false;
  if (new Set(cells).size !== cells.length) return false;
  const sample = rest.slice(0, 50);
  for (let col = 0; col < cells.length; col++) {
    const values = sample.map((r) => (r[col] ?? '').trim()).filter(Boolean);
    if (values.length > 0 && values.filter((v) => isNumeric(v) || isDate(v)).length / values.length >= 0.8) return true;
  }
  let shorter = 0;
  for (let col = 0; col < cells.length; col++) {
    const lengths = sample.map((r) => (r[col] ?? '').trim().length);
    const avg = lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length);
    if ((cells[col] ?? '').length < avg || lengths.every((l) => l !== (cells[col] ?? '').length)) shorter++;
  }
  return shorter / cells.length >= 0.5;
}

function isNumeric(value: string): boolean {
  return /^[-+]?[$€£]?\s?(\d{1,3}([,_ ]\d{3})+|\d+)?([.,]\d+)?\s?%?$/.test(value) && /\d/.test(value);
}

function isDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2})?)?/.test(value) || /^\d{1,2}[/.]\d{1,2}[/.]\d{2,4}$/.test(value);
}
