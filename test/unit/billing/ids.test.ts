import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createIdFactory } from '../../../src/billing/ids.js';

/** randomBytes that hands out the given fills in turn. */
const scripted = (...fills: number[]) => {
  let i = 0;
  return (n: number): Buffer => Buffer.alloc(n, fills[i++] ?? 0xee);
};

describe('createIdFactory', () => {
  it('a wrapped counter never mints an id again: the instance part is drawn anew (forced wrap)', () => {
    // the process's first id…
    const first = createIdFactory(scripted(0xaa))('chg');
    expect(first).toBe(`chg_${'aa'.repeat(8)}00000001`);
    // …and the same process 2^32 ids later: the counter wraps to 1, the instance part does not repeat
    const late = createIdFactory(scripted(0xaa, 0xbb), { startCounter: 0xffff_ffff });
    const wrapped = late('chg');
    expect(wrapped).toBe(`chg_${'bb'.repeat(8)}00000001`);
    expect(wrapped).not.toBe(first);
    expect(late('chg')).toBe(`chg_${'bb'.repeat(8)}00000002`);
  });

  it('mints distinct ids of a fixed shape across the wrap', () => {
    const newId = createIdFactory(randomBytes, { startCounter: 0xffff_fff0 });
    const ids = Array.from({ length: 40 }, () => newId('req'));
    expect(new Set(ids).size).toBe(40);
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{24}$/);
  });
});
