import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ServiceError } from '../../errors.js';
import type { Job, JobFailure, JobRunner, RunOptions } from './jobs.js';
import { WORKER_READY } from './jobs.js';

/** A message to a worker: run `name` on `input`. */
export interface WorkerRequest {
  id: number;
  name: string;
  input: unknown;
}

export type WorkerReply = { id: number; ok: true; output: unknown } | ({ id: number; ok: false } & JobFailure);

export interface WorkerPoolOptions {
  /**
   * The module whose `jobs` export (a JobRegistry) the workers load. A `.ts` URL is loaded
   * through tsx (tests, benches from source); the built server passes the compiled `.js`.
   */
  registry: URL;
  /** Worker threads at once; more jobs wait their turn. Default: one per core but one, at least one. */
  size?: number;
  /** Wall-clock budget of one job once a worker runs it; past it the worker is terminated (EXTRACTION_FAILED). */
  timeoutMs?: number;
  /** Heap cap of each worker, MB (a 10 MB page's DOM needs a few hundred). */
  maxHeapMb?: number;
  /** Longest wait for a free worker; a job that would wait longer is refused at once (SERVICE_UNAVAILABLE). */
  queueTimeoutMs?: number;
  /** Jobs that may wait at once, per worker; more are refused at once. */
  maxQueuedPerWorker?: number;
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

/**
 * Milliseconds per input byte a job is assumed to take before any has finished: 10 MB of
 * pure markup took ≈ 5 s (issue 5), ordinary pages far less. Refined by every finished job.
 */
const INITIAL_MS_PER_BYTE = 0.0003;
/** Weight of the newest job in the running per-byte cost (exponential moving average). */
const COST_SMOOTHING = 0.2;

interface Slot {
  worker: Worker;
  /** Settles once the worker has loaded its modules (rejects when it dies first). */
  ready: Promise<void>;
  busy: boolean;
  /** The running job's expected cost and start, for the wait estimate. */
  expectedMs: number;
  startedAt: number;
}

interface Waiter {
  expectedMs: number;
  take: (slot: Slot) => void;
}

/**
 * Runs jobs on content off the event loop: a huge or hostile body (the HTML engine takes
 * seconds of CPU on 10 MB of pure markup) no longer stalls every other request of the
 * instance, and a job that exceeds its budget or its heap kills only its worker.
 *
 * Overload is refused early and honestly: a job that would wait longer than
 * `queueTimeoutMs` for a worker (by the running estimate of cost per byte) is
 * SERVICE_UNAVAILABLE with `retry_after` at once, not after the wait; a job that did get a
 * worker has its whole `timeoutMs`, so EXTRACTION_FAILED only ever means the job itself
 * was too big, never that the service was busy.
 */
export class WorkerPool implements JobRunner {
  private readonly registry: URL;
  private readonly size: number;
  private readonly timeoutMs: number;
  private readonly maxHeapMb: number;
  private readonly queueTimeoutMs: number;
  private readonly maxQueued: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Waiter[] = [];
  private msPerByte = INITIAL_MS_PER_BYTE;
  private nextId = 1;
  private closed = false;

  constructor(options: WorkerPoolOptions) {
    this.registry = options.registry;
    this.size = Math.max(1, options.size ?? Math.max(1, availableParallelism() - 1));
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxHeapMb = options.maxHeapMb ?? 1024;
    this.queueTimeoutMs = options.queueTimeoutMs ?? 5_000;
    this.maxQueued = this.size * (options.maxQueuedPerWorker ?? 16);
  }

  async run<I, O>(job: Job<I, O>, input: I, opts: RunOptions = {}): Promise<O> {
    if (this.closed) throw new ServiceError('SERVICE_UNAVAILABLE', 'the content workers are shut down');
    opts.signal?.throwIfAborted();
    if (job.inline?.(input)) return await job.run(input);
    const expectedMs = job.weight(input) * this.msPerByte;
    const slot = await this.take(expectedMs, opts.signal);
    return this.dispatch(slot, job, input, expectedMs);
  }

