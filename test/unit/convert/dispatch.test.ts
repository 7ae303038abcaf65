import { beforeEach, describe, expect, it, vi } from 'vitest';

// decodeBody belongs to the fetcher; here it is replaced so the dispatcher's use of `guessed` is tested alone.
const decoded = { guessed: true };
vi.mock('../../../src/convert/decode.js', () => ({
  decodeBody: (body: Buffer) => ({ text: body.toString('utf8'), charset: 'utf-8', guessed: decoded.guessed }),
}));

const { convertDocument } = await import('../../../src/convert/index.js');

const convert = (body: string, contentType: string | null, url = 'https://e.test/x', headers: Record<string, string> = {}) =>
  convertDocument({ body: Buffer.from(body), contentType, headers, url });

describe('convertDocument dispatch', () => {
  beforeEach(() => {
    decoded.guessed = true;
  });

  it('warns CHARSET_GUESSED only when the guess matters (non-ASCII bytes) and never for JSON', async () => {
    expect((await convert('plain ascii', 'text/plain')).warnings).toEqual([]);
    expect((await convert('café', 'text/plain')).warnings.map((w) => w.code)).toEqual(['CHARSET_GUESSED']);
    expect((await convert('{"a":"café"}', 'application/json')).warnings).toEqual([]);
    decoded.guessed = false;
    expect((await convert('café', 'text/plain')).warnings).toEqual([]);
  });

  it('fills contentType, a title from the file name and a description from the first paragraph', async () => {
    const result = await convert('Notes\n\nThe first real paragraph.\n', 'text/plain', 'https://e.test/docs/notes.txt');
    expect(result.metadata).toEqual({ title: 'notes.txt', description: 'Notes', language: null, contentType: 'text/plain' });
  });

  it('takes language from Content-Language when the format has none', async () => {
    const result = await convert('a,b\n1,2\n', 'text/csv', 'https://e.test/t.csv', { 'content-language': 'de-CH, en' });
    expect(result.metadata.language).toBe('de-CH');
  });

  it('adds CONTENT_TYPE_MISMATCH when the body overrules a specific type', async () => {
    const result = await convert('{"a":1}', 'text/html');
    expect(result.metadata.contentType).toBe('application/json');
    expect(result.warnings).toEqual([{ code: 'CONTENT_TYPE_MISMATCH', message: 'served as text/html but the body is application/json' }]);
  });

  it('hands XHTML served as XML to the HTML converter', async () => {
    const result = await convert(
      '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>X</title></head><body><p>Hello xhtml</p></body></html>',
      'application/xml',
    );
    expect(result.metadata.contentType).toBe('application/xhtml+xml');
    expect(result.markdown).toContain('Hello xhtml');
  });

  it('reads an empty body as empty Markdown', async () => {
    expect((await convert('', 'text/plain')).markdown).toBe('');
  });
});
