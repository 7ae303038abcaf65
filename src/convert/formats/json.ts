/**
 * JSON → a fenced `json` block, re-indented from the source text (never re-serialised, so
 * big integers, number spellings and string escapes stay exactly as sent). Invalid JSON →
 * a fenced `text` block with INVALID_JSON. Output is bounded by MAX_MARKDOWN_CHARS.
 */
import { MAX_MARKDOWN_CHARS, fence, truncatedWarning } from '../markdown.js';
import type { Warning } from '../types.js';

/** Deeper than this, JSON is shown as sent: indentation would dwarf the content. */
const MAX_PRETTY_DEPTH = 256;
const INDENT = '  ';

export interface JsonConversion {
  markdown: string;
  warnings: Warning[];
  /** The parsed top-level value's `title`/`name`/`description` strings, when an object. */
  hints: { title: string | null; description: string | null };
}

export function jsonToMarkdown(text: string): JsonConversion {
  const source = text.replace(/^\uFEFF/, '');
  const depth = maxDepth(source);
  if (depth > MAX_PRETTY_DEPTH) {
    return asText(source, [
      { code: 'JSON_TOO_DEEP', message: `JSON nests ${depth} levels deep (limit ${MAX_PRETTY_DEPTH}); shown as sent` },
    ]);
  }
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (err) {
    if (isJsonLines(source)) return asJsonLines(source);
    const reason = err instanceof Error ? err.message : 'parse error';
    return asText(source, [{ code: 'INVALID_JSON', message: `body is not valid JSON (${reason}); shown as text` }]);
  }
  const { text: pretty, truncated } = reindent(source, MAX_MARKDOWN_CHARS);
  const warnings = truncated ? [truncatedWarning(`JSON cut at ${MAX_MARKDOWN_CHARS} characters of ${source.length}`)] : [];
  return { markdown: fence(pretty, 'json'), warnings, hints: hintsOf(value) };
}

/** JSON Lines / NDJSON: one JSON value per line (at least two lines, every one valid). */
function isJsonLines(source: string): boolean {
  const lines = source.split('\n').filter((l) => l.trim() !== '');
  if (lines.length < 2) return false;
  return lines.every((line) => {
    try {
      JSON.parse(line);
      return true;
    } catch {
      return false;
    }
  });
}

/** JSON Lines stay one record per line (pretty-printing would lose the record boundaries). */
function asJsonLines(source: string): JsonConversion {
  const lines = source
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.trim());
  const warnings: Warning[] = [];
  let body = lines.join('\n');
  if (body.length > MAX_MARKDOWN_CHARS) {
    body = `${body.slice(0, body.lastIndexOf('\n', MAX_MARKDOWN_CHARS))}\n…`;
    warnings.push(truncatedWarning(`JSON Lines cut at ${MAX_MARKDOWN_CHARS} characters of ${source.length}`));
  }
  return { markdown: fence(body, 'json'), warnings, hints: { title: null, description: null } };
}

function asText(source: string, warnings: Warning[]): JsonConversion {
  let body = source;
  if (body.length > MAX_MARKDOWN_CHARS) {
    body = body.slice(0, MAX_MARKDOWN_CHARS);
    warnings.push(truncatedWarning(`text cut at ${MAX_MARKDOWN_CHARS} characters of ${source.length}`));
  }
  return { markdown: fence(body, 'text'), warnings, hints: { title: null, description: null } };
}

function hintsOf(value: unknown): JsonConversion['hints'] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { title: null, description: null };
  const record = value as Record<string, unknown>;
  const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() && v.length <= 300 ? v.trim() : null);
  return { title: str(record.title) ?? str(record.name), description: str(record.description) };
}

/** Maximum bracket depth outside strings; a cheap pre-check before JSON.parse. */
function maxDepth(source: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}

/**
 * Re-indents valid JSON text with two spaces, copying strings and numbers verbatim.
 * Stops once `limit` characters are produced and reports `truncated`.
 */
export function reindent(source: string, limit: number): { text: string; truncated: boolean } {
  const out: string[] = [];
  let size = 0;
  let depth = 0;
  const push = (s: string): void => {
    out.push(s);
    size += s.length;
  };
  const newline = (): void => push(`\n${INDENT.repeat(depth)}`);
  let i = 0;
  const n = source.length;
  while (i < n) {
    if (size > limit) return { text: cutAtLine(out.join(''), limit), truncated: true };
    const c = source[i] as string;
    if (c === '"') {
      let j = i + 1;
      while (j < n) {
        const d = source.charCodeAt(j);
        if (d === 0x5c) j += 2;
        else if (d === 0x22) break;
        else j++;
      }
      push(source.slice(i, j + 1));
      i = j + 1;
    } else if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      let j = i + 1;
      while (j < n && /\s/.test(source[j] as string)) j++;
      if (source[j] === close) {
        push(c + close);
        i = j + 1;
      } else {
        push(c);
        depth++;
        newline();
        i++;
      }
    } else if (c === '}' || c === ']') {
      depth--;
      newline();
      push(c);
      i++;
    } else if (c === ',') {
      push(',');
      newline();
      i++;
    } else if (c === ':') {
      push(': ');
      i++;
    } else if (c === ' ' || c === '\n' || c === '\r' || c === '\t') {
      i++;
    } else {
      let j = i + 1;
      while (j < n && !/[\s,:{}[\]"]/.test(source[j] as string)) j++;
      push(source.slice(i, j));
      i = j;
    }
  }
  const text = out.join('');
  return text.length > limit ? { text: cutAtLine(text, limit), truncated: true } : { text, truncated: false };
}

function cutAtLine(text: string, limit: number): string {
  const cut = text.slice(0, limit);
  const nl = cut.lastIndexOf('\n');
  return `${nl > 0 ? cut.slice(0, nl) : cut}\n…`;
}
