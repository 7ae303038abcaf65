import { afterEach, describe, expect, it } from 'vitest';
import { CONVERT_TEXT_JOB, convertTextDocument } from '../../../src/convert/convert-text.js';
import { convertDocument } from '../../../src/convert/index.js';
import { htmlToMarkdown } from '../../../src/convert/html/index.js';
import type { Job } from '../../../src/convert/workers/jobs.js';
import { WorkerPool } from '../../../src/convert/workers/pool.js';
import { WORKER_JOBS_MODULE } from '../../../src/ops/worker-jobs.js';
import { ECHO_JOB } from './fixtures/slow-boot-jobs.js';

const PAGE = `<!doctype html><html lang="en"><head><title>Harbour notes</title></head><body>
<nav><a href="/">Home</a></nav><main><article><h1>Harbour notes</h1>
<p>The harbour master posts the tide table every morning at six, and boats leave an hour later.</p>
<p>Visitors may moor at the north pontoon for up to three nights; see <a href="/fees">fees</a>.</p>
</article></main></body></html>`;
const BIG = `<html><body>${'<div><p>word word word</p></div>'.repeat(60_000)}</body></html>`;

const doc = (html: string) => ({ body: Buffer.from(html), contentType: 'text/html', headers: {}, url: 'https://harbour.test/notes' });

const pools: WorkerPool[] = [];
function pool(options: Omit<ConstructorParameters<typeof WorkerPool>[0], 'registry'> = {}): WorkerPool {
  const p = new WorkerPool({ registry: WORKER_JOBS_MODULE, ...options });
  pools.push(p);
  return p;
}
afterEach(async () => {
  for (const p of pools.splice(0)) await p.close();
});

