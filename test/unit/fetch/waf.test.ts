import { describe, expect, it } from 'vitest';
import { detectWaf, WAF_VENDORS } from '../../../src/fetch/waf.js';
import { WAF_FIXTURES } from './waf-fixtures.js';

describe('detectWaf', () => {
  it.each(WAF_FIXTURES)('$name → $vendor', ({ status, headers, body, vendor }) => {
    expect(detectWaf({ status, headers, body })).toBe(vendor);
  });

  it('every vendor has at least one fixture', () => {
    const covered = new Set(WAF_FIXTURES.map((f) => f.vendor));
    for (const v of WAF_VENDORS) expect(covered.has(v), v).toBe(true);
  });

  it('a plain 403 with an empty body is not a firewall', () => {
    expect(detectWaf({ status: 403, headers: {}, body: '' })).toBeNull();
  });
});
