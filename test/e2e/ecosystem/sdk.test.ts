import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RetryInfo } from '../../../packages/sdk/src/index.js';
import {
  ConcurrentLimitError,
  ConnectionError,
  InvalidUrlError,
  PithClient,
  PithError,
  RateLimitedError,
  UnauthorizedError,
  UrlNotFoundError,
} from '../../../packages/sdk/src/index.js';
import type { TestService } from '../../helpers/service.js';
import { startService } from '../../helpers/service.js';
import type { FixtureSite } from './fixtures.js';
import { startFixtureSite } from './fixtures.js';
import { seedPlanUsage } from '../../helpers/seed.js';

describe('@pith/sdk against a real started server', () => {
  let svc: TestService;
  let site: FixtureSite;

  beforeAll(async () => {
    site = await startFixtureSite();
    svc = await startService();
  });
  afterAll(async () => {
    await site.close();
    await svc.close();
  });

  /** A client whose fetch counts the HTTP calls it makes. */
  function countingClient(apiKey: string, retry?: ConstructorParameters<typeof PithClient>[0]['retry']) {
    const calls = { n: 0 };
    const client = new PithClient({
      baseUrl: `${svc.baseUrl}/`,
      apiKey,
      fetch: (input, init) => {
        calls.n++;
        return fetch(input, init);
      },
      ...(retry ? { retry } : {}),
    });
    return { client, calls };
  }

  it('reads a page as typed JSON with the billing headers surfaced, then hits the cache', async () => {
    const { apiKey } = await svc.newAccount('free');
    const client = new PithClient({ baseUrl: svc.baseUrl, apiKey });
    const first = await client.read(`${site.origin}/article.html`, { requestId: 'sdk-test-1' });
    expect(first.status).toBe('success');
    expect(first.markdown).toContain('## Why Markdown');
    expect(first.metadata.title).toBe('Pith fixture article');
    expect(first.cache.hit).toBe(false);
    expect(first.billing).toEqual({
      cache: 'MISS',
      planRemaining: 999,
      planResetAt: '2026-12-01T00:00:00.000Z',
      billed: 'plan',
      creditsRemaining: null,
      concurrentRemaining: 1,
      requestId: 'sdk-test-1',
    });
    const second = await client.read({ url: `${site.origin}/article.html` });
    expect(second.billing.cache).toBe('HIT');
    expect(second.billing.planRemaining).toBe(998);
    const md = await client.readMarkdown(`${site.origin}/article.html`);
    expect(md.markdown).toContain('| free | 1000 |');
    expect(md.billing.cache).toBe('HIT');
    const usage = await client.usage();
    expect(usage).toMatchObject({
      plan: 'free',
      plan_credits: { limit: 1000, used: 3, remaining: 997 },
      concurrency: { limit: 2, in_flight: 0 },
    });
  });

  it('throws one typed error class per code, with code, status, request id and fields', async () => {
    const { apiKey } = await svc.newAccount('free');
    const client = new PithClient({ baseUrl: svc.baseUrl, apiKey });
    const missing = await client.read(`${site.origin}/missing`).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(UrlNotFoundError);
    expect(missing).toBeInstanceOf(PithError);
    expect(missing).toMatchObject({ code: 'URL_NOT_FOUND', status: 404, name: 'UrlNotFoundError' });
    expect((missing as PithError).requestId).toMatch(/^req_/);

    const privateTarget = await client.read('http://10.1.2.3/').catch((e: unknown) => e);
    expect(privateTarget).toBeInstanceOf(InvalidUrlError);

    const badKey = new PithClient({ baseUrl: svc.baseUrl, apiKey: 'pk_not_a_real_key' });
    const unauthorized = await badKey.usage().catch((e: unknown) => e);
    expect(unauthorized).toBeInstanceOf(UnauthorizedError);
    expect((unauthorized as PithError).status).toBe(401);

    const nobody = new PithClient({ baseUrl: 'http://127.0.0.1:9', apiKey });
    const refused = await nobody.usage().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConnectionError);
    expect((refused as PithError).code).toBe('CONNECTION_ERROR');
  });

  it('retries CONCURRENT_LIMIT honouring retry_after, then succeeds (Free: 2 slots, slow target)', async () => {
    const { apiKey } = await svc.newAccount('free');
    const holder = new PithClient({ baseUrl: svc.baseUrl, apiKey, retry: { maxRetries: 0 } });
    const held = [1, 2].map((i) => holder.read(`${site.origin}/slow?i=${i}`));
    await site.gate.waitFor(2);

    const retries: RetryInfo[] = [];
    const { client, calls } = countingClient(apiKey, {
      maxRetries: 3,
      onRetry: (info) => {
        retries.push(info);
        site.openGates(); // the two slow reads finish while the client waits
      },
    });
    const waiting = client.read(`${site.origin}/article.html`);
    const result = await waiting;
    expect(result.markdown).toContain('## Why Markdown');
    expect(retries).toHaveLength(1);
    expect(retries[0]?.error).toBeInstanceOf(ConcurrentLimitError);
    expect(retries[0]?.error.fields).toMatchObject({ in_flight: 2, limit: 2, retry_after: 1 });
    expect(retries[0]?.delayMs).toBeGreaterThanOrEqual(1000); // retry_after: 1 s
    expect(calls.n).toBe(2);
    expect((await Promise.all(held)).map((r) => r.status)).toEqual(['success', 'success']);
  });

  it('gives CONCURRENT_LIMIT to the caller when retries are off', async () => {
    const { apiKey } = await svc.newAccount('free');
    const holder = new PithClient({ baseUrl: svc.baseUrl, apiKey });
    const held = [1, 2].map((i) => holder.read(`${site.origin}/slow?off=${i}`));
    await site.gate.waitFor(2);
    const { client, calls } = countingClient(apiKey, { maxRetries: 0 });
    const err = await client.read(`${site.origin}/article.html`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConcurrentLimitError);
    expect((err as ConcurrentLimitError).retryAfter).toBe(1);
    expect(calls.n).toBe(1);
    site.openGates();
    await Promise.all(held);
  });

  it('does not retry RATE_LIMITED unless asked; when asked, retries after the wait', async () => {
    const { apiKey, accountId } = await svc.newAccount('free');
    await seedPlanUsage(svc, accountId, 'free', 1000);

    const plain = countingClient(apiKey);
    const err = await plain.client.read(`${site.origin}/article.html`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfter).toBe('2026-12-01T00:00:00.000Z');
    expect(plain.calls.n).toBe(1);

    const startClock = svc.clock.now;
    const asked = countingClient(apiKey, {
      retryRateLimited: true,
      maxDelayMs: 20,
      onRetry: () => {
        svc.clock.now = Date.UTC(2026, 11, 1, 0, 0, 1); // the new month begins while the client waits
      },
    });
    try {
      const ok = await asked.client.read(`${site.origin}/article.html`);
      expect(ok.billing.planRemaining).toBe(999);
      expect(asked.calls.n).toBe(2);
    } finally {
      svc.clock.now = startClock;
    }
  });

  it('stops a call when its AbortSignal fires', async () => {
    const { apiKey } = await svc.newAccount('free');
    const client = new PithClient({ baseUrl: svc.baseUrl, apiKey });
    const controller = new AbortController();
    const pending = client.read(`${site.origin}/slow?abort=1`, { signal: controller.signal }).catch((e: unknown) => e);
    await site.gate.waitFor(1);
    controller.abort(new Error('caller gave up'));
    const err = await pending;
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe('caller gave up');
    site.openGates();
  });

  it('calls the sibling operations with typed results: score, readAndScore, batch, extract, map', async () => {
    const { apiKey } = await svc.newAccount('starter');
    const client = new PithClient({ baseUrl: svc.baseUrl, apiKey });
    const url = `${site.origin}/article.html`;

    const scored = await client.score(url);
    expect(scored.score.value).toBeGreaterThanOrEqual(0);
    expect(scored.score.value).toBeLessThanOrEqual(100);
    expect(scored.score.checks.length).toBeGreaterThan(0);
    expect(scored.billing.billed).toBeNull(); // score is free
    expect(scored.billing.planRemaining).toBe(10000);

    const both = await client.readAndScore({ url });
    expect(both.markdown).toContain('## Why Markdown');
    expect(both.score.grade).toMatch(/^[A-F]$/);
    expect(both.billing.planRemaining).toBe(9999);

    const batch = await client.batch([url, `${site.origin}/missing`]);
    const [ok, failed] = batch.results;
    expect(ok?.ok && ok.markdown).toContain('## Why Markdown');
    expect(failed?.ok === false && failed.error.code).toBe('URL_NOT_FOUND');
    expect(batch.billing.planRemaining).toBe(9998); // 2 charged, the failed item refunded

    const extracted = await client.extract({ url, fields: { heading: { selector: 'h2' } } });
    expect(JSON.stringify(extracted.data.json_ld)).toContain('Pith fixture article');
    expect(extracted.data.fields).toEqual({ heading: 'Why Markdown' });
    expect(extracted.billing.planRemaining).toBe(9997);

    const mapped = await client.map({ url, limit: 10 });
    expect(mapped.links.map((l) => l.url)).toContain(`${site.origin}/docs/one.html`);
    expect(mapped.billing.planRemaining).toBe(9996);
  });
});
