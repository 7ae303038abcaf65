/**
 * Golden cases for non-HTML formats: one folder per case with `case.json` (input file,
 * Content-Type, URL, optional headers), `expected.md` and `expected.json` (metadata and
 * warnings). `golden-formats.test.ts` compares and never writes; `update.ts` is the writer.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { convertDocument } from '../../src/convert/index.js';
import type { ConvertResult } from '../../src/convert/types.js';
import { metadataOnWire } from '../../src/http/wire/read.js';

export const GOLDEN_DIR = import.meta.dirname;

export interface GoldenCase {
  name: string;
  dir: string;
  input: string;
  content_type: string | null;
  url: string;
  headers: Record<string, string>;
}

export function loadCases(): GoldenCase[] {
  return readdirSync(GOLDEN_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(GOLDEN_DIR, d.name, 'case.json')))
    .map((d) => {
      const dir = join(GOLDEN_DIR, d.name);
      const spec = JSON.parse(readFileSync(join(dir, 'case.json'), 'utf8')) as Omit<GoldenCase, 'name' | 'dir' | 'headers'> & {
        headers?: Record<string, string>;
      };
      return { ...spec, headers: spec.headers ?? {}, name: d.name, dir, input: join(dir, spec.input) };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

export async function runCase(c: GoldenCase): Promise<ConvertResult> {
  const headers = { 'content-type': c.content_type ?? '', ...c.headers };
  return convertDocument({ body: readFileSync(c.input), contentType: c.content_type, headers, url: c.url });
}

/** The JSON side file: metadata as the wire names it, and warnings; stable key order, LF, one trailing newline. */
export function expectedJson(result: ConvertResult): string {
  return `${JSON.stringify({ metadata: metadataOnWire(result.metadata), warnings: result.warnings }, null, 2)}\n`;
}

/** A short unified-style diff around the first differing line. */
export function firstDifference(expected: string, actual: string): string {
  const a = expected.split('\n');
  const b = actual.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 3);
  const lines = [`first difference at line ${i + 1}:`];
  for (let k = from; k < i; k++) lines.push(`  ${a[k]}`);
  for (let k = i; k < Math.min(a.length, i + 4); k++) lines.push(`- ${a[k]}`);
  for (let k = i; k < Math.min(b.length, i + 4); k++) lines.push(`+ ${b[k]}`);
  return lines.join('\n');
}
