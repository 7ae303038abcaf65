import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertDocument } from '../../../src/convert/index.js';
import { ServiceError } from '../../../src/errors.js';
import type { ConvertResult } from '../../../src/convert/types.js';
import { loadCases } from '../../golden-formats/cases.js';

/**
 * The real HTTP path, until POST /v1/read exists: a target server on 127.0.0.1 serves
 * each golden input with its right Content-Type and with wrong ones; undici fetches it and
 * the body goes to convertDocument with the media type parsed from the response header.
 */
const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'formats');
const cases = loadCases();
let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const name = url.pathname.split('/')[1] ?? '';
    const file = name.startsWith('fixture:') ? join(FIXTURES, name.slice(8)) : cases.find((c) => c.name === name)?.input;
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    const type = url.searchParams.get('type');
    res.writeHead(200, type ? { 'content-type': type } : {});
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Fetches like the service does and hands the body to the converter. */
async function fetchAndConvert(path: string, type: string | null): Promise<ConvertResult> {
  const res = await request(`${origin}/${path}${type ? `?type=${encodeURIComponent(type)}` : ''}`);
  const body = Buffer.from(await res.body.arrayBuffer());
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  const contentType = headers['content-type']?.split(';')[0]?.trim().toLowerCase() || null;
  return convertDocument({ body, contentType, headers, url: `${origin}/${path}` });
}

async function errorCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (err) {
    if (err instanceof ServiceError) return `${err.code} ${err.status}`;
    throw err;
  }
}

describe('formats over HTTP (127.0.0.1 target, undici)', () => {
  for (const c of cases) {
    it(`${c.name}: served as ${c.content_type}`, async () => {
      // Keep the case URL's path so extension-based choices (text/plain + .csv) still apply.
      const result = await fetchAndConvert(`${c.name}${new URL(c.url).pathname}`, c.content_type);
      expect(result.markdown).toBe(readFileSync(join(c.dir, 'expected.md'), 'utf8'));
    });
  }

  // application/octet-stream (a server that knows nothing): sniffing and the URL extension decide.
  for (const c of cases) {
    it(`${c.name}: served as application/octet-stream reads the same`, async () => {
      const result = await fetchAndConvert(`${c.name}${new URL(c.url).pathname}`, 'application/octet-stream');
      expect(result.markdown).toBe(readFileSync(join(c.dir, 'expected.md'), 'utf8'));
    });
  }

  // Mislabelled bodies that sniffing must still read the same way.
  const MISLABELLED: Array<[string, string | null]> = [
    ['pdf-two-column', 'text/html'],
    ['pdf-two-column', 'application/octet-stream'],
    ['pdf-report-50', null],
    ['json-object', 'text/html'],
    ['json-object', 'text/plain'],
    ['json-array', 'application/octet-stream'],
    ['rss2', 'text/html'],
    ['rss2', 'text/plain'],
    ['atom', 'application/octet-stream'],
    ['sitemap', 'text/html'],
    ['sitemap', null],
    ['xml-outline', 'application/octet-stream'],
  ];
  for (const [name, type] of MISLABELLED) {
    it(`${name}: served as ${type ?? '(no Content-Type)'} reads the same`, async () => {
      const c = cases.find((k) => k.name === name);
      expect(c).toBeDefined();
      const result = await fetchAndConvert(name, type);
      expect(result.markdown).toBe(readFileSync(join(c?.dir ?? '', 'expected.md'), 'utf8'));
      if (type && type !== 'application/octet-stream') expect(result.warnings.map((w) => w.code)).toContain('CONTENT_TYPE_MISMATCH');
    });
  }

  it.each([
    ['fixture:image-only.pdf', 'application/pdf', 'IMAGE_PDF 422'],
    ['fixture:encrypted.pdf', 'application/pdf', 'EXTRACTION_FAILED 500'],
    ['fixture:corrupted.pdf', 'application/octet-stream', 'EXTRACTION_FAILED 500'],
    ['fixture:hostile-flate-bomb.pdf', 'image/png', 'EXTRACTION_FAILED 500'],
  ])('%s served as %s → %s', async (path, type, expected) => {
    expect(await errorCode(fetchAndConvert(path, type))).toBe(expected);
  });

  it('a PNG served as text/html is UNSUPPORTED_TYPE naming image/png', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
    const target = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(png));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    try {
      const res = await request(`http://127.0.0.1:${(target.address() as AddressInfo).port}/logo`);
      const body = Buffer.from(await res.body.arrayBuffer());
      const err = await convertDocument({
        body,
        contentType: 'text/html',
        headers: { 'content-type': 'text/html' },
        url: 'http://t.test/logo',
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ServiceError);
      expect((err as ServiceError).message).toBe('content type image/png (served as text/html) is not supported');
    } finally {
      await new Promise<void>((resolve) => target.close(() => resolve()));
    }
  });
});
