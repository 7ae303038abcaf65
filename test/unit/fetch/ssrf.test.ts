import { buildConnector } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SafeFetcher } from '../../../src/fetch/fetcher.js';
import { createFetcher } from '../../../src/fetch/fetcher.js';
import { parseIp } from '../../../src/fetch/ip.js';
import { isAllowedPrivate, isPublicAddress, nonPublicReason, parseAllowList } from '../../../src/fetch/ssrf.js';
import { canonicalizeRequestUrl } from '../../../src/fetch/url.js';
import type { Site } from '../../helpers/site.js';
import { startSite } from '../../helpers/site.js';
import { mapLookup, memoryCache } from '../../e2e/fetch/helpers.js';

/** Addresses a name may resolve to that must never be dialled. */
const FORBIDDEN_ADDRESSES = [
  // IPv4 special-purpose registry, multicast, reserved, broadcast
  '0.0.0.0',
  '0.1.2.3',
  '0.255.255.255',
  '10.0.0.1',
  '10.10.10.10',
  '10.255.255.255',
  '100.64.0.1',
  '100.100.100.200',
  '100.127.255.254',
  '127.0.0.1',
  '127.0.1.1',
  '127.255.255.254',
  '169.254.0.1',
  '169.254.169.254',
  '169.254.255.255',
  '172.16.0.1',
  '172.20.1.1',
  '172.31.255.255',
  '192.0.0.1',
  '192.0.0.9',
  '192.0.0.170',
  '192.0.2.1',
  '192.0.2.255',
  '192.31.196.1',
  '192.52.193.1',
  '192.88.99.1',
  '192.168.0.1',
  '192.168.1.1',
  '192.168.255.255',
  '192.175.48.6',
  '198.18.0.1',
  '198.19.255.255',
  '198.51.100.7',
  '203.0.113.9',
  '224.0.0.1',
  '224.0.0.251',
  '239.255.255.250',
  '240.0.0.1',
  '250.1.2.3',
  '255.255.255.254',
  '255.255.255.255',
  // IPv6
  '::',
  '::1',
  '0:0:0:0:0:0:0:1',
  '::ffff:127.0.0.1',
  '::ffff:10.0.0.1',
  '::ffff:169.254.169.254',
  '::ffff:8.8.8.8',
  '::ffff:7f00:1',
  '::127.0.0.1',
  '::8.8.8.8',
  '::ffff:0:a00:1',
  '64:ff9b::127.0.0.1',
  '64:ff9b::10.0.0.1',
  '64:ff9b::a9fe:a9fe',
  '64:ff9b::192.168.0.1',
  '64:ff9b:1::1',
  '64:ff9b:1:ffff::8.8.8.8',
  '2002:7f00:1::1',
  '2002:a00:1::',
  '2002:c0a8:101::1',
  '2002:a9fe:a9fe::1',
  '2002:6440:1::1',
  '2001::1',
  '2001:0:4136:e378::1',
  '2001:1::1',
  '2001:2::1',
  '2001:3::1',
  '2001:10::1',
  '2001:20::1',
  '2001:1ff::1',
  '2001:db8::1',
  '2001:db8:ffff::1',
  '3fff::1',
  '3fff:fff::1',
  '5f00::1',
  '2620:4f:8000::1',
  '100::1',
  '100:0:0:1::1',
  'fc00::1',
  'fd00::1',
  'fd12:3456:789a::1',
  'fdff:ffff:ffff::1',
  'fe80::1',
  'fe80::1%eth0',
  'febf:ffff::1',
  'fec0::1',
  'feff::1',
  'ff02::1',
  'ff05::1:3',
  'ff0e::101',
  '4000::1',
  '8000::1',
  'e000::1',
  '1::1',
];

