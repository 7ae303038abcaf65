import { describe, expect, it } from 'vitest';
import type { FetchedDocument, FetchedResource, Fetcher, ResourceFetcher, ResourceOptions } from '../../../src/fetch/types.js';
import { scoreDocument } from '../../../src/ops/score.js';

const page: FetchedDocument = {
  url: 'https://e.com/docs',
  status: 200,
  headers: { 'content-type': 'text/html' },
  contentType: 'text/html',
  body: Buffer.from('<html lang="en"><head><title>Docs</title></head><body><main><h1>Docs</h1></main></body></html>'),
};

describe('scoreDocument probes', () => {
  it('share one bound: probes that never answer fail their checks and the score still comes back', async () => {
    const seen: Array<{ url: string; opts: ResourceOptions | undefined }> = [];
    const fetcher: Fetcher & ResourceFetcher = {
      fetch: async () => page,
      fetchResource: (url, opts): Promise<FetchedResource> => {
        seen.push({ url, opts });
        return new Promise((_, reject) => opts?.signal?.addEventListener('abort', () => reject(opts.signal?.reason), { once: true }));
      },
    };
    const score = await scoreDocument({ fetcher, probeBudgetMs: 50 }, page);
    const byId = Object.fromEntries(score.checks.map((c) => [c.id, c]));
    expect(byId.ai_crawlers?.points).toBe(0);
    expect(byId.llms_txt?.detail).toBe('/llms.txt could not be fetched');
    expect(byId.markdown_negotiation?.points).toBe(0);
    expect(byId.title?.points).toBe(5);
    // robots.txt, llms.txt and the Markdown refetch start together under the same signal
    expect(seen.map((s) => s.url).sort()).toEqual(['https://e.com/docs', 'https://e.com/llms.txt', 'https://e.com/robots.txt']);
    expect(new Set(seen.map((s) => s.opts?.signal)).size).toBe(1);
    expect(seen.find((s) => s.url === 'https://e.com/docs')?.opts?.headers).toEqual({ accept: 'text/markdown' });
  });

  it('a caller abort (client gone) is thrown, not scored', async () => {
    const controller = new AbortController();
    const fetcher: Fetcher & ResourceFetcher = {
      fetch: async () => page,
      fetchResource: async (url) => {
        controller.abort(new Error('client went away'));
        return { url, status: 404, headers: {}, contentType: null, body: Buffer.alloc(0), truncated: false };
      },
    };
    await expect(scoreDocument({ fetcher }, page, controller.signal)).rejects.toThrow('client went away');
  });
});
