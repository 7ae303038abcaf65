// CPU and wall time of pith's HTML engine on hostile or huge synthetic pages
// (the robustness tests check the results; this script reports the time).
//   node bench/extract-robustness.mjs
import { register } from 'tsx/esm/api';

register();
const { htmlToMarkdown } = await import('../src/convert/html/index.ts');
const cases = {
  'nesting 100,000 divs': () => `${'<div>'.repeat(100_000)}deep text${'</div>'.repeat(100_000)}`,
  'nesting 20,000 × 7 unclosed tags': () => '<div><span><blockquote><ul><li><table><tr><td>'.repeat(20_000),
  '10 MB: 100,000 paragraphs': () =>
    `<html><body>${'<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor. <a href="/x">link</a></p>\n'.repeat(100_000)}</body></html>`,
  '10 MB: one <pre>': () => `<pre>${'line of code here\n'.repeat(550_000)}</pre>`,
  '10 MB: 120,000 images': () =>
    `<div>${'<img src="/a.png" srcset="/a1.png 1x, /a2.png 2x" alt="an image" class="lazy img">'.repeat(120_000)}</div>`,
  '9 MB: 300,000 table rows': () => `<table>${'<tr><td>a|b</td><td>c</td></tr>'.repeat(300_000)}</table>`,
  '9 MB: 250,000 nested list items': () => `<ul>${'<li>item <ul><li>sub</li></ul></li>'.repeat(250_000)}</ul>`,
  '100 KB binary': () => Buffer.from(Array.from({ length: 100_000 }, (_, i) => (i * 7919) % 256)).toString('latin1'),
};
console.log(`Node ${process.version}\n\n| input | MB | wall ms | CPU ms | result |\n|---|---|---|---|---|`);
for (const [name, make] of Object.entries(cases)) {
  const html = make();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let result;
  try {
    const r = htmlToMarkdown(html, 'http://x.test/');
    result = `${r.markdown.length.toLocaleString('en')} chars${r.warnings.length ? `, ${r.warnings.map((w) => w.code).join(',')}` : ''}`;
  } catch (err) {
    result = `throws ${err.code ?? err.message}`;
  }
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  console.log(
    `| ${name} | ${(html.length / 1e6).toFixed(1)} | ${wall.toFixed(0)} | ${((cpu.user + cpu.system) / 1000).toFixed(0)} | ${result} |`,
  );
}
