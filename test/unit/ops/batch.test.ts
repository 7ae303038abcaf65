import { describe, expect, it } from 'vitest';
import type { FetchedDocument, Fetcher } from '../../../src/fetch/types.js';
import { readBatch } from '../../../src/ops/batch.js';
import { memoryCache } from '../../e2e/fetch/helpers.js';

const PAGE =
  '<html><head><title>Item</title></head><body><main><p>A paragraph long enough to be the content of this item.</p></main></body></html>';

/** A fetcher whose every page takes `delayMs` of the injected clock; it lists the fetches it started. */
function slowFetcher(clock: { now: number }, delayMs: number): Fetcher & { started: string[] } {
  const started: string[] = [];
  return {
    started,
    async fetch(url): Promise<FetchedDocument> {
      started.push(url);
      clock.now += delayMs;
      return { url, status: 200, headers: { 'content-type': 'text/html' }, contentType: 'text/html', body: Buffer.from(PAGE) };
    },
  };
}

describe('readBatch time limit', () => {
  it('starts no item after the limit: the rest fail with TIMEOUT and are refunded, started ones finish', async () => {
    const clock = { now: Date.UTC(2026, 10, 25) };
    const fetcher = slowFetcher(clock, 300);
    const failed: number[] = [];
    const urls = Array.from({ length: 6 }, (_, i) => `https://example.com/item-${i}`);
    const items = await readBatch(
      { fetcher, cache: memoryCache(), engineVersion: 't', now: () => clock.now },
      {
        urls,
        parallelism: 1,
        allowPrivateTargets: [],
        render: false,
        timeLimitMs: 450,
        onItemFailed: async (index) => void failed.push(index),
      },
    );
    // items 0 and 1 start at about 0 ms and 300 ms; item 2 would start at about 600 ms
    expect(fetcher.started).toEqual(urls.slice(0, 2));
    expect(items.slice(0, 2).every((item) => item.ok)).toBe(true);
    for (const item of items.slice(2)) {
      expect(item).toMatchObject({ ok: false, error: { code: 'TIMEOUT', message: expect.stringContaining('time limit') } });
    }
    expect(failed).toEqual([2, 3, 4, 5]);
  });
});

describe('readBatch answer size', () => {
  it('items beyond the Markdown bound of the answer are TOO_LARGE and refunded; duplicates each count', async () => {
    const clock = { now: Date.UTC(2026, 10, 25) };
    const fetcher = slowFetcher(clock, 0);
    const failed: number[] = [];
    const urls = Array.from({ length: 5 }, () => 'https://example.com/same');
    const items = await readBatch(
      { fetcher, cache: memoryCache(), engineVersion: 't', now: () => clock.now },
      {
        urls,
        parallelism: 1,
        allowPrivateTargets: [],
        render: false,
        // room for two copies of the page's Markdown
        maxMarkdownChars: 2 * 70 + 10,
        onItemFailed: async (index) => void failed.push(index),
      },
    );
    expect(fetcher.started).toHaveLength(1); // one read shared by the duplicates
    const markdown = items[0]?.ok ? items[0].result.content : '';
    expect(markdown.length).toBeGreaterThan(50);
    expect(markdown.length).toBeLessThanOrEqual(70);
    expect(items.map((i) => (i.ok ? 'ok' : i.error.code))).toEqual(['ok', 'ok', 'TOO_LARGE', 'TOO_LARGE', 'TOO_LARGE']);
    expect(failed).toEqual([2, 3, 4]);
  });
});
