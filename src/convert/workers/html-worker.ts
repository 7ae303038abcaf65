/**
 * Worker-thread entry of HtmlWorkerPool: converts one HTML page per message with the same
 * pure `htmlToMarkdown` the main thread would run.
 */
import { parentPort } from 'node:worker_threads';
import { isServiceError } from '../../errors.js';
import { htmlToMarkdown } from '../html/index.js';
import type { HtmlJob, HtmlJobReply } from './html-pool.js';

parentPort?.on('message', (job: HtmlJob) => {
  let reply: HtmlJobReply;
  try {
    reply = { id: job.id, ok: true, result: htmlToMarkdown(job.html, job.baseUrl, job.options) };
  } catch (err) {
    reply = {
      id: job.id,
      ok: false,
      code: isServiceError(err) ? err.code : 'EXTRACTION_FAILED',
      message: err instanceof Error ? err.message : String(err),
    };
  }
  parentPort?.postMessage(reply);
});
