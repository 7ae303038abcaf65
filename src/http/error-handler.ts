import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode, ErrorFields } from '../errors.js';
import { ServiceError, isServiceError } from '../errors.js';
import { MAX_URL_LENGTH } from '../fetch/url.js';

/** Fastify's own request-parsing errors, mapped to registry codes. */
const FASTIFY_CODES: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'BAD_REQUEST', message: 'Content-Type must be application/json' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'BAD_REQUEST', message: 'the JSON body is empty' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'BAD_REQUEST', message: 'the body is not valid JSON' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'TOO_LARGE', message: 'the request body is over 64 KB' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'BAD_REQUEST', message: 'Content-Length does not match the body' },
  FST_ERR_CTP_INVALID_TYPE: { code: 'BAD_REQUEST', message: 'invalid Content-Type' },
  FST_ERR_CTP_INVALID_CONTENT_TYPE: { code: 'BAD_REQUEST', message: 'invalid Content-Type' },
  FST_ERR_BAD_URL: { code: 'BAD_REQUEST', message: 'the request path is malformed' },
};

export interface ErrorEnvelope {
  status: 'error';
  code: ErrorCode;
  message: string;
  request_id: string;
  [field: string]: unknown;
}

export function toServiceError(err: unknown): ServiceError | null {
  if (isServiceError(err)) return err;
  const fe = err as Partial<FastifyError> & { validation?: unknown; type?: string };
  if (fe && typeof fe === 'object') {
    if (fe.validation) {
      if (isUrlLengthViolation(fe.validation)) return new ServiceError('INVALID_URL', urlLengthMessage(fe.validation));
      return new ServiceError('BAD_REQUEST', fe.message ?? 'the request body is invalid');
    }
    const mapped = fe.code ? FASTIFY_CODES[fe.code] : undefined;
    if (mapped) return new ServiceError(mapped.code, mapped.message);
    // JSON.parse failures surface as SyntaxError with statusCode 400 from the JSON parser
    if (err instanceof SyntaxError && fe.statusCode === 400) return new ServiceError('BAD_REQUEST', 'the body is not valid JSON');
    if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
      return new ServiceError('BAD_REQUEST', 'the request is malformed');
    }
  }
  return null;
}

interface ValidationIssue {
  instancePath?: string;
  keyword?: string;
}

/** `/url` or `/urls/3`: the fields that carry a target URL. */
const URL_FIELD = /^\/urls?(?:\/\d+)?$/;

/**
 * An empty URL or one over the length bound is still a URL that is invalid (the spec's
 * INVALID_URL), not a malformed request: the schema's string bounds only exist to refuse
 * it before any work.
 */
function isUrlLengthViolation(validation: unknown): boolean {
  if (!Array.isArray(validation) || validation.length === 0) return false;
  const first = validation[0] as ValidationIssue;
  return (first.keyword === 'minLength' || first.keyword === 'maxLength') && URL_FIELD.test(first.instancePath ?? '');
}

function urlLengthMessage(validation: unknown): string {
  const first = (validation as ValidationIssue[])[0];
  return first?.keyword === 'minLength' ? 'the URL is empty' : `the URL is longer than the accepted maximum (${MAX_URL_LENGTH} characters)`;
}

export function envelope(requestId: string, code: ErrorCode, message: string, fields: ErrorFields = {}): ErrorEnvelope {
  return { status: 'error', code, message, request_id: requestId, ...fields };
}

export function sendError(request: FastifyRequest, reply: FastifyReply, err: ServiceError): FastifyReply {
  const retryAfter = err.fields.retry_after;
  if ((err.status === 429 || err.status === 503) && retryAfter !== undefined) {
    // Retry-After takes seconds; a quota retry_after is an ISO date
    const seconds =
      typeof retryAfter === 'number' ? retryAfter : Math.max(1, Math.ceil((Date.parse(String(retryAfter)) - request.server.now()) / 1000));
    reply.header('Retry-After', String(seconds));
  }
  return reply
    .code(err.status)
    .type('application/json; charset=utf-8')
    .send(envelope(request.id, err.code, err.message, err.fields));
}

/** The one root error handler and not-found handler (STYLE §1). */
export function registerErrorHandling(app: FastifyInstance, allowedMethods: (path: string) => string[]): void {
  app.setErrorHandler((err, request, reply) => {
    const serviceError = toServiceError(err);
    if (serviceError) {
      if (serviceError.status >= 500) request.log.error({ err }, serviceError.code);
      else request.log.info({ code: serviceError.code }, serviceError.message);
      return sendError(request, reply, serviceError);
    }
    request.log.error({ err }, 'unhandled error');
    return sendError(request, reply, new ServiceError('INTERNAL_ERROR'));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? request.url;
    const allowed = allowedMethods(path);
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      reply.header('Allow', allowed.join(', '));
      return sendError(
        request,
        reply,
        new ServiceError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${path}; use ${allowed.join(', ')}`),
      );
    }
    return sendError(request, reply, new ServiceError('NOT_FOUND', `no route ${request.method} ${path}`));
  });
}
