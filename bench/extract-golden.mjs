// Per-page-type measurement on the golden set (test/golden): for every case, pith and
// readability-linkedom (the extract-eval reference) convert input.html; both outputs are
// scored against the reviewed expected.md with the benchmark's 4-shingle metric, and timed.
// pith scores 1.000 by construction (expected.md is its reviewed output); the interesting
// columns are what a Readability + Turndown pipeline keeps of the same reviewed content,
// and the time per page.
//   node bench/extract-golden.mjs [--repeat 5]
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EVAL = process.env.EXTRACT_EVAL_DIR ?? path.resolve(ROOT, '../shared/tools/extract-eval');
const { htmlToMarkdown } = await import('../src/convert/html/index.ts');
const { markdownToText } = await import(pathToFileURL(path.join(EVAL, 'src/md2text.mjs')).href);
const { pageTpFpFn, aggregate } = await import(pathToFileURL(path.join(EVAL, 'src/metric.mjs')).href);
const readability = await (await import(pathToFileURL(path.join(EVAL, 'src/extractors/readability-linkedom.mjs')).href)).create();

const repeat = Number(process.argv[process.argv.indexOf('--repeat') + 1]) || 5;
const dir = path.join(ROOT, 'test/golden');
const cases = readdirSync(dir, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, 'input.html')))
  .map((d) => {
    const metaPath = path.join(dir, d.name, 'meta.json');
    const meta = existsSync(metaPath) ? JSON.parse(readFileSync(metaPath, 'utf8')) : {};
    return {
      slug: d.name,
      type: meta.type ?? 'other',
      url: meta.url ?? `http://fakehost/${d.name}/`,
      html: readFileSync(path.join(dir, d.name, 'input.html'), 'utf8'),
      truth: markdownToText(readFileSync(path.join(dir, d.name, 'expected.md'), 'utf8')),
    };
  });

function timed(fn) {
  const times = [];
  let out = '';
  for (let i = 0; i < repeat; i++) {
    const t = performance.now();
    out = fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { out, ms: times[Math.floor(times.length / 2)] };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : 0;
};
// warm-up
for (const c of cases.slice(0, 10)) {
  htmlToMarkdown(c.html, c.url);
  readability.extract({ html: c.html, url: c.url });
}
const rows = new Map();
for (const c of cases) {
  const p = timed(() => htmlToMarkdown(c.html, c.url).markdown);
  let r;
  try {
    r = timed(() => readability.extract({ html: c.html, url: c.url }));
  } catch {
    r = { out: '', ms: 0 };
  }
  const row = rows.get(c.type) ?? { n: 0, p: [], r: [], pms: [], rms: [] };
  row.n++;
  row.p.push(pageTpFpFn(c.truth, markdownToText(p.out)));
  row.r.push(pageTpFpFn(c.truth, markdownToText(r.out)));
  row.pms.push(p.ms);
  row.rms.push(r.ms);
  rows.set(c.type, row);
}
const f = (x) => x.toFixed(3);
console.log(`golden set: ${cases.length} cases, ${repeat} timed runs each, Node ${process.version}\n`);
console.log('| page type | cases | pith F1 | readability-linkedom F1 (P / R) | pith median ms | readability median ms |');
console.log('|---|---|---|---|---|---|');
const all = { n: 0, p: [], r: [], pms: [], rms: [] };
for (const [type, row] of [...rows.entries()].sort()) {
  const a = aggregate(row.p);
  const b = aggregate(row.r);
  console.log(
    `| ${type} | ${row.n} | ${f(a.f1)} | ${f(b.f1)} (${f(b.precision)} / ${f(b.recall)}) | ${median(row.pms).toFixed(2)} | ${median(row.rms).toFixed(2)} |`,
  );
  all.n += row.n;
  all.p.push(...row.p);
  all.r.push(...row.r);
  all.pms.push(...row.pms);
  all.rms.push(...row.rms);
}
const a = aggregate(all.p);
const b = aggregate(all.r);
console.log(
  `| **all** | ${all.n} | ${f(a.f1)} | ${f(b.f1)} (${f(b.precision)} / ${f(b.recall)}) | ${median(all.pms).toFixed(2)} | ${median(all.rms).toFixed(2)} |`,
);