/** URLs whose host is literally non-public, in the spellings the WHATWG parser accepts. */
const FORBIDDEN_URLS = [
  'http://127.0.0.1/',
  'http://127.1/',
  'http://0x7f000001/',
  'http://2130706433/',
  'http://017700000001/',
  'http://0177.0.0.1/',
  'http://0x7f.0.0.1/',
  'http://127.0.0.1./',
  'http://127.000.000.001/',
  'http://0/',
  'http://0.0.0.0:8080/',
  'http://[::1]/',
  'http://[0:0:0:0:0:0:0:1]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]/',
  'https://[::]/',
  'http://[fc00::1]/',
  'http://[fe80::1]/',
  'http://[64:ff9b::a9fe:a9fe]/',
  'http://[2002:a9fe:a9fe::]/',
  'http://localhost/',
  'http://LOCALHOST./',
  'http://localhost:3000/admin',
  'http://foo.localhost/',
  'http://metadata.google.internal/computeMetadata/v1/',
  'http://printer.local/',
  'http://intranet/',
  'http://router.home.arpa/',
  'http://nas.lan/',
  'http://x.corp/',
  'http://10.1/',
  'http://192.168.1/',
  'http://169.254.169.254/latest/meta-data/',
  'http://0xA9FEA9FE/',
  'http://3232235777/',
  'http://0x0a.0x00.0x00.0x01/',
  'http://%31%32%37.0.0.1/',
  'http://１２７.０.０.１/',
  'http://127。0。0。1/',
  'HTTP://127.0.0.1:80/',
  'http://[::127.0.0.1]/',
  'http://224.0.0.1/',
  'http://255.255.255.255/',
  'http://user@127.0.0.1/',
  'http://example.com@127.0.0.1/',
  'http://1.2.3.4.in-addr.arpa/',
];

interface Harness {
  fetcher: SafeFetcher;
  dialled: string[];
  lookups: string[];
}

function refusingHarness(resolve: Record<string, string | string[]>): Harness {
  const dialled: string[] = [];
  const { lookup, calls } = mapLookup(resolve);
  const fetcher = createFetcher({
    allowPrivateTargets: [],
    cache: memoryCache(),
    now: () => 0,
    lookup,
    // a connector that records and refuses: no socket is ever opened in these tests
    dial: (opts, cb) => {
      dialled.push(opts.hostname);
      cb(new Error(`dial must not be called (${opts.hostname})`), null);
    },
    limits: { totalTimeoutMs: 5_000 },
  });
  return { fetcher, dialled, lookups: calls };
}

describe('SSRF refusal table: names resolving to non-public addresses', () => {
  const table = FORBIDDEN_ADDRESSES.map((address, i) => ({ host: `t${i}.example.com`, address }));
  const resolve = Object.fromEntries(table.map((r) => [r.host, r.address]));
  let h: Harness;
  beforeAll(() => {
    h = refusingHarness(resolve);
  });
  afterAll(async () => {
    await h.fetcher.close();
  });

  it.each(table)('$host → $address is refused before any connection', async ({ host }) => {
    const before = h.dialled.length;
    await expect(h.fetcher.fetch(`http://${host}/page`)).rejects.toMatchObject({ code: 'INVALID_URL' });
    await expect(h.fetcher.fetchResource(`https://${host}/llms.txt`)).rejects.toMatchObject({ code: 'INVALID_URL' });
    expect(h.dialled.length).toBe(before);
  });

  it('address classification agrees with the table', () => {
    for (const { address } of table) expect(isPublicAddress(address), address).toBe(false);
  });

  it('has at least 100 rows together with the URL table', () => {
    expect(table.length + FORBIDDEN_URLS.length).toBeGreaterThanOrEqual(100);
  });
});

