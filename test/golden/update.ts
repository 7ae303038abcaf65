import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expectedFile, listCases, loadCase, metaSnapshot, outputOf, runCase } from './cases.js';

/**
 * The only writer of golden files: `npm run golden:update -- <slug> [<slug>…]` or `-- --all`.
 * Review every changed expected.md before committing; it is the product.
 */
const args = process.argv.slice(2);
if (args.length === 0) {
  console.error('usage: npm run golden:update -- <slug>... | --all');
  process.exit(2);
}
const cases = args.includes('--all') ? listCases() : args.map((slug) => loadCase(slug));
for (const c of cases) {
  const r = runCase(c);
  writeFileSync(path.join(c.dir, expectedFile(c)), outputOf(c, r));
  writeFileSync(path.join(c.dir, 'expected-meta.json'), metaSnapshot(r));
  console.log(`updated ${c.slug} (${r.markdown.length} chars${r.warnings.length ? `, ${r.warnings.map((w) => w.code).join(',')}` : ''})`);
}
