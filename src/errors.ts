/**
 * The one registry of error codes. Every error that leaves the service is born here:
 * code → HTTP status + default message. `test/unit/errors.test.ts` diffs this table
 * against the OpenAPI document and docs/errors.md in both directions.
 */
export const ERROR_CODES = {
  BAD_REQUEST: { status: 400, message: 'the request is malformed' },
  INVALID_URL: { status: 400, message: 'the URL is invalid, not public, or not http/https' },
  UNAUTHORIZED: { status: 401, message: 'missing or invalid API key' },
  PAYMENT_REQUIRED: { status: 402, message: 'monthly plan credits and bought credits are used up' },
  ROBOTS_BLOCKED: { status: 403, message: "blocked by the target's robots.txt" },
  WAF_BLOCKED: { status: 403, message: "blocked by the target's firewall" },
  NOT_FOUND: { status: 404, message: 'no such route' },
  URL_NOT_FOUND: { status: 404, message: 'the target was not found' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'method not allowed on this route' },
  PLAN_NOT_ELIGIBLE: { status: 409, message: 'the account plan is not eligible for this' },
  IDEMPOTENCY_CONFLICT: { status: 409, message: 'the Idempotency-Key is in use by another request' },
  TOO_LARGE: { status: 413, message: 'content is over 10 MB' },
  UNSUPPORTED_TYPE: { status: 415, message: 'content type not supported' },
  IMAGE_PDF: { status: 422, message: 'the PDF has no embedded text layer' },
  RATE_LIMITED: { status: 429, message: 'monthly plan credits are used up' },
  CONCURRENT_LIMIT: { status: 429, message: 'too many requests in flight for this account' },
  EXTRACTION_FAILED: { status: 500, message: 'extraction failed' },
  INTERNAL_ERROR: { status: 500, message: 'internal error' },
  TLS_ERROR: { status: 502, message: 'TLS failure when fetching the target' },
  UPSTREAM_ERROR: { status: 502, message: 'the target answered with an error status' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'a backing store is unavailable; nothing was charged' },
  RENDER_UNAVAILABLE: { status: 503, message: 'JavaScript rendering is unavailable on this server; nothing was charged' },
  TIMEOUT: { status: 504, message: 'fetching the target took longer than 15 s' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Extra body fields an error may carry (e.g. `retry_after`, `in_flight`, `upstream_status`). */
export type ErrorFields = Record<string, string | number | boolean | null>;

export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly fields: ErrorFields;

  constructor(code: ErrorCode, message?: string, fields: ErrorFields = {}, options?: { cause?: unknown }) {
    super(message ?? ERROR_CODES[code].message, options);
    this.name = 'ServiceError';
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.fields = fields;
  }
}

export function isServiceError(err: unknown): err is ServiceError {
  return err instanceof ServiceError;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}
