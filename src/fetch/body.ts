import type { Transform } from 'node:stream';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import { destroyBody } from './response.js';

/** Thrown when a cap is exceeded; `which` says whether raw or decoded bytes overflowed. */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
  constructor(
    readonly which: 'raw' | 'decoded',
    readonly limit: number,
  ) {
    super(`${which} body exceeds ${limit} bytes`);
  }
}

/** Thrown when Content-Encoding names a coding we cannot decode, or stacks too many. */
export class UnsupportedEncodingError extends Error {
  override name = 'UnsupportedEncodingError';
}

/**
 * Most codings one body may stack. Every extra layer is another decompressor whose output
 * feeds the next (curl caps the chain after CVE-2022-32206); real servers apply one, and a
 * CDN may add a second.
 */
export const MAX_CONTENT_CODINGS = 2;

export interface ReadBodyOptions {
  /** Content-Encoding codings in the order they were applied (header order). */
  encodings: string[];
  /** Cap on raw (wire) bytes and, separately, on decoded bytes. */
  maxBytes: number;
  /** Cap on raw bytes when it should differ from `maxBytes` (a small truncated read of a compressed body). */
  maxRawBytes?: number;
  /** Return the first `maxBytes` decoded bytes instead of failing (robots.txt, sniffing). */
  truncate?: boolean;
  /**
   * Told the size of every decoded chunk as it is kept (the instance's memory budget); an
   * error it throws stops the read and is the read's error.
   */
  onKept?: (bytes: number) => void;
  /**
   * The identity body's declared length (Content-Length). The body is then copied into one
   * buffer of that size chunk by chunk as it arrives, instead of one 10 MB concatenation at
   * the end that holds the event loop for tens of ms.
   */
  expectedBytes?: number;
}

export interface BodyResult {
  body: Buffer;
  rawBytes: number;
  truncated: boolean;
}

/** Parses a Content-Encoding header into codings (lower-case, `identity` dropped). */
export function parseContentEncoding(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '' && s !== 'identity');
}

class Truncated extends Error {}

/**
 * Reads a response body while streaming: raw bytes counted as they arrive, each coding
 * undone by a zlib stream (tolerant of a truncated tail, like browsers), decoded bytes
 * counted as they come out. Memory stays at the cap plus a few chunks however far a
 * compressed body would inflate. Errors from `source` (aborts) propagate unchanged.
 */
export async function readBody(source: AsyncIterable<Uint8Array>, opts: ReadBodyOptions): Promise<BodyResult> {
  const { maxBytes, truncate = false } = opts;
  const maxRaw = opts.maxRawBytes ?? maxBytes;
  if (opts.encodings.length > MAX_CONTENT_CODINGS) {
    throw new UnsupportedEncodingError(`${opts.encodings.length} stacked content codings; at most ${MAX_CONTENT_CODINGS} are decoded`);
  }
  const decoders = [...opts.encodings].reverse().map(createDecoder);
  const onKept = opts.onKept ?? noop;
  if (decoders.length === 0) {
    const expected = opts.expectedBytes !== undefined && opts.expectedBytes > 0 && opts.expectedBytes <= maxBytes ? opts.expectedBytes : 0;
    return readIdentity(source, maxBytes, truncate, onKept, expected);
  }
  let rawBytes = 0;
  let decodedBytes = 0;
  const chunks: Buffer[] = [];
  let truncated = false;

  async function* countRaw(): AsyncGenerator<Buffer> {
    for await (const chunk of source) {
      rawBytes += chunk.byteLength;
      if (rawBytes > maxRaw) {
        if (truncate) {
          yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength - (rawBytes - maxRaw));
          throw new Truncated();
        }
        throw new BodyTooLargeError('raw', maxRaw);
      }
      yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    }
  }

  // pipeline() may report the AbortError of the streams it tears down instead of the
  // error that made it tear them down; remember ours
  let ownError: Error | null = null;
  async function* countRawSafe(): AsyncGenerator<Buffer> {
    try {
      yield* countRaw();
    } catch (err) {
      if (err instanceof Truncated || err instanceof BodyTooLargeError) ownError ??= err;
      throw err;
    }
  }

  async function collect(decoded: AsyncIterable<Buffer>): Promise<void> {
    for await (const chunk of decoded) {
      decodedBytes += chunk.length;
      if (decodedBytes > maxBytes) {
        if (!truncate) throw (ownError = new BodyTooLargeError('decoded', maxBytes));
        const kept = chunk.subarray(0, chunk.length - (decodedBytes - maxBytes));
        keep(kept.length);
        chunks.push(kept);
        throw (ownError = new Truncated());
      }
      keep(chunk.length);
      chunks.push(chunk);
    }
  }
  function keep(bytes: number): void {
    try {
      onKept(bytes);
    } catch (err) {
      ownError ??= err as Error;
      throw err;
    }
  }

  try {
    const stages = [Readable.from(countRawSafe()), ...decoders, collect] as unknown as [NodeJS.ReadableStream, NodeJS.WritableStream];
    await pipeline(...stages);
  } catch (err) {
    const cause: unknown = ownError ?? err;
    if (cause instanceof Truncated || (truncate && isTruncation(cause))) truncated = true;
    else throw cause;
  }
  return { body: Buffer.concat(chunks), rawBytes, truncated };
}

/**
 * Identity bodies skip the stream pipeline: count and collect straight from the source
 * (bench/fetch.ts: the pipeline cost ~15% on a 200 KB page).
 */
