import { utcPeriod } from '../../../src/billing/period.js';
import type { CallOptions, TestService } from '../../helpers/service.js';

/** Exact counters of an account in the service's current month. */
export async function usageOf(svc: TestService, accountId: string): Promise<{ planUsed: number; boughtBalance: number }> {
  return svc.stores.ledger.getUsage(accountId, utcPeriod(svc.clock.now));
}

export interface BadInputCase {
  name: string;
  opts: (key: string) => CallOptions;
  status: number;
  code: string;
}

/** Bad-input cases every JSON POST route shares (body not an object, not JSON, wrong type). */
export function commonBadBodies(): BadInputCase[] {
  const json = { 'content-type': 'application/json' };
  return [
    { name: 'no body', opts: (k) => ({ method: 'POST', key: k }), status: 400, code: 'BAD_REQUEST' },
    { name: 'invalid JSON', opts: (k) => ({ key: k, rawBody: '{"url":', headers: json }), status: 400, code: 'BAD_REQUEST' },
    { name: 'JSON null', opts: (k) => ({ key: k, rawBody: 'null', headers: json }), status: 400, code: 'BAD_REQUEST' },
    { name: 'JSON array', opts: (k) => ({ key: k, body: ['https://example.com'] }), status: 400, code: 'BAD_REQUEST' },
    {
      name: 'text/plain body',
      opts: (k) => ({ key: k, rawBody: 'https://example.com', headers: { 'content-type': 'text/plain' } }),
      status: 400,
      code: 'BAD_REQUEST',
    },
    {
      name: 'body over 64 KB',
      opts: (k) => ({ key: k, body: { url: 'https://example.com/', pad: 'x'.repeat(70_000) } }),
      status: 413,
      code: 'TOO_LARGE',
    },
    { name: 'no API key', opts: () => ({ body: { url: 'https://example.com/' } }), status: 401, code: 'UNAUTHORIZED' },
    { name: 'wrong API key', opts: () => ({ key: 'pk_wrong', body: { url: 'https://example.com/' } }), status: 401, code: 'UNAUTHORIZED' },
  ];
}

/** Bad `url` values every single-URL operation refuses before charging. */
export function badUrlCases(extra: Record<string, unknown> = {}): BadInputCase[] {
  const c = (name: string, url: unknown, code: string): BadInputCase => ({
    name,
    opts: (k) => ({ key: k, body: { ...extra, url } }),
    status: 400,
    code,
  });
  return [
    { name: 'missing url', opts: (k) => ({ key: k, body: { ...extra } }), status: 400, code: 'BAD_REQUEST' },
    c('url is a number', 42, 'BAD_REQUEST'),
    c('url is null', null, 'BAD_REQUEST'),
    c('url is empty', '', 'INVALID_URL'),
    c('url too long', `https://example.com/${'a'.repeat(9000)}`, 'INVALID_URL'),
    c('url not a URL', 'not a url', 'INVALID_URL'),
    c('ftp scheme', 'ftp://example.com/file', 'INVALID_URL'),
    c('localhost', 'http://localhost:8080/', 'INVALID_URL'),
    c('private IP literal', 'http://10.0.0.1/', 'INVALID_URL'),
    c('metadata IP literal', 'http://169.254.169.254/latest/meta-data/', 'INVALID_URL'),
    c('credentials in URL', 'http://user:pw@example.com/', 'INVALID_URL'),
  ];
}
