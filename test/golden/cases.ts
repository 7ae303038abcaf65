import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertDocument } from '../../src/convert/index.js';
import { htmlToMarkdown } from '../../src/convert/html/index.js';
import { contentOf } from '../../src/convert/output.js';
import type { ConvertResult, DocumentOptions } from '../../src/convert/types.js';
import { metadataOnWire } from '../../src/http/wire/read.js';

/**
 * Golden cases: one folder per case under test/golden/<slug>/ with its input, expected.md,
 * expected-meta.json (metadata and warnings) and an optional meta.json. An HTML page is
 * `input.html`, run through the HTML engine as a page of that URL; any other document (PDF,
 * CSV, JSON, XML, text) is `input.<ext>` or a shared fixture named by `meta.input`, run
 * through convertDocument with `meta.contentType` and `meta.headers` as a fetched body is.
 * A case with read options (issue 17) keeps its content in the file of its format:
 * expected.html or expected.txt instead of .md. Shared by the test runner (reads only) and
 * scripts/golden-update.ts (the only writer).
 */
export const GOLDEN_DIR = path.dirname(fileURLToPath(import.meta.url));

/** Fixed base when a case has no meta.json url (Readability's test pages do the same). */
export const DEFAULT_BASE = 'http://fakehost/';

export interface CaseMeta {
  url?: string;
  contentLanguage?: string;
  /** Page type for per-type measurement (bench/extract-golden.mjs): a metadata.page_type value, or `edge` for parser edge cases. */
  type?: string;
  /** Read options (`format`, `link_mode`, selectors…), as the converter takes them. */
  options?: DocumentOptions;
  /** A document that is not an HTML page: its Content-Type as served (null: none). */
  contentType?: string | null;
  /** Response headers it was served with (charset, disposition). */
  headers?: Record<string, string>;
  /** Its input file relative to the case folder, when it is a shared fixture rather than `input.<ext>`. */
  input?: string;
}

export interface GoldenCase {
  slug: string;
  dir: string;
  meta: CaseMeta;
  /** The input file's path. */
  inputPath: string;
  /** An HTML page (input.html, run by the HTML engine), or another document (run by convertDocument). */
  kind: 'page' | 'document';
}

export function listCases(): GoldenCase[] {
  return readdirSync(GOLDEN_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(GOLDEN_DIR, d.name, 'expected-meta.json')))
    .map((d) => loadCase(d.name))
    .sort((a, b) => a.slug.localeCompare(b.slug));
}

export function loadCase(slug: string): GoldenCase {
  const dir = path.join(GOLDEN_DIR, slug);
  const metaPath = path.join(dir, 'meta.json');
  const meta = existsSync(metaPath) ? (JSON.parse(readFileSync(metaPath, 'utf8')) as CaseMeta) : {};
  if (existsSync(path.join(dir, 'input.html')) && meta.contentType === undefined) {
    return { slug, dir, meta, inputPath: path.join(dir, 'input.html'), kind: 'page' };
  }
  const own = readdirSync(dir).find((f) => f.startsWith('input.'));
  const input = meta.input ?? own;
  if (input === undefined) throw new Error(`${slug}: no input.<ext> and no meta.json "input"`);
  return { slug, dir, meta, inputPath: path.join(dir, input), kind: 'document' };
}

export async function runCase(c: GoldenCase): Promise<ConvertResult> {
  const url = c.meta.url ?? `${DEFAULT_BASE}${c.slug}/`;
  if (c.kind === 'page') {
    const options = { contentLanguage: c.meta.contentLanguage ?? null, ...c.meta.options };
    return htmlToMarkdown(readFileSync(c.inputPath, 'utf8'), url, options);
  }
  const contentType = c.meta.contentType ?? null;
  const headers = { 'content-type': contentType ?? '', ...c.meta.headers };
  return convertDocument({ body: readFileSync(c.inputPath), contentType, headers, url });
}

/** The expected file of a case's content: expected.md, or .html / .txt for those formats. */
export function expectedFile(c: GoldenCase): string {
  const format = c.meta.options?.format;
  return format === 'html' ? 'expected.html' : format === 'text' ? 'expected.txt' : 'expected.md';
}

/** The content a case is checked on: the Markdown, or the format its options ask for. */
export function outputOf(c: GoldenCase, r: ConvertResult): string {
  return contentOf(r, c.meta.options?.format ?? 'markdown');
}

/** What expected-meta.json holds: metadata as the wire names it, and warnings; stable key order, LF, final newline. */
export function metaSnapshot(r: ConvertResult): string {
  return `${JSON.stringify({ metadata: metadataOnWire(r.metadata), warnings: r.warnings }, null, 2)}\n`;
}

/** A short unified diff around the first differing line. */
export function firstDiff(expected: string, actual: string, context = 3): string {
  const e = expected.split('\n');
  const a = actual.split('\n');
  let i = 0;
  while (i < e.length && i < a.length && e[i] === a[i]) i++;
  const from = Math.max(0, i - context);
  const lines = [`@@ first difference at line ${i + 1} @@`];
  for (let k = from; k < i; k++) lines.push(`  ${e[k]}`);
  for (let k = i; k < Math.min(e.length, i + context + 1); k++) lines.push(`- ${e[k]}`);
  for (let k = i; k < Math.min(a.length, i + context + 1); k++) lines.push(`+ ${a[k]}`);
  return lines.join('\n');
}
