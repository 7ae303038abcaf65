/**
 * The pdf.js side of PDF extraction: a worker thread that reads positioned text runs, one
 * job at a time, and a small pool that keeps warm workers (pdf.js takes ~300 ms to load).
 * A job that times out, runs out of heap or crashes takes its worker down with it; the
 * pool only ever hands out workers whose last job ended normally.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PdfOutlineEntry, PdfPage } from '../pdf/pdf-layout.js';

const require = createRequire(import.meta.url);
const PDFJS_URL = pathToFileURL(require.resolve('pdfjs-dist/legacy/build/pdf.mjs')).href;
const PDFJS_WORKER_URL = pathToFileURL(require.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs')).href;
/** Whether pdf.js will find its optional canvas package (installs may omit optional deps). */
const HAS_CANVAS = ((): boolean => {
  try {
    createRequire(require.resolve('pdfjs-dist/legacy/build/pdf.mjs')).resolve('@napi-rs/canvas');
    return true;
  } catch {
    return false;
  }
})();

/**
 * Runs inside the worker thread (plain JS: it must load under tsx, vitest and the built
 * dist alike). Per job it posts `meta`, then one `page` per page, then `done` or `error`.
 */
const WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
let loaded = null;
function load() {
  loaded = loaded || (async () => {
    // pdf.js builds a DOMMatrix at load time and polyfills it from its optional
    // @napi-rs/canvas dependency; without that package a stand-in suffices (no rendering here).
    if (typeof globalThis.DOMMatrix === 'undefined' && (!workerData.hasCanvas || workerData.forceMatrixStub)) {
      globalThis.DOMMatrix = class DOMMatrix {
        constructor() { Object.assign(this, { a: 1, b: 0, c: 0, d: 1, e: 0, f: 0 }); }
      };
    }
    globalThis.pdfjsWorker = await import(workerData.workerUrl);
    return import(workerData.pdfjsUrl);
  })();
  return loaded;
}
const zlib = require('node:zlib');
// Decompression-bomb guard: pdf.js keeps a decoded stream whole in memory, outside the
// worker's heap cap. Inflate every non-image Flate stream first, bounded, and refuse
// the file when one stream or all of them together decode to more than the caps.
function checkBombs(data, job) {
  const text = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1');
  const re = /\bstream(\r\n|\n|\r)/g;
  let total = 0, m;
  while ((m = re.exec(text)) !== null) {
    const head = text.slice(Math.max(0, m.index - 2048), m.index);
    const dict = head.slice(head.lastIndexOf(' obj') + 1);
    const start = m.index + m[0].length;
    const end = text.indexOf('endstream', start);
    if (end < 0) break;
    re.lastIndex = end;
    if (/\/Subtype\s*\/Image/.test(dict) || !/\/Filter\s*(\/FlateDecode|\[\s*\/FlateDecode\s*\])/.test(dict)) continue;
    let size = 0;
    try {
      size = zlib.inflateSync(data.subarray(start, end), { maxOutputLength: job.maxStreamBytes, finishFlush: zlib.constants.Z_SYNC_FLUSH }).length;
    } catch (err) {
      if (err && err.code === 'ERR_BUFFER_TOO_LARGE') return 'a compressed stream expands beyond ' + (job.maxStreamBytes >> 20) + ' MB (decompression bomb)';
    }
    total += size;
    if (total > job.maxTotalBytes) return 'compressed streams expand beyond ' + (job.maxTotalBytes >> 20) + ' MB in total (decompression bomb)';
  }
  return null;
}
async function run(job, post) {
  const bomb = checkBombs(job.data, job);
  if (bomb) throw Object.assign(new Error(bomb), { name: 'BombException' });
  const pdfjs = await load();
  const doc = await pdfjs.getDocument({
    data: job.data, isEvalSupported: false, disableFontFace: true, useSystemFonts: false,
    useWorkerFetch: false, isOffscreenCanvasSupported: false, isImageDecoderSupported: false,
    disableAutoFetch: true, disableStream: true, stopAtErrors: false, verbosity: 0,
  }).promise;
  let info = {}, xmp = {};
  try {
    const meta = await doc.getMetadata();
    for (const [k, v] of Object.entries(meta.info || {})) if (typeof v === 'string') info[k] = v;
    if (meta.metadata) for (const [k, v] of meta.metadata) xmp[k] = Array.isArray(v) ? v.join(', ') : String(v);
  } catch {}
  // Bookmarks: titles with their depth, to recognise headings set in body-size bold.
  const outline = [];
  try {
    const walk = (items, depth) => {
      for (const item of items || []) {
        if (outline.length >= 5000 || depth > 8) return;
        if (typeof item.title === 'string' && item.title.trim()) outline.push({ title: item.title, depth });
        walk(item.items, depth + 1);
      }
    };
    walk(await doc.getOutline(), 0);
  } catch {}
  post({ type: 'meta', numPages: doc.numPages, info, xmp, outline });
  try {
    await readPages(pdfjs, doc, job, post);
  } finally {
    await doc.destroy().catch(() => {});
  }
  post({ type: 'done' });
}
async function readPages(pdfjs, doc, job, post) {
  const last = Math.min(doc.numPages, job.maxPages);
  for (let n = 1; n <= last; n++) {
    const page = await doc.getPage(n);
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    const items = [];
    for (const it of content.items) {
      if (typeof it.str !== 'string' || it.str.length === 0) continue;
      const t = pdfjs.Util.transform(viewport.transform, it.transform);
      const size = Math.hypot(t[2], t[3]);
      const rotated = Math.abs(t[1]) > Math.abs(t[0]) * 0.1 || t[0] < 0;
      const style = content.styles[it.fontName];
      items.push({ x: t[4], y: t[5], width: it.width * viewport.scale, size, text: it.str, rotated, mono: !!style && style.fontFamily === 'monospace' });
    }
    page.cleanup();
    post({ type: 'page', width: viewport.width, height: viewport.height, items });
  }
}
parentPort.on('message', (job) => {
  const post = (msg) => parentPort.postMessage({ ...msg, id: job.id });
  run(job, post).catch((err) => post({ type: 'error', name: (err && err.name) || 'Error', message: String((err && err.message) || err) }));
});
`;

export interface PdfJob {
  data: Uint8Array;
  maxPages: number;
  maxStreamBytes: number;
  maxTotalBytes: number;
}

export type PdfWorkerMessage =
  | { type: 'meta'; numPages: number; info: Record<string, string>; xmp: Record<string, string>; outline: PdfOutlineEntry[] }
  | ({ type: 'page' } & PdfPage)
  | { type: 'done' }
  | { type: 'error'; name: string; message: string };

/** A fresh extraction worker with a heap cap (the decoded PDF lives in this heap). */
export function spawnPdfWorker(maxHeapMb: number, options: { forceMatrixStub?: boolean } = {}): Worker {
  return new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      pdfjsUrl: PDFJS_URL,
      workerUrl: PDFJS_WORKER_URL,
      hasCanvas: HAS_CANVAS,
      forceMatrixStub: options.forceMatrixStub === true,
    },
    resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, stackSizeMb: 4 },
    stdout: true,
    stderr: true,
  });
}

let nextJobId = 1;

/**
 * Runs one job; `onMessage` sees its messages until `done`/`error`. Resolves `true` when
 * the job ended by a message (the worker is reusable), `false` when the worker died
 * (heap cap, crash); rejects never. The caller owns timeouts and termination.
 */
export function runPdfJob(
  worker: Worker,
  job: PdfJob,
  onMessage: (msg: PdfWorkerMessage) => void,
  onFailure: (err: Error & { code?: string }) => void,
): { finished: Promise<boolean>; cancel: () => void } {
  const id = nextJobId++;
  let cancel = (): void => {};
  const finished = new Promise<boolean>((resolve) => {
    const cleanup = (): void => {
      worker.off('message', message);
      worker.off('error', error);
      worker.off('exit', exit);
    };
    const message = (msg: PdfWorkerMessage & { id: number }): void => {
      if (msg.id !== id) return;
      onMessage(msg);
      if (msg.type === 'done' || msg.type === 'error') {
        cleanup();
        resolve(true);
      }
    };
    const error = (err: Error & { code?: string }): void => {
      cleanup();
      onFailure(err);
      resolve(false);
    };
    const exit = (code: number): void => error(Object.assign(new Error(`worker exited with code ${code}`), { code: 'ERR_WORKER_EXIT' }));
    cancel = () => {
      cleanup();
      resolve(false);
    };
    worker.on('message', message);
    worker.on('error', error);
    worker.on('exit', exit);
    worker.postMessage({ ...job, id }, [job.data.buffer as ArrayBuffer]);
  });
  return { finished, cancel };
}

export interface PdfWorkerPoolOptions {
  /** Workers extracting at the same time; more PDFs wait their turn (bounds memory: each may use maxHeapMb). */
  maxActive?: number;
  /** Idle workers kept warm. */
  maxIdle?: number;
  /** Jobs a worker runs before it is replaced (bounds slow leaks in pdf.js caches). */
  maxUses?: number;
  /** Heap cap of each worker, MB. */
  maxHeapMb?: number;
}

/**
 * Runs at most `maxActive` extraction workers and keeps up to `maxIdle` warm ones.
 * `take` resolves with an idle or new worker once one of the `maxActive` places is free
 * (rejecting if `signal` aborts first); every taken worker goes back through `give`
 * (healthy: may be kept warm) or `discard` (terminated). Idle workers are unref'd, so an
 * idle pool never keeps the process alive.
 */
export class PdfWorkerPool {
  readonly maxHeapMb: number;
  private readonly maxActive: number;
  private readonly maxIdle: number;
  private readonly maxUses: number;
  private readonly idle: Worker[] = [];
  private readonly waiting: Array<() => void> = [];
  private readonly uses = new WeakMap<Worker, number>();
  private active = 0;
  private closed = false;

  constructor(options: PdfWorkerPoolOptions = {}) {
    this.maxActive = options.maxActive ?? 4;
    this.maxIdle = options.maxIdle ?? 2;
    this.maxUses = options.maxUses ?? 50;
    this.maxHeapMb = options.maxHeapMb ?? 768;
  }

  async take(signal?: AbortSignal): Promise<Worker> {
    while (this.active >= this.maxActive) {
      signal?.throwIfAborted();
      await new Promise<void>((resolve, reject) => {
        const wake = (): void => {
          signal?.removeEventListener('abort', abort);
          resolve();
        };
        const abort = (): void => {
          this.waiting.splice(this.waiting.indexOf(wake) >>> 0, 1);
          reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
        };
        this.waiting.push(wake);
        signal?.addEventListener('abort', abort, { once: true });
      });
    }
    this.active++;
    const worker = this.idle.pop() ?? spawnPdfWorker(this.maxHeapMb);
    worker.ref();
    this.uses.set(worker, (this.uses.get(worker) ?? 0) + 1);
    return worker;
  }

  give(worker: Worker): void {
    if (this.closed || this.idle.length >= this.maxIdle || (this.uses.get(worker) ?? 0) >= this.maxUses) {
      this.discard(worker);
      return;
    }
    worker.unref();
    this.idle.push(worker);
    this.release();
  }

  discard(worker: Worker): void {
    void worker.terminate();
    this.release();
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.idle.splice(0).map((w) => w.terminate()));
  }

  private release(): void {
    this.active--;
    this.waiting.shift()?.();
  }
}
