import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedJson, firstDifference, loadCases, runCase } from './cases.js';

// Never writes: regenerate with `npm run golden:update -- <case>|--all` and review the diff.
describe('golden formats', () => {
  const cases = loadCases();
  it('has cases', () => {
    expect(cases.length).toBeGreaterThan(10);
  });
  for (const c of cases) {
    it(c.name, async () => {
      const mdPath = join(c.dir, 'expected.md');
      const jsonPath = join(c.dir, 'expected.json');
      expect(existsSync(mdPath), `${c.name}: expected.md missing`).toBe(true);
      expect(existsSync(jsonPath), `${c.name}: expected.json missing`).toBe(true);
      const result = await runCase(c);
      const expectedMd = readFileSync(mdPath, 'utf8');
      if (result.markdown !== expectedMd) expect.fail(`${c.name}/expected.md differs\n${firstDifference(expectedMd, result.markdown)}`);
      const expectedMeta = readFileSync(jsonPath, 'utf8');
      const actualMeta = expectedJson(result);
      if (actualMeta !== expectedMeta) expect.fail(`${c.name}/expected.json differs\n${firstDifference(expectedMeta, actualMeta)}`);
    });
  }
});
