/**
 * Format conversion speed: ms per MB for PDF, CSV and JSON through convertDocument, and
 * PDF side by side with poppler's `pdftotext` on the same files in the same run
 * (interleaved: pith with a worker per file, pith with a warm worker pool, pdftotext, …),
 * plus how similar the two texts are.
 *
 *   npx tsx scripts/make-pdf-fixtures.ts --bench   # once: the ~10 MB / 500-page PDF
 *   npx tsx bench/formats.ts [--runs N]            # needs `pdftotext` (apt-get install poppler-utils)
 *
 * Similarity: word-bag F1 (same words, any order) and word-bigram Dice (same local
 * order) between pith's Markdown (syntax stripped) and pdftotext's text, both
 * lower-cased and split on non-letters. JSON goes to bench/results/formats.json.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertDocument } from '../src/convert/index.js';
import { PdfWorkerPool } from '../src/convert/workers/pdf-worker.js';

const ROOT = join(import.meta.dirname, '..');
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;
const MB = 1024 * 1024;

interface Input {
  name: string;
  body: Buffer;
  contentType: string;
  path?: string;
}

function pdfInputs(): Input[] {
  const files = [
    ['two-column.pdf', join(ROOT, 'test/fixtures/formats/two-column.pdf')],
    ['report-50.pdf', join(ROOT, 'test/fixtures/formats/report-50.pdf')],
    ['report-500.pdf (10 MB)', join(tmpdir(), 'pith-bench-formats', 'report-500.pdf')],
    // Real-world PDFs when the machine has them (Debian doc packages): texinfo and DocBook output.
    ['libtasn1.pdf (texinfo)', '/usr/share/doc/libtasn1-doc/libtasn1.pdf'],
    ['shared-mime-info-spec.pdf (DocBook)', '/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf'],
  ] as const;
  return files
    .filter(([, path]) => existsSync(path))
    .map(([name, path]) => ({ name, body: readFileSync(path), contentType: 'application/pdf', path }));
}

function csvInput(): Input {
  const rows = ['id,name,city,amount,date,notes'];
  let size = 0;
  for (let i = 0; size < 10 * MB - 200; i++) {
    const row = `${i},"Name ${i % 977}",City ${i % 131},${(i * 7.31).toFixed(2)},2026-0${(i % 9) + 1}-1${i % 10},"a note, with a comma"`;
    rows.push(row);
    size += row.length + 1;
  }
  return { name: 'table.csv (10 MB)', body: Buffer.from(rows.join('\n')), contentType: 'text/csv' };
}

function jsonInput(): Input {
  const items: string[] = [];
  let size = 0;
  for (let i = 0; size < 10 * MB - 200; i++) {
    const item = JSON.stringify({ id: i, name: `item ${i}`, tags: ['a', 'b'], price: i * 1.5, nested: { ok: i % 2 === 0 } });
    items.push(item);
    size += item.length + 1;
  }
  return { name: 'items.json (10 MB, one line)', body: Buffer.from(`[${items.join(',')}]`), contentType: 'application/json' };
}

async function timePith(input: Input, pool?: PdfWorkerPool): Promise<{ ms: number; markdown: string }> {
  const start = performance.now();
  const result = await convertDocument(
    {
      body: input.body,
      contentType: input.contentType,
      headers: { 'content-type': input.contentType },
      url: `https://bench.test/${input.name}`,
    },
    { pdf: { pool } },
  );
  return { ms: performance.now() - start, markdown: result.markdown };
}

function timePdftotext(path: string): { ms: number; text: string } {
  const start = performance.now();
  const text = execFileSync('pdftotext', ['-enc', 'UTF-8', path, '-'], { maxBuffer: 256 * MB }).toString('utf8');
  return { ms: performance.now() - start, text };
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

function stripMarkdown(md: string): string {
  return md
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/^- /gm, '')
    .replace(/\\([\\`*_[\]<>#|-])/g, '$1');
}

function bag(list: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of list) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}

/** Multiset overlap of a and b as F1 (1 = same words with the same counts). */
function overlapF1(a: string[], b: string[]): number {
  const ma = bag(a);
  const mb = bag(b);
  let common = 0;
  for (const [w, n] of ma) common += Math.min(n, mb.get(w) ?? 0);
  return a.length + b.length === 0 ? 1 : (2 * common) / (a.length + b.length);
}

