import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../src/errors.js';
import { pickFormat } from '../../../src/convert/detect/pick-format.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
const GZIP = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 3]);
const URL_ = 'https://example.test/x';

function unsupported(fn: () => unknown): ServiceError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ServiceError) return err;
    throw err;
  }
  throw new Error('expected UNSUPPORTED_TYPE');
}

describe('pickFormat', () => {
  it.each([
    ['application/pdf', '%PDF-1.7\n1 0 obj\n', 'pdf', null],
    ['application/octet-stream', '%PDF-1.7\n1 0 obj\n', 'pdf', null],
    ['text/html', '%PDF-1.7\n1 0 obj\n', 'pdf', 'served as text/html but the body is application/pdf'],
    [null, '%PDF-1.7\n1 0 obj\n', 'pdf', null],
    ['application/json', '{"a":1}', 'json', null],
    ['application/vnd.api+json', '{"a":1}', 'json', null],
    ['text/html', '{"a":1}', 'json', 'served as text/html but the body is application/json'],
    ['text/html', '{not json', 'html', null],
    ['text/html', '<!doctype html><p>x', 'html', null],
    ['text/plain', '<!doctype html><p>x', 'html', 'served as text/plain but the body is text/html'],
    ['application/json', '<!doctype html><p>error page', 'html', 'served as application/json but the body is text/html'],
    ['text/csv', 'a,b\n1,2', 'csv', null],
    ['text/tab-separated-values', 'a\tb', 'tsv', null],
    ['application/rss+xml', '<rss/>', 'xml', null],
    ['text/html', '<?xml version="1.0"?><rss version="2.0">', 'xml', 'served as text/html but the body is application/xml'],
    ['text/markdown', '# hi', 'markdown', null],
    ['text/plain', 'hello', 'text', null],
    ['text/css', 'a { color: red }', 'text', null],
    ['application/javascript', 'let a = 1;', 'text', null],
    ['application/octet-stream', '{"a":1}', 'json', null],
    ['application/octet-stream', 'plain words', 'text', null],
    [null, '<rss version="2.0">', 'xml', null],
    ['image/png', '<!doctype html><title>404</title>', 'html', 'served as image/png but the body is text/html'],
  ])('%s + %j → %s', (type, body, format, mismatch) => {
    const choice = pickFormat(type, Buffer.from(body), URL_);
    expect(choice.format).toBe(format);
    expect(choice.mismatch).toBe(mismatch);
  });

  it('uses the URL extension for text/plain (raw files on code hosts)', () => {
    expect(pickFormat('text/plain', Buffer.from('a,b\n1,2'), 'https://raw.example.test/data.csv').format).toBe('csv');
    expect(pickFormat('text/plain', Buffer.from('a\tb'), 'https://raw.example.test/data.tsv').format).toBe('tsv');
    expect(pickFormat('text/plain', Buffer.from('# Title'), 'https://raw.example.test/README.md').format).toBe('markdown');
    expect(pickFormat('application/octet-stream', Buffer.from('a;b\n1;2'), 'https://example.test/f.csv').format).toBe('csv');
  });

  it.each([
    ['image/png', PNG, 'image/png'],
    ['application/octet-stream', PNG, 'image/png'],
    ['text/html', PNG, 'image/png'],
    ['application/pdf', GZIP, 'application/gzip'],
    ['application/zip', Buffer.from('PK\x03\x04\0\0\0\0'), 'application/zip'],
    ['video/mp4', Buffer.from('plain text but a video type'), 'video/mp4'],
    ['application/msword', Buffer.from('{\\rtf1 hello}'), 'application/msword'],
    ['image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml'],
    ['application/xml', Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml'],
  ])('%s with %#: UNSUPPORTED_TYPE naming %s', (type, body, detected) => {
    const err = unsupported(() => pickFormat(type, body, URL_));
    expect(err.code).toBe('UNSUPPORTED_TYPE');
    expect(err.status).toBe(415);
    expect(err.message).toContain(detected);
    expect(err.fields.detected_type).toBe(detected);
  });

  it('names the served type when it differs from the detected one', () => {
    expect(unsupported(() => pickFormat('application/pdf', GZIP, URL_)).message).toBe(
      'content type application/gzip (served as application/pdf) is not supported',
    );
  });
});
