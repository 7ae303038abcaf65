import { describe, expect, it } from 'vitest';
import type { FetchLike, RetryInfo } from '../../../packages/sdk/src/index.js';
import { ConcurrentLimitError, ConnectionError, PithClient, ServiceUnavailableError } from '../../../packages/sdk/src/index.js';

/** A fetch that answers from a list and records what it was asked. */
function scripted(answers: Array<() => Response>) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetch: FetchLike = async (url, init) => {
    calls.push({ url, init });
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    return next();
  };
  return { fetch, calls };
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('PithClient (scripted fetch)', () => {
  it('sends the key, JSON body and request id to baseUrl without a doubled slash', async () => {
    const { fetch, calls } = scripted([json(200, { status: 'success', account_id: 'acc_1' }, { 'x-request-id': 'r1' })]);
    const client = new PithClient({ baseUrl: 'http://pith.test///', apiKey: 'pk_abc', fetch });
    const usage = await client.usage({ requestId: 'r1' });
    expect(usage.account_id).toBe('acc_1');
    expect(usage.billing.requestId).toBe('r1');
    expect(calls[0]?.url).toBe('http://pith.test/v1/usage');
    expect(calls[0]?.init.headers).toMatchObject({ authorization: 'Bearer pk_abc', 'x-request-id': 'r1' });
    expect(calls[0]?.init.body).toBeUndefined();
  });

  it('takes retry_after from the Retry-After header when the envelope has none', async () => {
    const { fetch, calls } = scripted([
      json(429, { status: 'error', code: 'CONCURRENT_LIMIT', message: 'busy', request_id: 'r2' }, { 'retry-after': '1' }),
      json(200, { status: 'success', url: 'u', markdown: 'm' }),
    ]);
    const retries: RetryInfo[] = [];
    const client = new PithClient({
      baseUrl: 'http://pith.test',
      apiKey: 'k',
      fetch,
      retry: { baseDelayMs: 1, onRetry: (i) => void retries.push(i) },
    });
    const result = await client.read('http://example.test/');
    expect(result.markdown).toBe('m');
    expect(calls).toHaveLength(2);
    expect(retries[0]?.error).toBeInstanceOf(ConcurrentLimitError);
    expect(retries[0]?.error.retryAfter).toBe(1);
    expect(retries[0]?.delayMs).toBeGreaterThanOrEqual(1000);
  });

  it('gives up after maxRetries and throws the last typed error', async () => {
    const busy = json(429, { status: 'error', code: 'CONCURRENT_LIMIT', message: 'busy', request_id: 'r', retry_after: 0 });
    const { fetch, calls } = scripted([busy, busy, busy]);
    const client = new PithClient({ baseUrl: 'http://pith.test', apiKey: 'k', fetch, retry: { maxRetries: 2, baseDelayMs: 1 } });
    await expect(client.read('http://example.test/')).rejects.toBeInstanceOf(ConcurrentLimitError);
    expect(calls).toHaveLength(3);
  });

  it('does not retry other codes without an Idempotency-Key, and maps a non-JSON answer to ConnectionError', async () => {
    const { fetch, calls } = scripted([
      json(503, { status: 'error', code: 'SERVICE_UNAVAILABLE', message: 'store down', request_id: 'r3' }),
      () => new Response('<html>bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }),
    ]);
    const client = new PithClient({ baseUrl: 'http://pith.test', apiKey: 'k', fetch });
    const down = await client.usage().catch((e: unknown) => e);
    expect(down).toBeInstanceOf(ServiceUnavailableError);
    expect(down).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, requestId: 'r3' });
    const proxy = await client.usage().catch((e: unknown) => e);
    expect(proxy).toBeInstanceOf(ConnectionError);
    expect(proxy).toMatchObject({ code: 'CONNECTION_ERROR', status: 502 });
    expect(calls).toHaveLength(2);
  });

  it('sends one Idempotency-Key per billable call and the same one on every retry: lost reply, 503, 409 in progress', async () => {
    let lost = true;
    const answers = [
      () => {
        if (lost) {
          lost = false;
          throw new TypeError('fetch failed: socket hang up');
        }
        return json(200, {})();
      },
      json(503, { status: 'error', code: 'SERVICE_UNAVAILABLE', message: 'busy', request_id: 'r4', retry_after: 0 }),
      json(409, { status: 'error', code: 'IDEMPOTENCY_CONFLICT', message: 'still running', request_id: 'r5', retry_after: 0 }),
      json(200, { status: 'success', url: 'u', markdown: 'm' }, { 'idempotent-replayed': 'true' }),
    ];
    const { fetch, calls } = scripted(answers);
    const client = new PithClient({ baseUrl: 'http://pith.test', apiKey: 'k', fetch, retry: { baseDelayMs: 1, maxDelayMs: 5 } });
    expect((await client.read('http://example.test/')).markdown).toBe('m');
    expect(calls).toHaveLength(4);
    const keys = calls.map((c) => (c.init.headers as Record<string, string>)['idempotency-key']);
    expect(keys[0]).toMatch(/^[\x21-\x7e]{8,255}$/);
    expect(new Set(keys).size).toBe(1);
    // the next call has a key of its own; a caller's key is sent as given; GETs carry none
    const next = scripted([json(200, { status: 'success' }), json(200, { status: 'success' }), json(200, { status: 'success' })]);
    const other = new PithClient({ baseUrl: 'http://pith.test', apiKey: 'k', fetch: next.fetch });
    await other.read('http://example.test/');
    await other.batch(['http://example.test/'], { idempotencyKey: 'order-42' });
    await other.usage();
    const sent = next.calls.map((c) => (c.init.headers as Record<string, string>)['idempotency-key']);
    expect(sent[0]).not.toBe(keys[0]);
    expect(sent[1]).toBe('order-42');
    expect(sent[2]).toBeUndefined();
  });

  it('a 409 for a key used with another request is final', async () => {
    const { fetch, calls } = scripted([
      json(409, { status: 'error', code: 'IDEMPOTENCY_CONFLICT', message: 'used with another request', request_id: 'r6' }),
    ]);
    const client = new PithClient({ baseUrl: 'http://pith.test', apiKey: 'k', fetch, retry: { baseDelayMs: 1 } });
    await expect(client.read('http://example.test/', { idempotencyKey: 'k1' })).rejects.toMatchObject({
      code: 'IDEMPOTENCY_CONFLICT',
      status: 409,
    });
    expect(calls).toHaveLength(1);
  });
});
