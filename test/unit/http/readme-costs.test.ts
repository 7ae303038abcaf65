import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { OperationSpec } from '../../../src/http/operation-spec.js';
import { OPERATIONS } from '../../../src/http/operations.js';

/** The README's operations table states each cost in prose; the registry is the truth. */
describe('README "Operations" costs agree with the operation registry', () => {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const rows = [...readme.matchAll(/^\| `(GET|POST) (\/v1\/[a-z-]+)` \|[^|]*\| (\d+)[^|]*\|$/gm)];

  it('lists every /v1 operation with the credits it costs', () => {
    const documented = Object.fromEntries(rows.map((m) => [`${m[1]} ${m[2]}`, Number(m[3])]));
    const registry = Object.fromEntries(
      (Object.values(OPERATIONS) as OperationSpec[])
        .filter((op) => op.path.startsWith('/v1/'))
        .map((op) => [`${op.method} ${op.path}`, op.cost?.credits ?? 0]),
    );
    expect(documented).toEqual(registry);
  });
});