async function readIdentity(
  source: AsyncIterable<Uint8Array>,
  maxBytes: number,
  truncate: boolean,
  onKept: (bytes: number) => void,
  expectedBytes: number,
): Promise<BodyResult> {
  if (source instanceof Readable) return readIdentityEvents(source, maxBytes, truncate, onKept, expectedBytes);
  const chunks = new ChunkCollector(expectedBytes);
  let rawBytes = 0;
  for await (const chunk of source) {
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    rawBytes += buf.length;
    if (rawBytes > maxBytes) {
      if (!truncate) throw new BodyTooLargeError('raw', maxBytes);
      const kept = buf.subarray(0, buf.length - (rawBytes - maxBytes));
      onKept(kept.length);
      chunks.push(kept);
      return { body: chunks.body(), rawBytes: maxBytes, truncated: true };
    }
    onKept(buf.length);
    chunks.push(buf);
  }
  return { body: chunks.body(), rawBytes, truncated: false };
}

/**
 * Collects a body's chunks: copied into one buffer of the expected size as they come when
 * the size is known (the copy is spread over the chunks), else kept and joined at the end.
 */
class ChunkCollector {
  private target: Buffer | null;
  private filled = 0;
  private readonly chunks: Buffer[] = [];

  constructor(expectedBytes: number) {
    this.target = expectedBytes > 0 ? Buffer.allocUnsafe(expectedBytes) : null;
  }

  push(chunk: Buffer): void {
    if (this.target !== null) {
      if (this.filled + chunk.length <= this.target.length) {
        chunk.copy(this.target, this.filled);
        this.filled += chunk.length;
        return;
      }
      // more than declared: fall back to joining at the end
      this.chunks.push(this.target.subarray(0, this.filled));
      this.target = null;
    }
    this.chunks.push(chunk);
  }

  body(): Buffer {
    if (this.target !== null) return this.filled === this.target.length ? this.target : this.target.subarray(0, this.filled);
    return Buffer.concat(this.chunks);
  }
}

/** Same as readIdentity over 'data' events, which cost less than async iteration per chunk. */
function readIdentityEvents(
  source: Readable,
  maxBytes: number,
  truncate: boolean,
  onKept: (bytes: number) => void,
  expectedBytes: number,
): Promise<BodyResult> {
  return new Promise((resolve, reject) => {
    const chunks = new ChunkCollector(expectedBytes);
    let rawBytes = 0;
    const cleanup = (): void => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
      source.off('close', onClose);
    };
    const stop = (err: unknown): void => {
      cleanup();
      destroyBody(source);
      reject(err);
    };
    const onData = (chunk: Buffer): void => {
      rawBytes += chunk.length;
      const kept = rawBytes <= maxBytes ? chunk : chunk.subarray(0, chunk.length - (rawBytes - maxBytes));
      if (rawBytes > maxBytes && !truncate) {
        stop(new BodyTooLargeError('raw', maxBytes));
        return;
      }
      try {
        onKept(kept.length);
      } catch (err) {
        stop(err);
        return;
      }
      chunks.push(kept);
      if (rawBytes <= maxBytes) return;
      cleanup();
      destroyBody(source);
      resolve({ body: chunks.body(), rawBytes: maxBytes, truncated: true });
    };
    const onEnd = (): void => {
      cleanup();
      resolve({ body: chunks.body(), rawBytes, truncated: false });
    };
    const onError = (err: Error): void => {
      cleanup();
      reject(err);
    };
    const onClose = (): void => {
      cleanup();
      reject(Object.assign(new Error('the body stream closed before its end'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    };
    if (source.destroyed) return onError((source.errored as Error | null) ?? new Error('the body stream was already destroyed'));
    source.on('data', onData);
    source.on('end', onEnd);
    source.on('error', onError);
    source.on('close', onClose);
  });
}

function isTruncation(err: unknown): boolean {
  let e: unknown = err;
  for (let i = 0; i < 4 && e instanceof Error; i++) {
    if (e instanceof Truncated) return true;
    e = e.cause;
  }
  return false;
}

function noop(): void {}

type Stage = Transform | ((source: AsyncIterable<Buffer>) => AsyncGenerator<Buffer>);

function createDecoder(coding: string): Stage {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip({ finishFlush: constants.Z_SYNC_FLUSH });
    case 'deflate':
      return inflateEither;
    case 'br':
      return createBrotliDecompress({ finishFlush: constants.BROTLI_OPERATION_FLUSH });
    default:
      throw new UnsupportedEncodingError(`unsupported content coding "${coding}"`);
  }
}

/**
 * HTTP "deflate" is zlib-wrapped by the spec but raw DEFLATE from many servers: pick by
 * the first byte (a zlib header has compression method 8 in its low nibble).
 */
async function* inflateEither(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const it = source[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done) return;
  const head: Buffer = first.value;
  const inflater =
    ((head[0] ?? 0) & 0x0f) === 8
      ? createInflate({ finishFlush: constants.Z_SYNC_FLUSH })
      : createInflateRaw({ finishFlush: constants.Z_SYNC_FLUSH });
  const input = Readable.from(
    (async function* () {
      yield head;
      for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
    })(),
  );
  input.on('error', (e) => inflater.destroy(e));
  input.pipe(inflater);
  try {
    for await (const chunk of inflater) yield chunk as Buffer;
  } finally {
    input.destroy();
    inflater.destroy();
  }
}
