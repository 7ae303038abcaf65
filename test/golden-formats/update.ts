/**
 * The only writer of golden-format expectations:
 *   npx tsx test/golden-formats/update.ts <case> [<case>…] | --all
 * Writes expected.md and expected.json (LF, one trailing newline); review the diff.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectedJson, loadCases, runCase } from './cases.js';

const args = process.argv.slice(2);
if (args.length === 0) {
  console.error('usage: update.ts <case>… | --all');
  process.exit(2);
}
const cases = loadCases().filter((c) => args.includes('--all') || args.includes(c.name));
for (const c of cases) {
  const result = await runCase(c);
  writeFileSync(join(c.dir, 'expected.md'), result.markdown);
  writeFileSync(join(c.dir, 'expected.json'), expectedJson(result));
  console.log(`updated ${c.name}`);
}