describe('SSRF refusal table: literal hosts in any spelling', () => {
  let h: Harness;
  beforeAll(() => {
    h = refusingHarness({});
  });
  afterAll(async () => {
    await h.fetcher.close();
  });

  it.each(FORBIDDEN_URLS)('%s is refused without lookup or connection', async (url) => {
    expect(() => canonicalizeRequestUrl(url)).toThrowError(expect.objectContaining({ code: 'INVALID_URL' }));
    await expect(h.fetcher.fetch(url)).rejects.toMatchObject({ code: 'INVALID_URL' });
    expect(h.dialled).toEqual([]);
    expect(h.lookups.filter((x) => /^(localhost|.*\.(local|internal|lan|corp|arpa|localhost))$/.test(x))).toEqual([]);
  });
});

describe('mixed answers and empty answers', () => {
  it('refuses when any resolved address is non-public, without dialling', async () => {
    const h = refusingHarness({ 'mixed.example.com': ['93.184.216.34', '10.0.0.1'], 'mixed6.example.com': ['2606:4700::1', 'fd00::1'] });
    await expect(h.fetcher.fetch('http://mixed.example.com/')).rejects.toMatchObject({ code: 'INVALID_URL' });
    await expect(h.fetcher.fetch('http://mixed6.example.com/')).rejects.toMatchObject({ code: 'INVALID_URL' });
    expect(h.dialled).toEqual([]);
    await h.fetcher.close();
  });

  it('an unknown name is URL_NOT_FOUND (NXDOMAIN), not a connection', async () => {
    const h = refusingHarness({});
    await expect(h.fetcher.fetch('http://nxdomain.example.com/')).rejects.toMatchObject({ code: 'URL_NOT_FOUND' });
    expect(h.dialled).toEqual([]);
    await h.fetcher.close();
  });
});

describe('public addresses are dialled exactly as resolved', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite((req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end(req.url === '/robots.txt' ? '' : 'ok');
    });
  });
  afterAll(async () => {
    await site.close();
  });

  const PUBLIC = [
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '11.0.0.1',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '169.253.255.255',
    '192.0.1.1',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '2606:4700::1111',
    '2a00:1450:4001::1',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '2001:200::1',
    '2620:4f:8001::1',
  ];

  it.each(PUBLIC)('%s passes the guard and is the address handed to the dialler', async (address) => {
    const dialled: string[] = [];
    const real = buildConnector({});
    const { lookup, calls } = mapLookup({ 'pub.example.com': address });
    const fetcher = createFetcher({
      allowPrivateTargets: [],
      cache: memoryCache(),
      now: () => 0,
      lookup,
      // records the checked address, then (test only) reaches the loopback site instead
      dial: (opts, cb) => {
        dialled.push(opts.hostname);
        real({ ...opts, hostname: '127.0.0.1', port: String(site.port) }, cb);
      },
    });
    const doc = await fetcher.fetch('http://pub.example.com/x');
    expect(doc.body.toString()).toBe('ok');
    expect(new Set(dialled)).toEqual(new Set([address]));
    expect(calls.length).toBe(dialled.length); // exactly one lookup per connection, never a second
    await fetcher.close();
  });
});

describe('DNS rebinding with a public first answer', () => {
  it('dials only the checked public address; the rebound private answer is refused, never dialled', async () => {
    const site = await startSite((req, res) => {
      res.setHeader('connection', 'close'); // each request needs a new connection and so a new resolution
      res.statusCode = req.url === '/robots.txt' ? 404 : 200;
      res.end('ok');
    });
    const answers = ['93.184.216.34', '10.0.0.7'];
    let lookups = 0;
    const dialled: string[] = [];
    const real = buildConnector({});
    const fetcher = createFetcher({
      allowPrivateTargets: [],
      cache: memoryCache(),
      now: () => 0,
      lookup: async () => {
        const address = answers[Math.min(lookups++, answers.length - 1)]!;
        return [{ address, family: 4 }];
      },
      dial: (opts, cb) => {
        dialled.push(opts.hostname);
        real({ ...opts, hostname: '127.0.0.1', port: String(site.port) }, cb);
      },
    });
    try {
      // robots.txt: first connection, public answer; page: second connection, rebound answer
      await expect(fetcher.fetch('http://rebind.example.com/page')).rejects.toMatchObject({ code: 'INVALID_URL' });
      expect(dialled).toEqual(['93.184.216.34']);
      expect(lookups).toBe(2);
    } finally {
      await fetcher.close();
      await site.close();
    }
  });
});

