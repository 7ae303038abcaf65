// Interleaved speed comparison: pith vs readability-linkedom in ONE process on the 181
// benchmark pages, alternating which runs first on each page, so that load from other
// processes on a shared machine hits both alike. Reports wall and CPU time per page.
//   node bench/extract-speed.mjs [--passes 3]
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { register } from 'tsx/esm/api';

register();
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EVAL = process.env.EXTRACT_EVAL_DIR ?? path.resolve(ROOT, '../shared/tools/extract-eval');
const DATA = process.env.EXTRACT_EVAL_DATA ?? path.resolve(ROOT, '../shared/bench/article-extraction');
const { htmlToMarkdown } = await import('../src/convert/html/index.ts');
const readability = await (await import(pathToFileURL(path.join(EVAL, 'src/extractors/readability-linkedom.mjs')).href)).create();
const passes = Number(process.argv[process.argv.indexOf('--passes') + 1]) || 3;

const truth = JSON.parse(readFileSync(path.join(DATA, 'ground-truth.json'), 'utf8'));
const pages = readdirSync(path.join(DATA, 'html'))
  .sort()
  .map((f) => {
    const id = f.replace(/\.html\.gz$/, '');
    return { id, url: truth[id]?.url ?? 'http://localhost/', html: gunzipSync(readFileSync(path.join(DATA, 'html', f))).toString('utf8') };
  });
const engines = {
  pith: (p) => htmlToMarkdown(p.html, p.url).markdown,
  'readability-linkedom': (p) => readability.extract({ html: p.html, url: p.url }),
};
const names = Object.keys(engines);
const wall = Object.fromEntries(names.map((n) => [n, pages.map(() => [])]));
const cpu = Object.fromEntries(names.map((n) => [n, pages.map(() => [])]));
for (const p of pages.slice(0, 10)) for (const n of names) engines[n](p); // warm-up
for (let pass = 0; pass < passes; pass++) {
  for (let i = 0; i < pages.length; i++) {
    const order = (i + pass) % 2 === 0 ? names : [...names].reverse();
    for (const n of order) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      engines[n](pages[i]);
      const t1 = performance.now();
      const c1 = process.cpuUsage(c0);
      wall[n][i].push(t1 - t0);
      cpu[n][i].push((c1.user + c1.system) / 1000);
    }
    await new Promise((r) => setImmediate(r));
  }
}
const med = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const perPage = (m, n) => m[n].map(med);
const row = (label, m) => {
  const a = perPage(m, 'pith');
  const b = perPage(m, 'readability-linkedom');
  const ratios = a.map((x, i) => x / b[i]);
  return `| ${label} | ${med(a).toFixed(2)} | ${med(b).toFixed(2)} | ${(med(a) / med(b)).toFixed(3)} | ${med(ratios).toFixed(3)} |`;
};
console.log(`${pages.length} pages, ${passes} interleaved passes, Node ${process.version}\n`);
console.log('| time per page | pith median ms | readability-linkedom median ms | ratio of medians | median per-page ratio |');
console.log('|---|---|---|---|---|');
console.log(row('wall', wall));
console.log(row('CPU', cpu));
