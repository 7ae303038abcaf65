import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { convertDocument } from '../../../src/convert/index.js';
import { MAX_MARKDOWN_CHARS } from '../../../src/convert/markdown.js';
import { ServiceError } from '../../../src/errors.js';
import type { ConvertResult } from '../../../src/convert/types.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'formats');
const MB = 1024 * 1024;

function convert(body: Buffer, contentType: string, url = 'https://evil.example.test/x'): Promise<ConvertResult> {
  return convertDocument({ body, contentType, headers: { 'content-type': contentType }, url });
}

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (err) {
    if (err instanceof ServiceError) return err.code;
    throw err;
  }
}

const ATTACKS: Array<[string, () => Promise<string>]> = [
  [
    'XXE (file and http entities, parameter entity)',
    async () => {
      const xml =
        '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY % p SYSTEM "http://127.0.0.1:1/x.dtd"> %p; <!ENTITY f SYSTEM "file:///etc/passwd">]><d>&f;</d>';
      const { markdown } = await convert(Buffer.from(xml), 'application/xml');
      expect(markdown).not.toContain('root:');
      return 'ok';
    },
  ],
  [
    'billion laughs',
    async () => {
      const defs = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('\n');
      const xml = `<?xml version="1.0"?>\n<!DOCTYPE lolz [\n<!ENTITY lol0 "lol">\n${defs}\n]>\n<lolz>&lol9;</lolz>`;
      const { markdown } = await convert(Buffer.from(xml), 'text/xml');
      expect(markdown.length).toBeLessThan(100);
      return 'ok';
    },
  ],
  [
    '10 MB flood of tiny XML elements',
    async () => {
      const result = await convert(Buffer.from(`<r>${'<a/>'.repeat(2_500_000)}</r>`), 'application/xml');
      expect(result.warnings.map((w) => w.code)).toContain('TRUNCATED');
      return 'ok';
    },
  ],
  ['gzip bomb served as application/pdf', () => code(convert(gzipSync(Buffer.alloc(64 * MB)), 'application/pdf'))],
  [
    'zip archive served as application/pdf',
    () => code(convert(Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(4096)]), 'application/pdf')),
  ],
  [
    'flate-bomb PDF served as application/pdf',
    () => code(convert(readFileSync(join(FIXTURES, 'hostile-flate-bomb.pdf')), 'application/pdf')),
  ],
  [
    '10 MB single-line JSON',
    async () => {
      const body = Buffer.from(`{"items":[${Array.from({ length: 1_000_000 }, (_, i) => `{"i":${i}}`).join(',')}]}`);
      expect(body.length).toBeGreaterThan(9 * MB);
      const result = await convert(body, 'application/json');
      expect(result.markdown.length).toBeLessThanOrEqual(MAX_MARKDOWN_CHARS + 100);
      expect(result.warnings.map((w) => w.code)).toContain('TRUNCATED');
      return 'ok';
    },
  ],
  [
    'CSV with a million columns',
    async () => {
      const row = `${Array.from({ length: 1_000_000 }, (_, i) => i).join(',')}\n`;
      const result = await convert(Buffer.from(row + row), 'text/csv');
      expect(result.markdown.length).toBeLessThan(5_000);
      expect(result.warnings.map((w) => w.code)).toContain('TRUNCATED');
      return 'ok';
    },
  ],
];

describe('hostile inputs → a clear error or a bounded result', () => {
  const expected: Record<string, string> = {
    'gzip bomb served as application/pdf': 'UNSUPPORTED_TYPE',
    'zip archive served as application/pdf': 'UNSUPPORTED_TYPE',
    'flate-bomb PDF served as application/pdf': 'EXTRACTION_FAILED',
  };
  for (const [name, attack] of ATTACKS) {
    it(name, async () => {
      expect(await attack()).toBe(expected[name] ?? 'ok');
    });
  }

  it('memory stays flat over repeated attacks', async () => {
    const before = process.memoryUsage().rss;
    let peak = before;
    for (let round = 0; round < 3; round++) {
      for (const [, attack] of ATTACKS) {
        await attack();
        peak = Math.max(peak, process.memoryUsage().rss);
      }
    }
    // A single expanded billion-laughs or inflated bomb would be gigabytes.
    expect(peak - before).toBeLessThan(768 * MB);
  });
});
