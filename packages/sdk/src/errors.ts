/**
 * One error class per pith error code (DESIGN §3), all extending PithError. Branch on
 * `instanceof` or on `code`; never on `message`.
 */

export type ErrorFields = Record<string, unknown>;

export interface PithErrorInit {
  code: string;
  status: number;
  message: string;
  requestId?: string | null;
  fields?: ErrorFields;
  cause?: unknown;
}

export class PithError extends Error {
  /** The pith error code, e.g. `CONCURRENT_LIMIT`; `CONNECTION_ERROR` when no answer came. */
  readonly code: string;
  /** HTTP status; 0 when no answer came. */
  readonly status: number;
  readonly requestId: string | null;
  /** Extra envelope fields (`retry_after`, `in_flight`, `limit`, `upstream_status`, …). */
  readonly fields: ErrorFields;

  constructor(init: PithErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'PithError';
    this.code = init.code;
    this.status = init.status;
    this.requestId = init.requestId ?? null;
    this.fields = init.fields ?? {};
  }

  /** `retry_after` of the envelope: seconds (number) or an ISO instant (quota). */
  get retryAfter(): number | string | null {
    const value = this.fields.retry_after;
    return typeof value === 'number' || typeof value === 'string' ? value : null;
  }
}

function errorClass(name: string) {
  // A named subclass per code, so stack traces and `instanceof` read naturally.
  const cls = class extends PithError {
    constructor(init: PithErrorInit) {
      super(init);
      this.name = name;
    }
  };
  Object.defineProperty(cls, 'name', { value: name });
  return cls;
}

export class BadRequestError extends errorClass('BadRequestError') {}
export class InvalidUrlError extends errorClass('InvalidUrlError') {}
export class UnauthorizedError extends errorClass('UnauthorizedError') {}
export class PaymentRequiredError extends errorClass('PaymentRequiredError') {}
export class RobotsBlockedError extends errorClass('RobotsBlockedError') {}
export class WafBlockedError extends errorClass('WafBlockedError') {}
export class NotFoundError extends errorClass('NotFoundError') {}
export class UrlNotFoundError extends errorClass('UrlNotFoundError') {}
export class MethodNotAllowedError extends errorClass('MethodNotAllowedError') {}
export class PlanNotEligibleError extends errorClass('PlanNotEligibleError') {}
/** The Idempotency-Key was used with another request, or its first request still runs (then `retryAfter` is set). */
export class IdempotencyConflictError extends errorClass('IdempotencyConflictError') {}
export class TooLargeError extends errorClass('TooLargeError') {}
export class UnsupportedTypeError extends errorClass('UnsupportedTypeError') {}
export class ImagePdfError extends errorClass('ImagePdfError') {}
export class RateLimitedError extends errorClass('RateLimitedError') {}
export class ConcurrentLimitError extends errorClass('ConcurrentLimitError') {}
export class ExtractionFailedError extends errorClass('ExtractionFailedError') {}
export class InternalError extends errorClass('InternalError') {}
export class TlsError extends errorClass('TlsError') {}
export class UpstreamError extends errorClass('UpstreamError') {}
export class ServiceUnavailableError extends errorClass('ServiceUnavailableError') {}
/** `render: true` on a server that cannot render JavaScript now (refunded). */
export class RenderUnavailableError extends errorClass('RenderUnavailableError') {}
export class TimeoutError extends errorClass('TimeoutError') {}
/** No HTTP answer: DNS, refused connection, reset, or an answer that is not pith's JSON. */
export class ConnectionError extends errorClass('ConnectionError') {}

/** Code → class. Unknown codes from a newer server become a plain PithError. */
export const ERROR_CLASSES = {
  BAD_REQUEST: BadRequestError,
  INVALID_URL: InvalidUrlError,
  UNAUTHORIZED: UnauthorizedError,
  PAYMENT_REQUIRED: PaymentRequiredError,
  ROBOTS_BLOCKED: RobotsBlockedError,
  WAF_BLOCKED: WafBlockedError,
  NOT_FOUND: NotFoundError,
  URL_NOT_FOUND: UrlNotFoundError,
  METHOD_NOT_ALLOWED: MethodNotAllowedError,
  PLAN_NOT_ELIGIBLE: PlanNotEligibleError,
  IDEMPOTENCY_CONFLICT: IdempotencyConflictError,
  TOO_LARGE: TooLargeError,
  UNSUPPORTED_TYPE: UnsupportedTypeError,
  IMAGE_PDF: ImagePdfError,
  RATE_LIMITED: RateLimitedError,
  CONCURRENT_LIMIT: ConcurrentLimitError,
  EXTRACTION_FAILED: ExtractionFailedError,
  INTERNAL_ERROR: InternalError,
  TLS_ERROR: TlsError,
  UPSTREAM_ERROR: UpstreamError,
  SERVICE_UNAVAILABLE: ServiceUnavailableError,
  RENDER_UNAVAILABLE: RenderUnavailableError,
  TIMEOUT: TimeoutError,
} as const;

export type PithErrorCode = keyof typeof ERROR_CLASSES;

/** Builds the typed error for an error envelope (`{status: "error", code, message, request_id, ...fields}`). */
export function errorFromEnvelope(status: number, body: unknown, headerRequestId: string | null): PithError {
  const env = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const code = typeof env.code === 'string' ? env.code : 'INTERNAL_ERROR';
  const message = typeof env.message === 'string' ? env.message : `HTTP ${status}`;
  const requestId = typeof env.request_id === 'string' ? env.request_id : headerRequestId;
  const fields: ErrorFields = {};
  for (const [k, v] of Object.entries(env)) if (!['status', 'code', 'message', 'request_id'].includes(k)) fields[k] = v;
  const Cls: typeof PithError = (ERROR_CLASSES as Record<string, typeof PithError>)[code] ?? PithError;
  return new Cls({ code, status, message, requestId, fields });
}
