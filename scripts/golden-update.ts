/**
 * The one writer of golden files (CONTRIBUTING.md "Golden files"):
 *   npm run golden:update -- <slug> [<slug>…]   the cases of test/golden/ named
 *   npm run golden:update -- --all             every case
 * Review every changed expected file before committing; it is the product.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectedFile, listCases, metaSnapshot, outputOf, runCase } from '../test/golden/cases.js';

const args = process.argv.slice(2);
if (args.length === 0) {
  console.error('usage: npm run golden:update -- <case>... | --all');
  process.exit(2);
}
const all = args.includes('--all');
const cases = listCases().filter((c) => all || args.includes(c.slug));
const unknown = args.filter((a) => a !== '--all' && !cases.some((c) => c.slug === a));
if (unknown.length > 0) {
  console.error(`no golden case named ${unknown.join(', ')}`);
  process.exit(2);
}
for (const c of cases) {
  const r = await runCase(c);
  writeFileSync(join(c.dir, expectedFile(c)), outputOf(c, r));
  writeFileSync(join(c.dir, 'expected-meta.json'), metaSnapshot(r));
  console.log(`updated ${c.slug} (${r.markdown.length} chars${r.warnings.length ? `, ${r.warnings.map((w) => w.code).join(',')}` : ''})`);
}
