/**
 * The one writer of golden files, for both sets (CONTRIBUTING.md "Golden files"):
 *   npm run golden:update -- <name> [<name>…]   HTML cases (test/golden/) or format cases (test/golden-formats/)
 *   npm run golden:update -- --all             every case of both sets
 * Review every changed expected.md before committing; it is the product.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as formats from '../test/golden-formats/cases.js';
import * as html from '../test/golden/cases.js';

const args = process.argv.slice(2);
if (args.length === 0) {
  console.error('usage: npm run golden:update -- <case>... | --all');
  process.exit(2);
}
const all = args.includes('--all');
const htmlCases = html.listCases().filter((c) => all || args.includes(c.slug));
const formatCases = formats.loadCases().filter((c) => all || args.includes(c.name));
const unknown = args.filter((a) => a !== '--all' && !htmlCases.some((c) => c.slug === a) && !formatCases.some((c) => c.name === a));
if (unknown.length > 0) {
  console.error(`no golden case named ${unknown.join(', ')}`);
  process.exit(2);
}
for (const c of htmlCases) {
  const r = html.runCase(c);
  writeFileSync(join(c.dir, html.expectedFile(c)), html.outputOf(c, r));
  writeFileSync(join(c.dir, 'expected-meta.json'), html.metaSnapshot(r));
  console.log(`updated ${c.slug} (${r.markdown.length} chars${r.warnings.length ? `, ${r.warnings.map((w) => w.code).join(',')}` : ''})`);
}
for (const c of formatCases) {
  const result = await formats.runCase(c);
  writeFileSync(join(c.dir, 'expected.md'), result.markdown);
  writeFileSync(join(c.dir, 'expected.json'), formats.expectedJson(result));
  console.log(`updated ${c.name}`);
}
