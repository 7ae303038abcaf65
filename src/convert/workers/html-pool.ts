import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ErrorCode } from '../../errors.js';
import { ServiceError } from '../../errors.js';
import type { HtmlToMarkdownOptions } from '../html/index.js';
import type { ConvertResult } from '../types.js';

export interface HtmlJob {
  id: number;
  html: string;
  baseUrl: string;
  options: HtmlToMarkdownOptions;
}

export type HtmlJobReply = { id: number; ok: true; result: ConvertResult } | { id: number; ok: false; code: ErrorCode; message: string };

export interface HtmlWorkerPoolOptions {
  /** Worker threads converting at once; more pages wait their turn. */
  size?: number;
  /** CPU budget of one page; past it the worker is terminated and the read is EXTRACTION_FAILED. */
  timeoutMs?: number;
  /** Heap cap of each worker, MB (a 10 MB page's DOM needs a few hundred). */
  maxHeapMb?: number;
  /** Longest wait for a free worker before SERVICE_UNAVAILABLE; default timeoutMs. */
  queueTimeoutMs?: number;
}

/** tsx's ESM register API (its package exports name it `tsx/esm/api`, import condition). */
function tsxEsmApi(): string {
  const pkg = createRequire(import.meta.url).resolve('tsx/package.json');
  return pathToFileURL(join(dirname(pkg), 'dist', 'esm', 'api', 'index.mjs')).href;
}

const WORKER_BOOT = `
const { workerData } = require('node:worker_threads');
(async () => {
  if (workerData.tsx) (await import(workerData.tsx)).register();
  await import(workerData.entry);
})();
`;

interface Slot {
  worker: Worker;
  busy: boolean;
}

/**
 * Runs the HTML engine off the event loop: a huge or hostile page (the engine takes up to
 * several seconds of CPU on 10 MB of pure markup) no longer stalls every other request of
 * the instance, and a page that exceeds its budget or its heap kills only its worker.
 */
export class HtmlWorkerPool {
  private readonly size: number;
  private readonly timeoutMs: number;
  private readonly maxHeapMb: number;
  private readonly queueTimeoutMs: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Array<(slot: Slot) => void> = [];
  private nextId = 1;
  private closed = false;

  constructor(options: HtmlWorkerPoolOptions = {}) {
    this.size = Math.max(1, options.size ?? Math.max(1, availableParallelism() - 1));
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxHeapMb = options.maxHeapMb ?? 1024;
    this.queueTimeoutMs = Math.min(options.queueTimeoutMs ?? this.timeoutMs, this.timeoutMs);
  }

  /**
   * Converts one page. The budget (timeoutMs) runs from this call: time spent waiting for
   * a free worker counts, so a request never waits longer than the budget in all. An abort
   * of `signal` (client gone, shutdown) while waiting drops the page from the queue.
   */
  async convert(html: string, baseUrl: string, options: HtmlToMarkdownOptions = {}, signal?: AbortSignal): Promise<ConvertResult> {
    if (this.closed) throw new ServiceError('SERVICE_UNAVAILABLE', 'the HTML converter is shut down');
    const started = performance.now();
    const slot = await this.take(signal);
    const budgetLeft = Math.max(1, this.timeoutMs - (performance.now() - started));
    const id = this.nextId++;
    return new Promise<ConvertResult>((resolve, reject) => {
      const { worker } = slot;
      const finish = (err: Error | null, result?: ConvertResult): void => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onFailure);
        worker.off('exit', onExit);
        if (err) {
          this.replace(slot);
          reject(err);
        } else {
          this.give(slot);
          resolve(result as ConvertResult);
        }
      };
      const onMessage = (reply: HtmlJobReply): void => {
        if (reply.id !== id) return;
        if (reply.ok) finish(null, reply.result);
        else {
          // an error reply leaves the worker healthy
          clearTimeout(timer);
          worker.off('message', onMessage);
          worker.off('error', onFailure);
          worker.off('exit', onExit);
          this.give(slot);
          reject(new ServiceError(reply.code, reply.message));
        }
      };
      const onFailure = (err: Error): void =>
        finish(new ServiceError('EXTRACTION_FAILED', `the HTML converter failed: ${err.message}`, {}, { cause: err }));
      const onExit = (code: number): void => onFailure(new Error(`worker exited with code ${code}`));
      const timer = setTimeout(
        () => finish(new ServiceError('EXTRACTION_FAILED', `converting the page took longer than ${this.timeoutMs} ms`)),
        budgetLeft,
      );
      worker.on('message', onMessage);
      worker.on('error', onFailure);
      worker.on('exit', onExit);
      const job: HtmlJob = { id, html, baseUrl, options };
      worker.postMessage(job);
    });
  }

  /** Starts one idle worker now, so the first page does not pay for loading the engine (~0.4 s). */
  warm(): void {
    if (this.closed || this.slots.length > 0) return;
    const slot: Slot = { worker: this.spawn(), busy: false };
    slot.worker.unref();
    this.slots.push(slot);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }

  private take(signal?: AbortSignal): Promise<Slot> {
    signal?.throwIfAborted();
    const idle = this.slots.find((s) => !s.busy);
    if (idle) {
      idle.busy = true;
      idle.worker.ref();
      return Promise.resolve(idle);
    }
    if (this.slots.length < this.size) {
      const slot: Slot = { worker: this.spawn(), busy: true };
      this.slots.push(slot);
      return Promise.resolve(slot);
    }
    return new Promise((resolve, reject) => {
      const cleanup = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const waiter = (slot: Slot): void => {
        cleanup();
        resolve(slot);
      };
      const cancel = (err: unknown): void => {
        const at = this.queue.indexOf(waiter);
        if (at >= 0) this.queue.splice(at, 1);
        cleanup();
        reject(err);
      };
      const onAbort = (): void => cancel(signal?.reason);
      // Every worker is busy with big pages: say so rather than hold the request forever.
      const timer = setTimeout(
        () =>
          cancel(new ServiceError('SERVICE_UNAVAILABLE', `all HTML converters stayed busy for ${this.queueTimeoutMs} ms; retry shortly`)),
        this.queueTimeoutMs,
      );
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  private give(slot: Slot): void {
    const waiter = this.queue.shift();
    if (waiter) {
      waiter(slot);
      return;
    }
    slot.busy = false;
    slot.worker.unref(); // an idle pool never keeps the process alive
  }

  /** A worker that timed out, crashed or ran out of heap is terminated and replaced. */
  private replace(slot: Slot): void {
    void slot.worker.terminate();
    if (this.closed) return;
    slot.worker = this.spawn();
    this.give(slot);
  }

  private spawn(): Worker {
    // dist runs the compiled .js entry; source runs (tsx, vitest) register tsx inside the
    // worker first, since loader hooks of the parent do not reach a worker's entry.
    const fromSource = import.meta.url.endsWith('.ts');
    const entry = new URL(fromSource ? './html-worker.ts' : './html-worker.js', import.meta.url).href;
    const tsx = fromSource ? tsxEsmApi() : null;
    return new Worker(WORKER_BOOT, {
      eval: true,
      workerData: { entry, tsx },
      resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb, stackSizeMb: 8 },
    });
  }
}
