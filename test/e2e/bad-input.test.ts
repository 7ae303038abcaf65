import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallOptions, TestService } from '../helpers/service.js';
import { startService } from '../helpers/service.js';

interface Case {
  name: string;
  path?: string;
  opts: (key: string, revoked: string) => CallOptions;
  status: number;
  code: string;
}

const longUrl = `https://example.com/${'a'.repeat(9000)}`;

/** Malformed requests → the right 4xx envelope, never a 500, never a charge. */
const CASES: Case[] = [
  { name: 'no body', opts: (k) => ({ method: 'POST', key: k }), status: 400, code: 'BAD_REQUEST' },
  {
    name: 'empty JSON body',
    opts: (k) => ({ method: 'POST', key: k, rawBody: '', headers: { 'content-type': 'application/json' } }),
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'invalid JSON',
    opts: (k) => ({ key: k, rawBody: '{"url":', headers: { 'content-type': 'application/json' } }),
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'JSON with trailing garbage',
    opts: (k) => ({ key: k, rawBody: '{"url":"https://example.com"} x', headers: { 'content-type': 'application/json' } }),
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'JSON null',
    opts: (k) => ({ key: k, rawBody: 'null', headers: { 'content-type': 'application/json' } }),
    status: 400,
    code: 'BAD_REQUEST',
  },
  { name: 'JSON array', opts: (k) => ({ key: k, body: ['https://example.com'] }), status: 400, code: 'BAD_REQUEST' },
  { name: 'JSON string', opts: (k) => ({ key: k, body: 'https://example.com' }), status: 400, code: 'BAD_REQUEST' },
  {
    name: 'JSON number',
    opts: (k) => ({ key: k, rawBody: '42', headers: { 'content-type': 'application/json' } }),
    status: 400,
    code: 'BAD_REQUEST',
  },
  { name: 'missing url', opts: (k) => ({ key: k, body: { fresh: true } }), status: 400, code: 'BAD_REQUEST' },
  { name: 'url is a number', opts: (k) => ({ key: k, body: { url: 42 } }), status: 400, code: 'BAD_REQUEST' },
  { name: 'url is null', opts: (k) => ({ key: k, body: { url: null } }), status: 400, code: 'BAD_REQUEST' },
  { name: 'url is an object', opts: (k) => ({ key: k, body: { url: { href: 'https://example.com' } } }), status: 400, code: 'BAD_REQUEST' },
  { name: 'url is an array', opts: (k) => ({ key: k, body: { url: ['https://example.com'] } }), status: 400, code: 'BAD_REQUEST' },
  { name: 'url is empty', opts: (k) => ({ key: k, body: { url: '' } }), status: 400, code: 'INVALID_URL' },
  { name: 'url too long', opts: (k) => ({ key: k, body: { url: longUrl } }), status: 400, code: 'INVALID_URL' },
  {
    name: 'fresh is a string',
    opts: (k) => ({ key: k, body: { url: 'https://example.com', fresh: 'true' } }),
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'fresh is a number',
    opts: (k) => ({ key: k, body: { url: 'https://example.com', fresh: 1 } }),
    status: 400,
    code: 'BAD_REQUEST',
  },
  { name: 'url not a URL', opts: (k) => ({ key: k, body: { url: 'not a url' } }), status: 400, code: 'INVALID_URL' },
  { name: 'ftp scheme', opts: (k) => ({ key: k, body: { url: 'ftp://example.com/file' } }), status: 400, code: 'INVALID_URL' },
  { name: 'javascript scheme', opts: (k) => ({ key: k, body: { url: 'javascript:alert(1)' } }), status: 400, code: 'INVALID_URL' },
  { name: 'file scheme', opts: (k) => ({ key: k, body: { url: 'file:///etc/passwd' } }), status: 400, code: 'INVALID_URL' },
  { name: 'localhost', opts: (k) => ({ key: k, body: { url: 'http://localhost:8080/' } }), status: 400, code: 'INVALID_URL' },
  { name: 'private IP literal', opts: (k) => ({ key: k, body: { url: 'http://10.0.0.1/' } }), status: 400, code: 'INVALID_URL' },
  {
    name: 'metadata IP literal',
    opts: (k) => ({ key: k, body: { url: 'http://169.254.169.254/latest/meta-data/' } }),
    status: 400,
    code: 'INVALID_URL',
  },
  {
    name: 'decimal loopback spelling (127.0.0.2)',
    opts: (k) => ({ key: k, body: { url: 'http://2130706434/' } }),
    status: 400,
    code: 'INVALID_URL',
  },
  { name: 'IPv6 loopback', opts: (k) => ({ key: k, body: { url: 'http://[::1]/' } }), status: 400, code: 'INVALID_URL' },
  {
    name: 'wrong content type',
    opts: (k) => ({ key: k, rawBody: 'url=https://example.com', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'text/plain body',
    opts: (k) => ({ key: k, rawBody: '{"url":"https://example.com"}', headers: { 'content-type': 'text/plain' } }),
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'body over 64 KB',
    opts: (k) => ({ key: k, body: { url: 'https://example.com', pad: 'x'.repeat(70_000) } }),
    status: 413,
    code: 'TOO_LARGE',
  },
  { name: 'no Authorization header', opts: () => ({ body: { url: 'https://example.com' } }), status: 401, code: 'UNAUTHORIZED' },
  {
    name: 'empty Authorization header',
    opts: () => ({ body: { url: 'https://example.com' }, headers: { authorization: '' } }),
    status: 401,
    code: 'UNAUTHORIZED',
  },
  {
    name: 'Basic scheme',
    opts: (k) => ({ body: { url: 'https://example.com' }, headers: { authorization: `Basic ${Buffer.from(`${k}:`).toString('base64')}` } }),
    status: 401,
    code: 'UNAUTHORIZED',
  },
  {
    name: 'Bearer without token',
    opts: () => ({ body: { url: 'https://example.com' }, headers: { authorization: 'Bearer' } }),
    status: 401,
    code: 'UNAUTHORIZED',
  },
  {
    name: 'Bearer with two tokens',
    opts: (k) => ({ body: { url: 'https://example.com' }, headers: { authorization: `Bearer ${k} ${k}` } }),
    status: 401,
    code: 'UNAUTHORIZED',
  },
  {
    name: 'token without scheme',
    opts: (k) => ({ body: { url: 'https://example.com' }, headers: { authorization: k } }),
    status: 401,
    code: 'UNAUTHORIZED',
  },
  {
    name: 'unknown key of the right shape',
    opts: () => ({ key: `pk_${'A'.repeat(43)}`, body: { url: 'https://example.com' } }),
    status: 401,
    code: 'UNAUTHORIZED',
  },
  {
    name: 'key with wrong prefix',
    opts: (k) => ({ key: `sk_${k.slice(3)}`, body: { url: 'https://example.com' } }),
    status: 401,
    code: 'UNAUTHORIZED',
  },
  {
    name: 'truncated key',
    opts: (k) => ({ key: k.slice(0, -1), body: { url: 'https://example.com' } }),
    status: 401,
    code: 'UNAUTHORIZED',
  },
  {
    name: 'revoked key',
    opts: (_k, revoked) => ({ key: revoked, body: { url: 'https://example.com' } }),
    status: 401,
    code: 'UNAUTHORIZED',
  },
  { name: 'GET on /v1/read', opts: (k) => ({ method: 'GET', key: k }), status: 405, code: 'METHOD_NOT_ALLOWED' },
  {
    name: 'PUT on /v1/read',
    opts: (k) => ({ method: 'PUT', key: k, body: { url: 'https://example.com' } }),
    status: 405,
    code: 'METHOD_NOT_ALLOWED',
  },
  {
    name: 'unknown route',
    path: '/v1/nope',
    opts: (k) => ({ key: k, body: { url: 'https://example.com' } }),
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    name: 'unknown version',
    path: '/v2/read',
    opts: (k) => ({ key: k, body: { url: 'https://example.com' } }),
    status: 404,
    code: 'NOT_FOUND',
  },
  { name: 'POST on /v1/usage', path: '/v1/usage', opts: (k) => ({ key: k, body: {} }), status: 405, code: 'METHOD_NOT_ALLOWED' },
];

describe('bad input never becomes a 500 and never costs anything', () => {
  let svc: TestService;
  let key: string;
  let revoked: string;
  let accountId: string;

  beforeAll(async () => {
    svc = await startService();
    ({ apiKey: key, accountId } = await svc.newAccount('free'));
    const extra = await svc.call(`/admin/v1/accounts/${accountId}/keys`, {
      key: 'test-admin-token-0123456789abcdef0123456789',
      body: { name: 'to revoke' },
    });
    revoked = extra.json.api_key;
    const del = await svc.call(`/admin/v1/accounts/${accountId}/keys/${extra.json.key_id}`, {
      method: 'DELETE',
      key: 'test-admin-token-0123456789abcdef0123456789',
    });
    expect(del.status).toBe(204);
  });
  afterAll(async () => svc.close());

  it('has at least 30 cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(30);
  });

  it.each(CASES)('$name → $status $code', async (c) => {
    const res = await svc.call(c.path ?? '/v1/read', c.opts(key, revoked));
    expect(res.status, res.text).toBe(c.status);
    expect(res.json).toMatchObject({ status: 'error', code: c.code, request_id: res.headers['x-request-id'] });
    expect(typeof res.json.message).toBe('string');
    expect(res.text).not.toMatch(/at .*\.(ts|js):\d+/); // no stack trace
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('charged nothing for any of them', async () => {
    const usage = await svc.call('/v1/usage', { key });
    expect(usage.json.plan_credits.used).toBe(0);
    expect(await svc.stores.ledger.listEntries(accountId)).toEqual([]);
  });

  it('fuzzed JSON bodies get a 4xx envelope, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 3 }), async (value) => {
        // a body with a url field could name a real host; this test is about shapes, never the network
        fc.pre(!(value !== null && typeof value === 'object' && !Array.isArray(value) && 'url' in value));
        const res = await svc.call('/v1/read', { key, rawBody: JSON.stringify(value), headers: { 'content-type': 'application/json' } });
        // objects with a valid public url would be fetched; anything else must be refused cleanly
        expect(res.status).toBeLessThan(500);
        expect(res.json?.status).toBe(res.status === 200 ? 'success' : 'error');
      }),
      { numRuns: 150 },
    );
  });

  it('fuzzed raw bodies and Authorization headers never crash the server', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), fc.string({ maxLength: 80 }), async (body, auth) => {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (/^[\t\x20-\x7e]*$/.test(auth)) headers.authorization = auth;
        const res = await svc.call('/v1/read', { rawBody: body, headers });
        expect([400, 401, 413]).toContain(res.status);
        expect(res.json.status).toBe('error');
      }),
      { numRuns: 150 },
    );
  });
});
