import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Site } from '../../helpers/site.js';
import { startSite } from '../../helpers/site.js';
import type { TestService } from '../../helpers/service.js';
import { startService } from '../../helpers/service.js';
import { listCases } from '../../golden/cases.js';

/**
 * Non-HTML documents through the whole service: POST /v1/read → fetcher → convertDocument,
 * against a loopback target serving golden inputs with right and wrong Content-Types.
 */
const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'formats');
const cases = new Map(listCases().map((c) => [c.slug, c]));
const expectedMd = (name: string): string => readFileSync(join(cases.get(name)?.dir ?? '', 'expected.md'), 'utf8');

describe('POST /v1/read with documents beyond HTML', () => {
  let site: Site;
  let svc: TestService;
  let apiKey = '';

  beforeAll(async () => {
    site = await startSite((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/robots.txt') return res.writeHead(404).end();
      if (url.pathname === '/logo')
        return res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]));
      const [, kind = '', name = ''] = url.pathname.split('/');
      const file = kind === 'case' ? cases.get(name)?.inputPath : kind === 'fixture' ? join(FIXTURES, name) : undefined;
      if (!file) return res.writeHead(404).end();
      const type = url.searchParams.get('type');
      res.writeHead(200, type ? { 'content-type': type } : {});
      return res.end(readFileSync(file));
    });
    svc = await startService();
    apiKey = (await svc.newAccount('growth')).apiKey;
  });
  afterAll(async () => {
    await svc?.close();
    await site?.close();
  });

  const read = (path: string, headers: Record<string, string> = {}) =>
    svc.call('/v1/read', { key: apiKey, body: { url: `${site.origin}${path}`, fresh: true }, headers });

  it.each([
    ['pdf-two-column', 'application/pdf', 'application/pdf'],
    ['pdf-two-column', 'application/octet-stream', 'application/pdf'],
    ['csv-basic', 'text/csv; charset=utf-8', 'text/csv'],
    ['json-object', 'text/html', 'application/json'],
    ['rss2', 'application/rss+xml', 'application/rss+xml'],
    ['sitemap', 'text/plain', 'application/xml'],
  ])('%s served as %s → 200, golden Markdown, content_type %s', async (name, type, contentType) => {
    const res = await read(`/case/${name}?type=${encodeURIComponent(type)}`);
    expect(res.status).toBe(200);
    expect(res.json.markdown).toBe(expectedMd(name));
    expect(res.json.metadata.content_type).toBe(contentType);
  });

  it('fills page_count for PDFs and serves raw Markdown on Accept: text/markdown', async () => {
    const json = await read('/fixture/report-50.pdf?type=application/pdf');
    expect(json.json.metadata).toMatchObject({ page_count: 50, title: 'Acme Annual Report 2026' });
    const raw = await read('/fixture/report-50.pdf?type=application/pdf', { accept: 'text/markdown' });
    expect(raw.headers['content-type']).toMatch(/^text\/markdown/);
    expect(raw.text).toBe(json.json.markdown);
  });

  it.each([
    ['/fixture/image-only.pdf?type=application/pdf', 422, 'IMAGE_PDF'],
    ['/logo', 415, 'UNSUPPORTED_TYPE'],
    ['/fixture/encrypted.pdf?type=application/pdf', 500, 'EXTRACTION_FAILED'],
    ['/fixture/hostile-flate-bomb.pdf?type=application/pdf', 500, 'EXTRACTION_FAILED'],
    ['/fixture/hostile-page-loop.pdf?type=application/pdf', 500, 'EXTRACTION_FAILED'],
  ])('%s → %i %s in the error envelope', async (path, status, code) => {
    const res = await read(path);
    expect(res.status).toBe(status);
    expect(res.json).toMatchObject({ status: 'error', code });
    expect(res.text).not.toMatch(/at .*\.(ts|js|mjs):\d+/);
    if (code === 'UNSUPPORTED_TYPE')
      expect(res.json).toMatchObject({
        message: 'content type image/png (served as text/html) is not supported',
        detected_type: 'image/png',
      });
    if (path.includes('encrypted')) expect(res.json.reason).toBe('pdf_password_required');
  });
});
