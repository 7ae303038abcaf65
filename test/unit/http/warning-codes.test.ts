import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WARNING_CODES } from '../../../src/convert/types.js';
import { ERROR_CODES } from '../../../src/errors.js';
import { warningSchema } from '../../../src/http/schemas.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The codes in the first column of docs/errors.md's "Warnings" table (a row may name two). */
function documentedWarnings(): string[] {
  const md = readFileSync(join(root, 'docs/errors.md'), 'utf8');
  const section = md.slice(md.indexOf('## Warnings'));
  const table = section.slice(0, section.indexOf('\n## ') > 0 ? section.indexOf('\n## ') : undefined);
  return table
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([A-Z_]+)`/g)].map((m) => m[1] as string));
}

describe('warning codes: one list (WARNING_CODES), the docs and the code agree', () => {
  it("docs/errors.md's warnings table lists exactly WARNING_CODES", () => {
    expect(documentedWarnings().sort()).toEqual([...WARNING_CODES].sort());
  });

  it('a code missing from the docs, or one only in the docs, fails that check (planted)', () => {
    expect(documentedWarnings().slice(1).sort()).not.toEqual([...WARNING_CODES].sort());
    expect([...documentedWarnings(), 'PLANTED'].sort()).not.toEqual([...WARNING_CODES].sort());
  });

  it('the OpenAPI description of warnings[].code names every code', () => {
    for (const code of WARNING_CODES) expect(warningSchema.properties.code.description).toContain(code);
  });

  it('every `code: "…"` literal raised in src/ is a warning or an error code, and every warning code is raised', () => {
    const raised = new Set<string>();
    for (const file of sourceFiles(join(root, 'src'))) {
      if (file.endsWith(join('convert', 'types.ts'))) continue; // the list itself
      for (const m of readFileSync(file, 'utf8').matchAll(/\bcode: '([A-Z][A-Z0-9_]+)'/g)) raised.add(m[1] as string);
    }
    // Node-style codes on Error objects and process warnings are not answer codes
    const answerCodes = [...raised].filter((c) => !c.startsWith('ERR_') && !c.startsWith('PITH_'));
    const known = new Set<string>([...WARNING_CODES, ...Object.keys(ERROR_CODES)]);
    expect(answerCodes.filter((c) => !known.has(c))).toEqual([]);
    expect(WARNING_CODES.filter((c) => !raised.has(c))).toEqual([]);
  });
});