  /**
   * Starts one idle worker now, so the first job does not pay for loading the modules
   * (~0.4 s built, seconds from source on a busy machine); resolves once it is loaded.
   */
  async warm(): Promise<void> {
    if (this.closed) return;
    let slot = this.slots[0];
    if (!slot) {
      slot = { ...this.spawn(), busy: false, expectedMs: 0, startedAt: 0 };
      this.slots.push(slot);
    }
    // referenced while it loads (an awaited unref'd worker would let the process exit), then
    // an idle worker never keeps the process alive
    const loading = slot;
    await loading.ready.finally(() => {
      if (!loading.busy) loading.worker.unref();
    });
  }

  /** Jobs waiting for a worker (metrics, tests). */
  get waiting(): number {
    return this.queue.length;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }

  private dispatch<I, O>(slot: Slot, job: Job<I, O>, input: I, expectedMs: number): Promise<O> {
    const id = this.nextId++;
    const { worker } = slot;
    claim(slot, expectedMs);
    const weight = job.weight(input);
    return new Promise<O>((resolve, reject) => {
      let answered = false;
      const detach = (): void => {
        answered = true;
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onFailure);
        worker.off('exit', onExit);
      };
      const onMessage = (reply: WorkerReply): void => {
        if (reply.id !== id) return;
        detach();
        this.learn(weight, performance.now() - slot.startedAt);
        // an error reply leaves the worker healthy
        this.give(slot);
        if (reply.ok) resolve(reply.output as O);
        else reject(new ServiceError(reply.code, reply.message, reply.fields));
      };
      const fail = (err: ServiceError): void => {
        detach();
        this.replace(slot);
        reject(err);
      };
      const onFailure = (err: Error): void =>
        fail(new ServiceError('EXTRACTION_FAILED', `${job.label} failed: ${err.message}`, {}, { cause: err }));
      const onExit = (code: number): void => onFailure(new Error(`worker exited with code ${code}`));
      let timer: NodeJS.Timeout | undefined;
      worker.on('message', onMessage);
      worker.on('error', onFailure);
      worker.on('exit', onExit);
      // The budget starts once the worker has loaded its modules: a slow boot (a replaced
      // worker, a busy machine) is not the job's time, so it never turns into EXTRACTION_FAILED.
      slot.ready.then(
        () => {
          if (answered) return; // the worker failed while loading
          claim(slot, expectedMs);
          timer = setTimeout(() => {
            this.learn(weight, this.timeoutMs);
            fail(new ServiceError('EXTRACTION_FAILED', `${job.label} took longer than ${this.timeoutMs} ms`));
          }, this.timeoutMs);
          const request: WorkerRequest = { id, name: job.name, input };
          worker.postMessage(request);
        },
        () => {}, // the worker's 'error' / 'exit' listeners answer the job
      );
    });
  }

  /** Updates the running cost per byte from a finished (or timed-out) job. */
  private learn(weight: number, ms: number): void {
    if (weight < 64 * 1024) return; // small jobs are dominated by fixed costs, not bytes
    this.msPerByte += COST_SMOOTHING * (ms / weight - this.msPerByte);
  }

  /** Milliseconds until a worker would be free for a job queued now. */
  private estimatedWaitMs(): number {
    if (this.slots.length < this.size || this.slots.some((s) => !s.busy)) return 0;
    const now = performance.now();
    let work = 0;
    for (const s of this.slots) work += Math.max(0, s.expectedMs - (now - s.startedAt));
    for (const w of this.queue) work += w.expectedMs;
    return work / this.size;
  }

