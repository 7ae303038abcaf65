import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { OperationSpec } from '../../../src/http/operation-spec.js';
import { operationName } from '../../../src/http/operation-spec.js';
import { OPERATIONS } from '../../../src/http/operations.js';

/**
 * The cost tables in prose — README "Operations", docs/operations.md and the SDK README —
 * state each cost by hand; the registry is the truth. A cost is the credits and, when the
 * registry charges per URL, "per URL".
 */
const read = (path: string): string => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
const v1 = (Object.values(OPERATIONS) as OperationSpec[]).filter((op) => op.path.startsWith('/v1/'));
const costOf = (op: OperationSpec): string => `${op.cost?.credits ?? 0}${op.cost?.per === 'url' ? ' per URL' : ''}`;
/** `1 per URL, all-or-nothing` → `1 per URL`; `0 (takes a slot)` → `0`; `1 per call` → `1`. */
const costIn = (cell: string): string => {
  const m = /^\s*(\d+)( per URL)?/.exec(cell);
  if (!m) throw new Error(`no cost in "${cell}"`);
  return `${m[1]}${m[2] ?? ''}`;
};

describe('cost tables in the docs agree with the operation registry', () => {
  it('README "Operations": every /v1 operation with its cost', () => {
    const rows = [...read('README.md').matchAll(/^\| `(GET|POST) (\/v1\/[a-z-]+)` \|[^|]*\|([^|]*)\|$/gm)];
    const documented = Object.fromEntries(rows.map((m) => [`${m[1]} ${m[2]}`, costIn(m[3] as string)]));
    expect(documented).toEqual(Object.fromEntries(v1.map((op) => [`${op.method} ${op.path}`, costOf(op)])));
  });

  it('docs/operations.md: every /v1 POST but read (described in the README and read-options.md) with its cost', () => {
    const rows = [...read('docs/operations.md').matchAll(/^\| `([a-z-]+)` \|([^|]*)\|/gm)];
    const documented = Object.fromEntries(rows.map((m) => [m[1], costIn(m[2] as string)]));
    const expected = v1.filter((op) => op.method === 'POST' && op !== OPERATIONS.read);
    expect(documented).toEqual(Object.fromEntries(expected.map((op) => [operationName(op), costOf(op)])));
  });

  it('packages/sdk/README.md: every /v1 operation a client method calls, with its cost', () => {
    const rows = [...read('packages/sdk/README.md').matchAll(/^\| `[a-zA-Z]+\(.*?\)` \| `(GET|POST) (\/v1\/[a-z-]+)`[^|]*\|([^|]*)\|$/gm)];
    expect(rows.length).toBeGreaterThanOrEqual(v1.length);
    const documented = Object.fromEntries(rows.map((m) => [`${m[1]} ${m[2]}`, costIn(m[3] as string)]));
    expect(documented).toEqual(Object.fromEntries(v1.map((op) => [`${op.method} ${op.path}`, costOf(op)])));
  });

  it('a wrong cost in a table fails the check (planted)', () => {
    expect(costIn(' 2 per URL, failed items refunded ')).not.toBe(costOf(OPERATIONS.batch));
    expect(costIn(' 1 ')).not.toBe(costOf(OPERATIONS.batch));
  });
});
