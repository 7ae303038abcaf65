import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PdfWorkerPool } from '../../src/convert/workers/pdf-worker.js';
import { WorkerPool } from '../../src/convert/workers/pool.js';
import { WORKER_JOBS_MODULE } from '../../src/ops/worker-jobs.js';
import type { Site } from '../helpers/site.js';
import { startSite } from '../helpers/site.js';
import type { TestService } from '../helpers/service.js';
import { startService } from '../helpers/service.js';

const PAGE = `<!doctype html><html lang="en"><head><title>Lighthouse rota</title></head><body>
<main><article><h1>Lighthouse rota</h1><p>Keepers change watch at dusk and at two in the morning, logging the lamp each hour.</p>
<p>The fog signal sounds every thirty seconds whenever visibility falls below two miles.</p></article></main></body></html>`;

/** The server's production wiring: HTML and PDF conversion in worker pools. */
describe('read through the worker pools', () => {
  let site: Site;
  let svc: TestService;
  const html = new WorkerPool({ registry: WORKER_JOBS_MODULE, size: 1, timeoutMs: 20_000 });
  const pdf = new PdfWorkerPool({ maxActive: 1 });
  let hugeSent: () => void = () => {};
  const hugeServed = new Promise<void>((resolve) => {
    hugeSent = resolve;
  });

  beforeAll(async () => {
    site = await startSite((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      if (req.url === '/huge.html') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.once('finish', () => hugeSent());
        return void res.end(`<html><body>${'<div><span>x</span></div>'.repeat(200_000)}</body></html>`);
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    });
    svc = await startService({ convert: { pdf: { pool: pdf } }, runner: html });
  });
  afterAll(async () => {
    await svc.close();
    await html.close();
    await pdf.close();
    await site.close();
  });

  it('converts in a worker with the same result shape and billing', async () => {
    const { apiKey } = await svc.newAccount('starter');
    const res = await svc.call('/v1/read', { key: apiKey, body: { url: `${site.origin}/rota.html` } });
    expect(res.status).toBe(200);
    expect(res.json.markdown).toContain('fog signal sounds every thirty seconds');
    expect(res.json.metadata.language).toBe('en');
    expect(res.headers['x-service-billed']).toBe('plan');
  });

  it('keeps answering other requests while a huge page converts', async () => {
    const { apiKey } = await svc.newAccount('starter');
    const huge = svc.call('/v1/read', { key: apiKey, body: { url: `${site.origin}/huge.html` } });
    // once the body is out, the service is converting it; the event loop still serves
    await hugeServed;
    const health = await svc.call('/healthz');
    expect(health.status).toBe(200);
    const done = await huge;
    expect([200, 500]).toContain(done.status); // converted, or EXTRACTION_FAILED; never a hang or a crash
    if (done.status === 500) expect(done.json.code).toBe('EXTRACTION_FAILED');
  });
});
