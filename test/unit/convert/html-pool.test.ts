import { afterEach, describe, expect, it } from 'vitest';
import { convertDocument } from '../../../src/convert/index.js';
import { HtmlWorkerPool } from '../../../src/convert/workers/html-pool.js';
import { htmlToMarkdown } from '../../../src/convert/html/index.js';

const PAGE = `<!doctype html><html lang="en"><head><title>Harbour notes</title></head><body>
<nav><a href="/">Home</a></nav><main><article><h1>Harbour notes</h1>
<p>The harbour master posts the tide table every morning at six, and boats leave an hour later.</p>
<p>Visitors may moor at the north pontoon for up to three nights; see <a href="/fees">fees</a>.</p>
</article></main></body></html>`;

const pools: HtmlWorkerPool[] = [];
afterEach(async () => {
  for (const p of pools.splice(0)) await p.close();
});

describe('HtmlWorkerPool', () => {
  it('gives exactly what the in-process engine gives, through convertDocument', async () => {
    const pool = new HtmlWorkerPool({ size: 1 });
    pools.push(pool);
    const input = { body: Buffer.from(PAGE), contentType: 'text/html', headers: {}, url: 'https://harbour.test/notes' };
    const inWorker = await convertDocument(input, { html: pool });
    const inProcess = await convertDocument(input);
    expect(inWorker).toEqual(inProcess);
    expect(inWorker.markdown).toContain('[fees](https://harbour.test/fees)');
    expect(inWorker).toMatchObject(htmlToMarkdown(PAGE, 'https://harbour.test/notes'));
  });

  it('a warmed pool converts with its pre-started worker', async () => {
    const pool = new HtmlWorkerPool({ size: 1 });
    pools.push(pool);
    pool.warm();
    pool.warm(); // idempotent
    expect((await pool.convert(PAGE, 'https://harbour.test/')).markdown).toContain('north pontoon');
  });

  it('runs more pages than workers, in any order, each to its own answer', async () => {
    const pool = new HtmlWorkerPool({ size: 2 });
    pools.push(pool);
    const pages = Array.from({ length: 7 }, (_, i) => PAGE.replace('three nights', `${i + 1} nights`));
    const results = await Promise.all(pages.map((p) => pool.convert(p, 'https://harbour.test/')));
    results.forEach((r, i) => expect(r.markdown).toContain(`up to ${i + 1} nights`));
  });

  it('a page over its time budget is EXTRACTION_FAILED, and the pool keeps working', async () => {
    const pool = new HtmlWorkerPool({ size: 1, timeoutMs: 1 });
    pools.push(pool);
    // 1 ms cannot cover loading the engine in a fresh worker, let alone a 2 MB page
    const big = `<html><body>${'<div><p>word word word</p></div>'.repeat(60_000)}</body></html>`;
    await expect(pool.convert(big, 'https://harbour.test/')).rejects.toMatchObject({ code: 'EXTRACTION_FAILED' });
    const patient = new HtmlWorkerPool({ size: 1 });
    pools.push(patient);
    expect((await patient.convert(PAGE, 'https://harbour.test/')).markdown).toContain('harbour master');
  });

  it('a page that cannot get a worker in time is SERVICE_UNAVAILABLE; the busy worker finishes its page', async () => {
    const pool = new HtmlWorkerPool({ size: 1, queueTimeoutMs: 50 });
    pools.push(pool);
    // a fresh worker loads the engine (~0.4 s) before it converts: far longer than 50 ms
    const big = `<html><body>${'<div><p>word word word</p></div>'.repeat(60_000)}</body></html>`;
    const first = pool.convert(big, 'https://harbour.test/');
    const second = pool.convert(PAGE, 'https://harbour.test/');
    await expect(second).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect((await first).markdown).toContain('word word word');
    expect((await pool.convert(PAGE, 'https://harbour.test/')).markdown).toContain('harbour master');
  });

  it('a waiting page whose request is aborted leaves the queue at once, with the abort reason', async () => {
    const pool = new HtmlWorkerPool({ size: 1 });
    pools.push(pool);
    const big = `<html><body>${'<div><p>word word word</p></div>'.repeat(60_000)}</body></html>`;
    const order: string[] = [];
    const first = pool.convert(big, 'https://harbour.test/').then(() => order.push('first done'));
    const client = new AbortController();
    const second = pool.convert(PAGE, 'https://harbour.test/', {}, client.signal).catch((err: unknown) => {
      order.push('second aborted');
      throw err;
    });
    const reason = new Error('client went away');
    client.abort(reason);
    await expect(second).rejects.toBe(reason);
    await first;
    expect(order).toEqual(['second aborted', 'first done']);
    await expect(pool.convert(PAGE, 'https://harbour.test/', {}, AbortSignal.abort(reason))).rejects.toBe(reason);
  });

  it('an engine error crosses the thread as the same ServiceError', async () => {
    const pool = new HtmlWorkerPool({ size: 1 });
    pools.push(pool);
    const binary = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)).toString('latin1');
    let inProcessCode: string | null = null;
    try {
      htmlToMarkdown(binary, 'https://harbour.test/');
    } catch (err) {
      inProcessCode = (err as { code: string }).code;
    }
    const inWorker = await pool.convert(binary, 'https://harbour.test/').then(
      () => null,
      (err: { code: string }) => err.code,
    );
    expect(inWorker).toBe(inProcessCode);
  });
});
