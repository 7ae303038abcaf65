// Page-type classifier accuracy on wcxb-dev (1,497 pages with a human page_type): runs the
// extraction engine on every page and compares metadata.page_type with the label.
// Prints accuracy, per-type recall and precision, and the confusion matrix (rows: label,
// columns: prediction). The classifier never answers `other` for a labelled page on purpose
// (an `other` answer counts as wrong).
//   node bench/extract-page-types.mjs [--data ../shared/bench/wcxb-dev]
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EVAL = process.env.EXTRACT_EVAL_DIR ?? path.resolve(ROOT, '../shared/tools/extract-eval');
const dataArg = process.argv.indexOf('--data');
const DATA = dataArg > 0 ? path.resolve(process.argv[dataArg + 1]) : path.resolve(ROOT, '../shared/bench/wcxb-dev');
const { htmlToMarkdown } = await import('../src/convert/html/index.ts');
const { loadDataset } = await import(pathToFileURL(path.join(EVAL, 'src/dataset.mjs')).href);

const TYPES = ['article', 'forum', 'product', 'collection', 'listing', 'documentation', 'service'];
const COLUMNS = [...TYPES, 'other'];
const pages = loadDataset({ dataDir: DATA }).filter((p) => p.type);
const confusion = new Map(TYPES.map((t) => [t, new Map(COLUMNS.map((c) => [c, 0]))]));
let correct = 0;
for (const page of pages) {
  const predicted = htmlToMarkdown(page.html, page.url || 'http://localhost/').metadata.pageType ?? 'other';
  const row = confusion.get(page.type);
  if (!row) continue;
  row.set(predicted, (row.get(predicted) ?? 0) + 1);
  if (predicted === page.type) correct++;
}

const pct = (x) => `${(100 * x).toFixed(1)} %`;
console.log(`page-type accuracy on ${path.basename(DATA)}: ${pct(correct / pages.length)} (${correct} of ${pages.length} pages)\n`);
console.log('| label | pages | recall | precision |');
console.log('|---|---|---|---|');
for (const t of TYPES) {
  const row = confusion.get(t);
  const total = [...row.values()].reduce((a, b) => a + b, 0);
  let predictedAs = 0;
  for (const r of confusion.values()) predictedAs += r.get(t) ?? 0;
  console.log(`| ${t} | ${total} | ${pct(row.get(t) / total)} | ${predictedAs ? pct(row.get(t) / predictedAs) : 'n/a'} |`);
}
console.log(`\n| label \\ predicted | ${COLUMNS.join(' | ')} |`);
console.log(`|---|${COLUMNS.map(() => '---').join('|')}|`);
for (const t of TYPES) console.log(`| ${t} | ${COLUMNS.map((c) => confusion.get(t).get(c)).join(' | ')} |`);