describe('WorkerPool', () => {
  it('gives exactly what the in-process engine gives, through convertDocument', async () => {
    const input = doc(PAGE);
    const inWorker = await convertDocument(input, { runner: pool({ size: 1 }) });
    const inProcess = await convertDocument(input);
    expect(inWorker).toEqual(inProcess);
    expect(inWorker.markdown).toContain('[fees](https://harbour.test/fees)');
    expect(inWorker).toMatchObject(htmlToMarkdown(PAGE, 'https://harbour.test/notes'));
  });

  it('a warmed pool converts with its pre-started worker', async () => {
    const p = pool({ size: 1 });
    await Promise.all([p.warm(), p.warm()]); // idempotent: one worker, both wait for it
    expect((await p.run(CONVERT_TEXT_JOB, doc(PAGE))).markdown).toContain('north pontoon');
  });

  it("a job's time budget starts once its worker has loaded, not while it boots", async () => {
    // the registry takes 1.5 s to load; the job itself is instant, its budget 1 s
    const p = new WorkerPool({ registry: new URL('./fixtures/slow-boot-jobs.ts', import.meta.url), size: 1, timeoutMs: 1_000 });
    pools.push(p);
    expect(await p.run(ECHO_JOB, 'moored')).toBe('moored');
  });

  it('a worker that cannot load fails warm() and its job clearly, never hangs', async () => {
    const p = new WorkerPool({ registry: new URL('./fixtures/broken-boot-jobs.ts', import.meta.url), size: 1 });
    pools.push(p);
    await expect(p.warm()).rejects.toThrow('this registry cannot load');
    await expect(p.run(ECHO_JOB, 'x')).rejects.toMatchObject({ code: 'EXTRACTION_FAILED' });
  });

  it('runs more jobs than workers, in any order, each to its own answer', async () => {
    // a queue bound far above any wait: this test is about order, not admission (fresh workers
    // start slowly on a loaded machine, and the default 5 s bound then refuses)
    const p = pool({ size: 2, queueTimeoutMs: 60_000 });
    const pages = Array.from({ length: 7 }, (_, i) => PAGE.replace('three nights', `${i + 1} nights`));
    const results = await Promise.all(pages.map((page) => p.run(CONVERT_TEXT_JOB, doc(page))));
    results.forEach((r, i) => expect(r.markdown).toContain(`up to ${i + 1} nights`));
  });

  it('a job over its time budget is EXTRACTION_FAILED, and the pool keeps working', async () => {
    // 1 ms cannot cover converting a 2 MB page (the budget starts once the worker has loaded)
    await expect(pool({ size: 1, timeoutMs: 1 }).run(CONVERT_TEXT_JOB, doc(BIG))).rejects.toMatchObject({
      code: 'EXTRACTION_FAILED',
      message: expect.stringContaining('converting the page took longer than 1 ms'),
    });
    expect((await pool({ size: 1 }).run(CONVERT_TEXT_JOB, doc(PAGE))).markdown).toContain('harbour master');
  });

  it('a job that would wait longer than the queue bound is refused at once with retry_after; the busy job finishes', async () => {
    const p = pool({ size: 1, queueTimeoutMs: 50 });
    const first = p.run(CONVERT_TEXT_JOB, doc(BIG));
    const second = await p.run(CONVERT_TEXT_JOB, doc(PAGE)).catch((err: unknown) => err);
    // refused by the wait estimate (2 MB ahead) before queueing, not after waiting out the bound
    expect(second).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: expect.stringContaining('jobs are waiting for the content workers'),
      fields: { retry_after: expect.any(Number) },
    });
    expect((await first).markdown).toContain('word word word');
    expect((await p.run(CONVERT_TEXT_JOB, doc(PAGE))).markdown).toContain('harbour master');
  });

  it('refuses beyond its queue length even when the jobs look cheap', async () => {
    const p = pool({ size: 1, maxQueuedPerWorker: 2, queueTimeoutMs: 60_000 });
    const all = Array.from({ length: 6 }, () =>
      p.run(CONVERT_TEXT_JOB, doc(PAGE)).then(
        () => 'ok',
        (err: { code: string }) => err.code,
      ),
    );
    const outcomes = await Promise.all(all);
    // one runs, two wait, the rest are refused at once
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(3);
    expect(outcomes.filter((o) => o === 'SERVICE_UNAVAILABLE')).toHaveLength(3);
  });

  it('a waiting job whose request is aborted leaves the queue at once, with the abort reason', async () => {
    const p = pool({ size: 1, queueTimeoutMs: 60_000 });
    const order: string[] = [];
    const first = p.run(CONVERT_TEXT_JOB, doc(BIG)).then(() => order.push('first done'));
    const client = new AbortController();
    const second = p.run(CONVERT_TEXT_JOB, doc(PAGE), { signal: client.signal }).catch((err: unknown) => {
      order.push('second aborted');
      throw err;
    });
    const reason = new Error('client went away');
    client.abort(reason);
    await expect(second).rejects.toBe(reason);
    await first;
    expect(order).toEqual(['second aborted', 'first done']);
    await expect(p.run(CONVERT_TEXT_JOB, doc(PAGE), { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });

  it('an engine error crosses the thread as the same ServiceError', async () => {
    const binary = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256));
    const input = { body: binary, contentType: 'text/html', headers: {}, url: 'https://harbour.test/' };
    const inProcess = await convertTextDocument(input).then(
      () => null,
      (err: { code: string; message: string }) => [err.code, err.message],
    );
    const inWorker = await pool({ size: 1 })
      .run(CONVERT_TEXT_JOB, input)
      .then(
        () => null,
        (err: { code: string; message: string }) => [err.code, err.message],
      );
    expect(inWorker).toEqual(inProcess);
  });

  it('small non-HTML inputs run on the calling thread; a job unknown to the registry fails clearly', async () => {
    const p = pool({ size: 1 });
    const json = { body: Buffer.from('{"a": 1}'), contentType: 'application/json', headers: {}, url: 'https://harbour.test/a.json' };
    expect((await p.run(CONVERT_TEXT_JOB, json)).markdown).toContain('"a": 1');
    expect(p.waiting).toBe(0);
    const stray: Job<number, number> = { name: 'not-registered', label: 'a stray job', run: (n) => n, weight: () => 1 };
    await expect(p.run(stray, 1)).rejects.toMatchObject({ code: 'EXTRACTION_FAILED', message: expect.stringContaining('not-registered') });
  });
});
