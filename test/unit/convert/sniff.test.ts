import { describe, expect, it } from 'vitest';
import { sniffContent } from '../../../src/convert/detect/sniff.js';

const bytes = (...b: number[]): Buffer => Buffer.from(b);

describe('sniffContent', () => {
  it.each([
    ['%PDF-1.7\n', 'pdf', 'application/pdf'],
    ['\n\n%PDF-1.4', 'pdf', 'application/pdf'],
    ['<!DOCTYPE html><html>', 'html', 'text/html'],
    ['  <html lang="en">', 'html', 'text/html'],
    ['<?xml version="1.0"?><rss>', 'xml', 'application/xml'],
    ['<rss version="2.0">', 'xml', 'application/xml'],
    ['<urlset xmlns="x">', 'xml', 'application/xml'],
    ['{"a": 1}', 'json', 'application/json'],
    ['[1, 2]', 'json', 'application/json'],
    ['[section]\nkey=value', 'text', 'text/plain'],
    ['BMW and MZ are brands', 'text', 'text/plain'],
    ['hello world', 'text', 'text/plain'],
  ])('%j → %s', (text, kind, type) => {
    expect(sniffContent(Buffer.from(text))).toEqual({ kind, type });
  });

  it.each([
    [bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0), 'image/png'],
    [bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10), 'image/jpeg'],
    [Buffer.concat([Buffer.from('GIF89a'), bytes(1, 0, 1, 0)]), 'image/gif'],
    [Buffer.concat([Buffer.from('RIFF'), bytes(0, 0, 0, 0), Buffer.from('WEBP')]), 'image/webp'],
    [bytes(0x1f, 0x8b, 0x08, 0, 0, 0), 'application/gzip'],
    [
      Buffer.concat([bytes(0x50, 0x4b, 0x03, 0x04), Buffer.alloc(26), Buffer.from('word/document.xml')]),
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ],
    [Buffer.concat([bytes(0x50, 0x4b, 0x03, 0x04), Buffer.alloc(26), Buffer.from('a.txt')]), 'application/zip'],
    [bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1), 'application/x-ole-storage'],
    [Buffer.concat([Buffer.from('wOF2'), bytes(0, 1, 0, 0)]), 'font/woff2'],
    [Buffer.concat([bytes(0, 0, 0, 0x20), Buffer.from('ftypisom'), bytes(0, 0, 2, 0)]), 'video/mp4'],
    [Buffer.concat([Buffer.from('ID3'), bytes(4, 0, 0, 0, 0, 0)]), 'audio/mpeg'],
    [bytes(0x00, 0x01, 0x02, 0x03, 0x04, 0x05), 'application/octet-stream'],
  ])('binary %#: %s', (body, type) => {
    expect(sniffContent(body)).toEqual({ kind: 'binary', type });
  });

  it('reads UTF-16 with a BOM as text', () => {
    const body = Buffer.concat([bytes(0xff, 0xfe), Buffer.from('{"a":1}', 'utf16le')]);
    expect(sniffContent(body).kind).toBe('json');
  });
});
