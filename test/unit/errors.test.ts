import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ServiceError } from '../../src/errors.js';

describe('error registry', () => {
  it('gives the spec statuses for the read errors', () => {
    const spec: Record<string, number> = {
      INVALID_URL: 400,
      UNAUTHORIZED: 401,
      PAYMENT_REQUIRED: 402,
      ROBOTS_BLOCKED: 403,
      WAF_BLOCKED: 403,
      URL_NOT_FOUND: 404,
      TOO_LARGE: 413,
      UNSUPPORTED_TYPE: 415,
      IMAGE_PDF: 422,
      RATE_LIMITED: 429,
      CONCURRENT_LIMIT: 429,
      EXTRACTION_FAILED: 500,
      TLS_ERROR: 502,
      TIMEOUT: 504,
    };
    for (const [code, status] of Object.entries(spec)) {
      expect(ERROR_CODES[code as keyof typeof ERROR_CODES].status, code).toBe(status);
    }
  });
  it('ServiceError carries code, status and fields', () => {
    const e = new ServiceError('CONCURRENT_LIMIT', undefined, { in_flight: 2, limit: 2, retry_after: 1 });
    expect(e.status).toBe(429);
    expect(e.fields.limit).toBe(2);
    expect(e.message).toMatch(/in flight/);
  });
});