describe('allow-list escape hatch', () => {
  it('parses CIDRs and host:port and matches only those', () => {
    const list = parseAllowList(['127.0.0.1/32', '10.0.0.0/8', 'localhost:8080', '[::1]:9000', '192.168.1.5']);
    const ip = (s: string) => parseIp(s);
    expect(isAllowedPrivate(list, { host: '127.0.0.1', port: 1, address: ip('127.0.0.1') })).toBe(true);
    expect(isAllowedPrivate(list, { host: '127.0.0.2', port: 1, address: ip('127.0.0.2') })).toBe(false);
    expect(isAllowedPrivate(list, { host: 'a.test', port: 1, address: ip('10.9.9.9') })).toBe(true);
    expect(isAllowedPrivate(list, { host: 'localhost', port: 8080 })).toBe(true);
    expect(isAllowedPrivate(list, { host: 'localhost', port: 8081 })).toBe(false);
    expect(isAllowedPrivate(list, { host: '[::1]', port: 9000, address: ip('::1') })).toBe(true);
    expect(isAllowedPrivate(list, { host: '::1', port: 9001, address: ip('::1') })).toBe(false);
    expect(isAllowedPrivate(list, { host: '192.168.1.5', port: 5, address: ip('192.168.1.5') })).toBe(true);
    expect(() => parseAllowList(['not a cidr'])).toThrow(/neither a CIDR/);
    expect(() => parseAllowList(['10.0.0.0/33'])).toThrow();
  });

  it('a port-specific entry does not open other ports of the same host', () => {
    expect(canonicalizeRequestUrl('http://127.0.0.1:5000/', { allowPrivateTargets: ['127.0.0.1:5000'] })).toBe('http://127.0.0.1:5000/');
    expect(() => canonicalizeRequestUrl('http://127.0.0.1:5001/', { allowPrivateTargets: ['127.0.0.1:5000'] })).toThrow();
  });

  it('without a logger, warns through process.emitWarning', async () => {
    const seen: string[] = [];
    const onWarning = (w: Error & { code?: string }): void => void seen.push(w.code ?? '');
    process.on('warning', onWarning);
    const f = createFetcher({ allowPrivateTargets: ['127.0.0.1/32'], cache: memoryCache(), now: () => 0 });
    await new Promise((r) => setImmediate(r));
    process.off('warning', onWarning);
    expect(seen).toContain('PITH_ALLOW_PRIVATE_TARGETS');
    await f.close();
  });

  it('logs loudly once when set', async () => {
    const warnings: Array<{ obj: object; msg?: string }> = [];
    const f = createFetcher({
      allowPrivateTargets: ['127.0.0.1/32'],
      cache: memoryCache(),
      now: () => 0,
      logger: { warn: (obj, msg) => warnings.push({ obj, ...(msg ? { msg } : {}) }) },
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toMatch(/ALLOW_PRIVATE_TARGETS/);
    await f.close();
  });
});

describe('reason labels', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'shared-cgnat'],
    ['64:ff9b::a00:1', 'nat64-embedding-private'],
    ['2002:c0a8:101::1', '6to4-embedding-private'],
    ['fd00::1', 'unique-local'],
    ['fec0::1', 'site-local'],
    ['2001:db8::1', 'documentation'],
    ['8.8.8.8', null],
    ['2606:4700::1111', null],
  ])('%s → %s', (address, reason) => {
    const ip = parseIp(address);
    expect(ip).not.toBeNull();
    expect(nonPublicReason(ip!)).toBe(reason);
  });
});
