import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../../src/errors.js';
import { createFetcher } from '../../../src/fetch/fetcher.js';
import { parseIp } from '../../../src/fetch/ip.js';
import { isPublicAddress } from '../../../src/fetch/ssrf.js';
import { canonicalizeRequestUrl } from '../../../src/fetch/url.js';
import { memoryCache } from '../../e2e/fetch/helpers.js';

/** Address pool the fake resolver hands out: public and non-public mixed. */
const POOL = [
  '93.184.216.34',
  '10.0.0.1',
  '127.0.0.1',
  '169.254.169.254',
  '::1',
  'fd00::1',
  '2606:4700::1111',
  '::ffff:10.0.0.1',
  '64:ff9b::a00:1',
  '64:ff9b::808:808',
  '100.64.0.1',
  '8.8.8.8',
  '0.0.0.0',
  '2002:a00:1::1',
  '192.168.1.1',
];

const u32 = fc.integer({ min: 0, max: 0xffffffff });
const ipv4Spellings = u32.chain((n) =>
  fc.constantFrom(
    String(n),
    `0x${n.toString(16)}`,
    `0${n.toString(8)}`,
    [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.'),
    [n >>> 24, (n >>> 16) & 255, n & 0xffff].join('.'),
    [n >>> 24, n & 0xffffff].join('.'),
    [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].map((p) => `0x${p.toString(16)}`).join('.'),
    [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].map((p) => `0${p.toString(8)}`).join('.'),
  ),
);
const ipv6 = fc.ipV6().map((a) => `[${a}]`);
const mapped = fc.ipV4().map((a) => `[::ffff:${a}]`);
const nat64 = fc.ipV4().map((a) => `[64:ff9b::${a}]`);
const names = fc.oneof(fc.domain(), fc.constantFrom('localhost', 'a.internal', 'x.local', 'intranet', 'b.localhost.', 'EXAMPLE.com.'));
const host = fc.oneof(ipv4Spellings, ipv6, mapped, nat64, names, fc.ipV4());
const scheme = fc.constantFrom('http', 'https', 'HTTP', 'ftp', 'file', 'javascript', 'gopher', 'ws');
const structured = fc
  .tuple(
    scheme,
    fc.option(fc.constantFrom('user@', 'u:p@', 'a@b@'), { nil: '' }),
    host,
    fc.option(fc.integer({ min: 0, max: 70000 }), { nil: undefined }),
    fc.webPath(),
    fc.option(fc.webQueryParameters(), { nil: undefined }),
  )
  .map(
    ([s, cred, h, port, path, q]) => `${s}://${cred}${h}${port === undefined ? '' : `:${port}`}${path}${q === undefined ? '' : `?${q}`}`,
  );
const anyUrl = fc.oneof(
  structured,
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 80 }),
);

function hashPick(host: string): string {
  let h = 0;
  for (const ch of host) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return POOL[h % POOL.length]!;
}

describe('fuzz: URL strings', () => {
  it('canonicalizeRequestUrl never crashes, refuses only with INVALID_URL, and is idempotent', () => {
    fc.assert(
      fc.property(anyUrl, (raw) => {
        let out: string;
        try {
          out = canonicalizeRequestUrl(raw);
        } catch (err) {
          expect(err).toBeInstanceOf(ServiceError);
          expect((err as ServiceError).code).toBe('INVALID_URL');
          return;
        }
        const url = new URL(out);
        expect(['http:', 'https:']).toContain(url.protocol);
        expect(url.username + url.password).toBe('');
        expect(url.hash).toBe('');
        const ip = parseIp(url.hostname);
        if (ip) expect(isPublicAddress(url.hostname)).toBe(true);
        expect(canonicalizeRequestUrl(out)).toBe(out);
      }),
      { numRuns: 3000 },
    );
  });

  const dialled: string[] = [];
  const fetcher = createFetcher({
    allowPrivateTargets: [],
    cache: memoryCache(),
    now: () => 0,
    lookup: async (h) => {
      const address = hashPick(h);
      return [{ address, family: address.includes(':') ? 6 : 4 }];
    },
    // never opens a socket: records the address and refuses
    dial: (opts, cb) => {
      dialled.push(opts.hostname);
      cb(Object.assign(new Error('refused by test dialler'), { code: 'ECONNREFUSED' }), null);
    },
    limits: { totalTimeoutMs: 2_000 },
  });
  afterAll(() => fetcher.close());

  it('the fetcher never dials a non-public address and only fails with service errors', async () => {
    await fc.assert(
      fc.asyncProperty(anyUrl, async (raw) => {
        const before = dialled.length;
        try {
          await fetcher.fetch(raw);
        } catch (err) {
          expect(err).toBeInstanceOf(ServiceError);
        }
        for (const address of dialled.slice(before)) expect(isPublicAddress(address), address).toBe(true);
      }),
      { numRuns: 400 },
    );
    expect(dialled.length).toBeGreaterThan(0); // the property did exercise the dial path
  });
});
