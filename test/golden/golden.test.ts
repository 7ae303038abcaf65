import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedFile, firstDiff, listCases, metaSnapshot, outputOf, runCase } from './cases.js';

// Never writes: `npm run golden:update -- <slug>|--all` is the only writer.
const cases = listCases();

describe('golden pages', () => {
  it('has at least 40 pages and 20 other documents', () => {
    expect(cases.filter((c) => c.kind === 'page').length).toBeGreaterThanOrEqual(40);
    expect(cases.filter((c) => c.kind === 'document').length).toBeGreaterThanOrEqual(20);
  });

  for (const c of cases) {
    it(c.slug, async () => {
      const mdPath = path.join(c.dir, expectedFile(c));
      const metaPath = path.join(c.dir, 'expected-meta.json');
      if (!existsSync(mdPath) || !existsSync(metaPath)) {
        throw new Error(`${c.slug}: expected files missing; run npm run golden:update -- ${c.slug} and review them`);
      }
      const result = await runCase(c);
      const expectedMd = readFileSync(mdPath, 'utf8');
      const output = outputOf(c, result);
      if (output !== expectedMd) {
        throw new Error(`${c.slug}/${expectedFile(c)} differs\n${firstDiff(expectedMd, output)}`);
      }
      const expectedMeta = readFileSync(metaPath, 'utf8');
      const actualMeta = metaSnapshot(result);
      if (actualMeta !== expectedMeta) {
        throw new Error(`${c.slug}/expected-meta.json differs\n${firstDiff(expectedMeta, actualMeta)}`);
      }
    });
  }
});
