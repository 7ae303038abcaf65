import { ServiceError } from '../errors.js';
import { BodyTooLargeError, UnsupportedEncodingError } from './body.js';

/** Marks an abort caused by our own deadline (as opposed to the caller's signal). */
export class DeadlineExceeded extends Error {
  override name = 'DeadlineExceeded';
}

const NOT_FOUND_CODES = new Set([
  'ENOTFOUND',
  'EAI_NONAME',
  'EAI_NODATA',
  'EAI_AGAIN',
  'EAI_FAIL',
  'ENODATA',
  'ESERVFAIL',
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
]);
const TIMEOUT_CODES = new Set(['ETIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);
const TLS_CODE =
  /^(CERT_|ERR_TLS_|ERR_SSL_|ERR_OSSL|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|HOSTNAME_MISMATCH$|EPROTO$|INVALID_CA$|INVALID_PURPOSE$)/;
const DECODE_CODE = /^(Z_|ERR_ZLIB|ERR__ERROR|ERR_BROTLI)/;
const TRANSPORT_CODE = /^(UND_ERR_|ECONNRESET$|EPIPE$|ECONNABORTED$|HPE_|ERR_STREAM_PREMATURE_CLOSE$)/;

/** Walks `cause` to find the first Node/undici error code. */
export function errorCode(err: unknown): string | null {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e !== null && typeof e === 'object'; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

function findInChain<T>(err: unknown, test: (e: unknown) => e is T): T | null {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e !== null && e !== undefined; depth++) {
    if (test(e)) return e;
    e = typeof e === 'object' ? (e as { cause?: unknown }).cause : undefined;
  }
  return null;
}

/**
 * The one table from foreign errors to pith codes at the fetch boundary (STYLE §2:
 * branch on codes, never messages; keep `cause`). `deadlineHit` wins over anything an
 * abort left behind. Unknown errors are returned unchanged (→ 500 upstream).
 */
export function mapFetchError(err: unknown, ctx: { deadlineHit: boolean; timeoutMs: number }): unknown {
  const service = findInChain(err, (e): e is ServiceError => e instanceof ServiceError);
  if (service) return service;
  if (ctx.deadlineHit || findInChain(err, (e): e is DeadlineExceeded => e instanceof DeadlineExceeded)) {
    return new ServiceError('TIMEOUT', `fetching the target took longer than ${ctx.timeoutMs / 1000} s`, {}, { cause: err });
  }
  const tooLarge = findInChain(err, (e): e is BodyTooLargeError => e instanceof BodyTooLargeError);
  if (tooLarge) return new ServiceError('TOO_LARGE', undefined, {}, { cause: err });
  const encoding = findInChain(err, (e): e is UnsupportedEncodingError => e instanceof UnsupportedEncodingError);
  if (encoding) {
    return new ServiceError(
      'UPSTREAM_ERROR',
      `the target's content encoding is refused: ${encoding.message}`,
      { upstream_status: null },
      { cause: err },
    );
  }
  const code = errorCode(err);
  if (code === null) return err;
  if (NOT_FOUND_CODES.has(code)) {
    const dns = code.startsWith('E') && !code.startsWith('ECONN') && !code.startsWith('EHOST') && !code.startsWith('ENET');
    return new ServiceError(
      'URL_NOT_FOUND',
      dns ? 'the host name could not be resolved' : 'the target could not be reached',
      {},
      { cause: err },
    );
  }
  if (TIMEOUT_CODES.has(code)) {
    return new ServiceError('TIMEOUT', `fetching the target took longer than ${ctx.timeoutMs / 1000} s`, {}, { cause: err });
  }
  if (TLS_CODE.test(code)) return new ServiceError('TLS_ERROR', `TLS failure when fetching the target (${code})`, {}, { cause: err });
  if (DECODE_CODE.test(code)) {
    return new ServiceError(
      'UPSTREAM_ERROR',
      'the target sent a body that could not be decoded',
      { upstream_status: null },
      { cause: err },
    );
  }
  if (TRANSPORT_CODE.test(code)) {
    return new ServiceError('UPSTREAM_ERROR', 'the connection to the target failed', { upstream_status: null }, { cause: err });
  }
  return err;
}