  private take(expectedMs: number, signal?: AbortSignal): Promise<Slot> {
    const idle = this.slots.find((s) => !s.busy);
    if (idle) {
      idle.busy = true;
      idle.worker.ref();
      return Promise.resolve(claim(idle, expectedMs));
    }
    if (this.slots.length < this.size) {
      const slot: Slot = { ...this.spawn(), busy: true, expectedMs: 0, startedAt: 0 };
      this.slots.push(slot);
      return Promise.resolve(claim(slot, expectedMs));
    }
    const wait = this.estimatedWaitMs();
    if (wait > this.queueTimeoutMs || this.queue.length >= this.maxQueued) {
      return Promise.reject(busy(`${this.queue.length} jobs are waiting for the content workers`, wait));
    }
    return new Promise((resolve, reject) => {
      const cleanup = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const waiter: Waiter = {
        expectedMs,
        take: (slot) => {
          cleanup();
          resolve(claim(slot, expectedMs));
        },
      };
      const cancel = (err: unknown): void => {
        const at = this.queue.indexOf(waiter);
        if (at >= 0) this.queue.splice(at, 1);
        cleanup();
        reject(err);
      };
      const onAbort = (): void => cancel(signal?.reason);
      // the estimate was wrong (a job ran long): say so rather than hold the request
      const timer = setTimeout(
        () => cancel(busy(`the content workers stayed busy for ${this.queueTimeoutMs} ms`, this.queueTimeoutMs)),
        this.queueTimeoutMs,
      );
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  private give(slot: Slot): void {
    slot.expectedMs = 0;
    const waiter = this.queue.shift();
    if (waiter) {
      waiter.take(slot);
      return;
    }
    slot.busy = false;
    slot.worker.unref(); // an idle pool never keeps the process alive
  }

  /** A worker that timed out, crashed or ran out of heap is terminated and replaced. */
  private replace(slot: Slot): void {
    void slot.worker.terminate();
    if (this.closed) return;
    Object.assign(slot, this.spawn());
    this.give(slot);
  }

  private spawn(): Pick<Slot, 'worker' | 'ready'> {
    // dist runs the compiled .js entry; source runs (tsx, vitest) register tsx inside the
    // worker first, since loader hooks of the parent do not reach a worker's entry.
    const fromSource = import.meta.url.endsWith('.ts');
    const entry = new URL(fromSource ? './worker-entry.ts' : './worker-entry.js', import.meta.url).href;
    const tsx = fromSource || this.registry.pathname.endsWith('.ts') ? tsxEsmApi() : null;
    const worker = new Worker(WORKER_BOOT, {
      eval: true,
      workerData: { entry, tsx, registry: this.registry.href },
      resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb, stackSizeMb: 8 },
    });
    const ready = new Promise<void>((resolve, reject) => {
      const settle = (err?: Error): void => {
        worker.off('message', onMessage);
        worker.off('error', settle);
        worker.off('exit', onExit);
        if (err) reject(err);
        else resolve();
      };
      const onMessage = (message: unknown): void => {
        if (message === WORKER_READY) settle();
      };
      const onExit = (code: number): void => settle(new Error(`worker exited with code ${code} while loading`));
      worker.on('message', onMessage);
      worker.on('error', settle);
      worker.on('exit', onExit);
    });
    ready.catch(() => {}); // a job or warm() that waits on it sees the failure
    return { worker, ready };
  }
}

/** Marks a slot as taken by a job expected to cost `expectedMs`, from now (for the wait estimate). */
function claim(slot: Slot, expectedMs: number): Slot {
  slot.expectedMs = expectedMs;
  slot.startedAt = performance.now();
  return slot;
}

/** The service is too busy for this job now; the caller is told when to come back. */
function busy(why: string, waitMs: number): ServiceError {
  return new ServiceError('SERVICE_UNAVAILABLE', `the service is busy (${why}); retry shortly`, {
    retry_after: Math.max(1, Math.ceil(waitMs / 1000)),
  });
}

/** The URL of a module next to `base` (an `import.meta.url`), `.ts` from source and `.js` when built. */
export function siblingModule(base: string, pathWithoutExtension: string): URL {
  return new URL(`${pathWithoutExtension}${base.endsWith('.ts') ? '.ts' : '.js'}`, base);
}