const bigrams = (list: string[]): string[] => list.slice(1).map((w, i) => `${list[i]} ${w}`);

function stats(values: number[]): { median: number; min: number; max: number } {
  const sorted = [...values].sort((x, y) => x - y);
  return { median: sorted[Math.floor(sorted.length / 2)] ?? 0, min: sorted[0] ?? 0, max: sorted[sorted.length - 1] ?? 0 };
}

const fmt = (n: number, digits = 0): string => n.toFixed(digits);

async function main(): Promise<void> {
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim();
  console.log(
    `Node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}, commit ${commit}, ${RUNS} runs each (median, min–max)\n`,
  );
  const pdfs = pdfInputs();
  if (!pdfs.some((p) => p.name.startsWith('report-500')))
    console.log('(no 10 MB PDF: run `npx tsx scripts/make-pdf-fixtures.ts --bench` first)\n');
  const results: unknown[] = [];

  console.log(
    '| PDF | size | pages | pith ms (worker per file) | pith ms (warm pool) | pdftotext ms | pith pool / pdftotext | pith pool ms/MB | word F1 | bigram Dice |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  const pool = new PdfWorkerPool({ maxIdle: 1 });
  for (const input of pdfs) {
    const pith: number[] = [];
    const pooled: number[] = [];
    const ref: number[] = [];
    let markdown = '';
    let text = '';
    await timePith(input); // warm-up: module load, JIT
    await timePith(input, pool);
    for (let r = 0; r < RUNS; r++) {
      const p = await timePith(input);
      pith.push(p.ms);
      const q = await timePith(input, pool);
      pooled.push(q.ms);
      markdown = q.markdown;
      const t = timePdftotext(input.path as string);
      ref.push(t.ms);
      text = t.text;
    }
    const mb = input.body.length / MB;
    const a = words(stripMarkdown(markdown));
    const b = words(text);
    const f1 = overlapF1(a, b);
    const dice = overlapF1(bigrams(a), bigrams(b));
    const pages = (text.match(/\f/g) ?? []).length;
    const sp = stats(pith);
    const sq = stats(pooled);
    const sr = stats(ref);
    const range = (x: { median: number; min: number; max: number }): string => `${fmt(x.median)} (${fmt(x.min)}–${fmt(x.max)})`;
    console.log(
      `| ${input.name} | ${mb >= 1 ? `${fmt(mb, 2)} MB` : `${fmt(input.body.length / 1024, 1)} KB`} | ${pages} | ${range(sp)} | ${range(sq)} | ${range(sr)} | ${fmt(sq.median / sr.median, 2)} | ${fmt(sq.median / mb)} | ${fmt(f1, 3)} | ${fmt(dice, 3)} |`,
    );
    results.push({ kind: 'pdf', name: input.name, mb, pages, pith, pooled, pdftotext: ref, f1, dice });
  }
  await pool.close();

  console.log('\n| input | MB | ms (median, min–max) | ms/MB | Markdown MB | warnings |');
  console.log('|---|---|---|---|---|---|');
  for (const input of [csvInput(), jsonInput()]) {
    const times: number[] = [];
    let markdown = '';
    let warnings = '';
    await timePith(input);
    for (let r = 0; r < RUNS; r++) {
      const start = performance.now();
      const result = await convertDocument({
        body: input.body,
        contentType: input.contentType,
        headers: {},
        url: `https://bench.test/${input.name}`,
      });
      times.push(performance.now() - start);
      markdown = result.markdown;
      warnings = result.warnings.map((w) => w.code).join(', ');
    }
    const mb = input.body.length / MB;
    const s = stats(times);
    console.log(
      `| ${input.name} | ${fmt(mb, 2)} | ${fmt(s.median)} (${fmt(s.min)}–${fmt(s.max)}) | ${fmt(s.median / mb)} | ${fmt(markdown.length / MB, 2)} | ${warnings || '—'} |`,
    );
    results.push({ kind: input.contentType, name: input.name, mb, ms: times });
  }

  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(
    join(ROOT, 'bench', 'results', 'formats.json'),
    JSON.stringify({ node: process.version, cpu: cpus()[0]?.model, commit, runs: RUNS, results }, null, 2),
  );
}

await main();
