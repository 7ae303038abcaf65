import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BodyTooLargeError, parseContentEncoding, readBody, UnsupportedEncodingError } from '../../../src/fetch/body.js';

const MB = 1024 * 1024;

/** Yields `buf` in 16 KB chunks and counts how much was pulled. */
function chunked(buf: Buffer): { source: AsyncIterable<Uint8Array>; pulled: () => number } {
  let pulled = 0;
  return {
    pulled: () => pulled,
    source: (async function* () {
      for (let i = 0; i < buf.length; i += 16 * 1024) {
        const c = buf.subarray(i, i + 16 * 1024);
        pulled += c.length;
        yield c;
      }
    })(),
  };
}

describe('readBody', () => {
  it('passes identity bodies through', async () => {
    const { source } = chunked(Buffer.from('hello'));
    expect((await readBody(source, { encodings: [], maxBytes: 10 })).body.toString()).toBe('hello');
  });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['deflate', deflateRawSync],
    ['br', brotliCompressSync],
  ] as const)('decodes %s', async (coding, compress) => {
    const text = 'lorem ipsum '.repeat(10_000);
    const { source } = chunked(compress(Buffer.from(text)));
    const out = await readBody(source, { encodings: [coding], maxBytes: MB });
    expect(out.body.toString()).toBe(text);
  });

  it('undoes stacked codings in reverse order', async () => {
    const twice = brotliCompressSync(gzipSync(Buffer.from('stacked')));
    const { source } = chunked(twice);
    expect((await readBody(source, { encodings: ['gzip', 'br'], maxBytes: MB })).body.toString()).toBe('stacked');
  });

  it('refuses more than two stacked codings before reading a byte', async () => {
    const thrice = gzipSync(gzipSync(gzipSync(Buffer.from('layered'))));
    const { source, pulled } = chunked(thrice);
    const err = await readBody(source, { encodings: ['gzip', 'gzip', 'gzip'], maxBytes: MB }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsupportedEncodingError);
    expect(String(err)).toContain('3 stacked content codings');
    expect(pulled()).toBe(0);
  });

  it('stops a gzip bomb at the decoded cap after pulling only a little of it', async () => {
    const one = gzipSync(Buffer.alloc(10 * MB), { level: 9 });
    const bomb = Buffer.concat(new Array<Buffer>(100).fill(one)); // 1 GB inflated
    const { source, pulled } = chunked(bomb);
    const err = await readBody(source, { encodings: ['gzip'], maxBytes: 10 * MB }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BodyTooLargeError);
    expect((err as BodyTooLargeError).which).toBe('decoded');
    expect(pulled()).toBeLessThan(bomb.length / 10);
  });

  it('stops a brotli bomb too', async () => {
    const bomb = brotliCompressSync(Buffer.alloc(64 * MB));
    const { source } = chunked(bomb);
    await expect(readBody(source, { encodings: ['br'], maxBytes: 10 * MB })).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it('caps raw bytes before decoding', async () => {
    const { source, pulled } = chunked(Buffer.alloc(3 * MB));
    const err = await readBody(source, { encodings: [], maxBytes: MB }).catch((e: unknown) => e);
    expect((err as BodyTooLargeError).which).toBe('raw');
    expect(pulled()).toBeLessThanOrEqual(MB + 16 * 1024);
  });

  it('truncates instead of failing when asked', async () => {
    const { source } = chunked(gzipSync(Buffer.alloc(MB, 0x61)));
    const out = await readBody(source, { encodings: ['gzip'], maxBytes: 1000, maxRawBytes: MB, truncate: true });
    expect(out).toMatchObject({ truncated: true });
    expect(out.body.length).toBe(1000);
    const plain = await readBody(chunked(Buffer.alloc(50_000, 0x62)).source, { encodings: [], maxBytes: 20_000, truncate: true });
    expect(plain.body.length).toBe(20_000);
  });

  it('tolerates a truncated gzip tail like browsers do', async () => {
    const gz = gzipSync(Buffer.from('x'.repeat(100_000)));
    const out = await readBody(chunked(gz.subarray(0, gz.length - 8)).source, { encodings: ['gzip'], maxBytes: MB });
    expect(out.body.length).toBeGreaterThan(0);
  });

  it('refuses unknown codings', async () => {
    await expect(readBody(chunked(Buffer.from('x')).source, { encodings: ['compress'], maxBytes: 10 })).rejects.toBeInstanceOf(
      UnsupportedEncodingError,
    );
  });

  it('propagates source errors unchanged', async () => {
    const boom = new Error('socket hang up');
    const source = (async function* () {
      yield Buffer.from('a');
      throw boom;
    })();
    await expect(readBody(source, { encodings: [], maxBytes: 10 })).rejects.toBe(boom);
  });

  it('parses Content-Encoding', () => {
    expect(parseContentEncoding('gzip')).toEqual(['gzip']);
    expect(parseContentEncoding('identity')).toEqual([]);
    expect(parseContentEncoding(' GZIP , br ')).toEqual(['gzip', 'br']);
    expect(parseContentEncoding(undefined)).toEqual([]);
  });
});
