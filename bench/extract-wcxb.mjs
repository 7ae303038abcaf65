// One in-process pass of pith's engine over wcxb-dev, scored with extract-eval's own code:
// word F1 per page type (md2text + wordF1, as `extract-eval --data wcxb-dev` computes it),
// tokens ÷ truth per type (o200k, raw Markdown), the page-type classifier's accuracy, and
// (with --save) every page's numbers as JSON, so two engine versions can be diffed page by
// page. The quick loop while working on extraction; the harness run stays the reference.
// --link-mode / --image-mode pass the read options of the same names (the leanest output a
// user can ask for: `--link-mode text --image-mode alt`).
//   node bench/extract-wcxb.mjs [--data DIR] [--type product] [--save out.json] [--diff before.json]
//                               [--link-mode inline|references|text] [--image-mode keep|alt|drop]
import { writeFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EVAL = process.env.EXTRACT_EVAL_DIR ?? path.resolve(ROOT, 'bench/.extract-eval');
const arg = (name) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const DATA = path.resolve(arg('--data') ?? path.resolve(ROOT, '../shared/bench/wcxb-dev'));
const ONLY_TYPE = arg('--type');
const SAVE = arg('--save');
const DIFF = arg('--diff');
const OPTIONS = { linkMode: arg('--link-mode'), imageMode: arg('--image-mode') };

const { htmlToMarkdown } = await import('../src/convert/html/index.ts');
const load = (rel) => import(pathToFileURL(path.join(EVAL, rel)).href);
const { loadDataset } = await load('src/dataset.mjs');
const { markdownToText } = await load('src/md2text.mjs');
const { wordF1 } = await load('src/metric.mjs');
const { countTokens } = await import(pathToFileURL(path.join(EVAL, 'node_modules/gpt-tokenizer/esm/encoding/o200k_base.js')).href);

const pages = loadDataset({ dataDir: DATA }).filter((p) => p.type && (!ONLY_TYPE || p.type === ONLY_TYPE));
const rows = [];
const started = performance.now();
for (const page of pages) {
  const out = htmlToMarkdown(page.html, page.url || 'http://localhost/', OPTIONS);
  const truth = page.truth ?? '';
  rows.push({
    id: page.id,
    type: page.type,
    predicted: out.metadata.pageType ?? 'other',
    f1: wordF1(truth, markdownToText(out.markdown)),
    outTokens: truth.trim() ? countTokens(out.markdown) : null,
    truthTokens: truth.trim() ? countTokens(truth) : null,
    empty: out.markdown.trim() === '',
  });
}
const ms = performance.now() - started;

const groups = new Map([['all', rows]]);
for (const r of rows) {
  if (!groups.has(r.type)) groups.set(r.type, []);
  groups.get(r.type).push(r);
}
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
const tokenRatio = (rs) => {
  const scored = rs.filter((r) => r.truthTokens);
  return scored.reduce((a, r) => a + r.outTokens, 0) / (scored.reduce((a, r) => a + r.truthTokens, 0) || 1);
};
console.log(`${rows.length} pages of ${path.basename(DATA)} in ${(ms / 1000).toFixed(1)} s\n`);
console.log('| type | pages | word F1 | tokens ÷ truth | classified right | empty |');
console.log('|---|---|---|---|---|---|');
for (const [type, rs] of [...groups].sort(([a], [b]) => (a === 'all' ? -1 : b === 'all' ? 1 : a.localeCompare(b)))) {
  const right = rs.filter((r) => r.predicted === r.type).length;
  console.log(
    `| ${type} | ${rs.length} | ${mean(rs.map((r) => r.f1)).toFixed(3)} | ${tokenRatio(rs).toFixed(2)} | ` +
      `${((100 * right) / rs.length).toFixed(1)} % | ${rs.filter((r) => r.empty).length} |`,
  );
}
if (SAVE) writeFileSync(SAVE, JSON.stringify(rows));
if (DIFF) {
  const before = new Map(JSON.parse(readFileSync(DIFF, 'utf8')).map((r) => [r.id, r]));
  const moved = rows
    .map((r) => ({ r, b: before.get(r.id) }))
    .filter(({ r, b }) => b && Math.abs(r.f1 - b.f1) >= 0.02)
    .sort((x, y) => x.r.f1 - x.b.f1 - (y.r.f1 - y.b.f1));
  console.log(`\n${moved.length} pages moved by ≥ 0.02 word F1 (worst first):`);
  for (const { r, b } of moved) {
    console.log(
      `  ${(r.f1 - b.f1 >= 0 ? '+' : '') + (r.f1 - b.f1).toFixed(3)}  ${r.type.padEnd(13)} ${r.id}  ${b.f1.toFixed(3)} → ${r.f1.toFixed(3)}`,
    );
  }
}
