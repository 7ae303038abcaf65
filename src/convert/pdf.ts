/**
 * PDF → Markdown from the text layer (no OCR). pdf.js (legacy build, Node 20) runs in a
 * worker thread with a time budget and a heap cap: a malicious file (deep nesting, xref
 * loops, decompression bombs) can exhaust only that worker, which is then terminated;
 * the service process stays up and answers EXTRACTION_FAILED. pdf.js itself runs its
 * "fake worker" inside that thread, so nothing is downloaded and no canvas is used.
 * The worker returns positioned text runs; `pdf-layout.ts` turns them into Markdown.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ServiceError } from '../errors.js';
import { clip } from './markdown.js';
import { layoutPdf, type PdfPage } from './pdf-layout.js';
import type { ConvertResult, DocumentMetadata, Warning } from './types.js';

export interface PdfOptions {
  /** Wall-clock budget for pdf.js, ms. A 10 MB / 500-page PDF takes a few seconds. */
  timeoutMs?: number;
  /** Heap cap of the extraction worker, MB. */
  maxHeapMb?: number;
  /** Pages read at most; later pages are dropped with TRUNCATED. */
  maxPages?: number;
}

export const PDF_DEFAULTS = { timeoutMs: 20_000, maxHeapMb: 768, maxPages: 2_000 } as const;

/** Largest decoded size of one non-image Flate stream (content, fonts, object streams). */
const MAX_STREAM_BYTES = 64 * 1024 * 1024;
/** Largest decoded size of all of them together. */
const MAX_TOTAL_STREAM_BYTES = 384 * 1024 * 1024;

const require = createRequire(import.meta.url);
const PDFJS_URL = pathToFileURL(require.resolve('pdfjs-dist/legacy/build/pdf.mjs')).href;
const PDFJS_WORKER_URL = pathToFileURL(require.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs')).href;

/**
 * Runs inside the worker thread (plain JS: it must load under tsx, vitest and the built
 * dist alike). Posts `meta`, then one `page` per page, then `done` or `error`.
 */
const WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const zlib = require('node:zlib');
// Decompression-bomb guard: pdf.js keeps a decoded stream whole in memory, outside the
// worker's heap cap. Inflate every non-image Flate stream first, bounded, and refuse
// the file when one stream or all of them together decode to more than the caps.
function checkBombs(data) {
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
      size = zlib.inflateSync(data.subarray(start, end), { maxOutputLength: workerData.maxStreamBytes, finishFlush: zlib.constants.Z_SYNC_FLUSH }).length;
    } catch (err) {
      if (err && err.code === 'ERR_BUFFER_TOO_LARGE') return 'a compressed stream expands beyond ' + (workerData.maxStreamBytes >> 20) + ' MB (decompression bomb)';
    }
    total += size;
    if (total > workerData.maxTotalBytes) return 'compressed streams expand beyond ' + (workerData.maxTotalBytes >> 20) + ' MB in total (decompression bomb)';
  }
  return null;
}
(async () => {
  const bomb = checkBombs(workerData.data);
  if (bomb) throw Object.assign(new Error(bomb), { name: 'BombException' });
  globalThis.pdfjsWorker = await import(workerData.workerUrl);
  const pdfjs = await import(workerData.pdfjsUrl);
  const doc = await pdfjs.getDocument({
    data: workerData.data, isEvalSupported: false, disableFontFace: true, useSystemFonts: false,
    useWorkerFetch: false, isOffscreenCanvasSupported: false, isImageDecoderSupported: false,
    disableAutoFetch: true, disableStream: true, stopAtErrors: false, verbosity: 0,
  }).promise;
  let info = {}, xmp = {};
  try {
    const meta = await doc.getMetadata();
    for (const [k, v] of Object.entries(meta.info || {})) if (typeof v === 'string') info[k] = v;
    if (meta.metadata) for (const [k, v] of meta.metadata) xmp[k] = Array.isArray(v) ? v.join(', ') : String(v);
  } catch {}
  parentPort.postMessage({ type: 'meta', numPages: doc.numPages, info, xmp });
  const last = Math.min(doc.numPages, workerData.maxPages);
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
      items.push({ x: t[4], y: t[5], width: it.width * viewport.scale, size, text: it.str, rotated });
    }
    page.cleanup();
    parentPort.postMessage({ type: 'page', width: viewport.width, height: viewport.height, items });
  }
  parentPort.postMessage({ type: 'done' });
  await doc.destroy();
})().catch((err) => parentPort.postMessage({ type: 'error', name: (err && err.name) || 'Error', message: String((err && err.message) || err) }));
`;

interface RawPdf {
  numPages: number;
  info: Record<string, string>;
  xmp: Record<string, string>;
  pages: PdfPage[];
  /** Why extraction stopped early, when it did. */
  stopped: string | null;
}

type WorkerMessage =
  | { type: 'meta'; numPages: number; info: Record<string, string>; xmp: Record<string, string> }
  | ({ type: 'page' } & PdfPage)
  | { type: 'done' }
  | { type: 'error'; name: string; message: string };

export async function pdfToMarkdown(body: Buffer, options: PdfOptions = {}): Promise<ConvertResult> {
  const raw = await extractPdf(body, { ...PDF_DEFAULTS, ...options });
  const warnings: Warning[] = [];
  if (raw.stopped) warnings.push({ code: 'TRUNCATED', message: raw.stopped });
  const layout = layoutPdf(raw.pages);
  if (layout.textChars === 0) {
    throw new ServiceError('IMAGE_PDF', `the PDF has no embedded text layer on any of its ${raw.numPages} pages (scanned or image-only); OCR is not offered`);
  }
  if (layout.emptyPages.length > 0) {
    const list = layout.emptyPages.length > 10 ? `${layout.emptyPages.slice(0, 10).join(', ')}…` : layout.emptyPages.join(', ');
    warnings.push({ code: 'PDF_PAGES_WITHOUT_TEXT', message: `${layout.emptyPages.length} of ${raw.pages.length} pages have no text layer (pages ${list}); their content is missing` });
  }
  return { markdown: layout.markdown, metadata: pdfMetadata(raw, layout.firstHeading), warnings };
}

function extractPdf(body: Buffer, options: Required<PdfOptions>): Promise<RawPdf> {
  return new Promise((resolve, reject) => {
    const raw: RawPdf = { numPages: 0, info: {}, xmp: {}, pages: [], stopped: null };
    const data = new Uint8Array(body.byteLength);
    data.set(body);
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { data, pdfjsUrl: PDFJS_URL, workerUrl: PDFJS_WORKER_URL, maxPages: options.maxPages, maxStreamBytes: MAX_STREAM_BYTES, maxTotalBytes: MAX_TOTAL_STREAM_BYTES },
      transferList: [data.buffer],
      resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb, maxYoungGenerationSizeMb: 64, stackSizeMb: 4 },
      stdout: true,
      stderr: true,
    });
    let settled = false;
    const finish = (err: ServiceError | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      if (err) reject(err);
      else resolve(raw);
    };
    const partialOr = (reason: string, err: ServiceError): void => {
      if (raw.pages.length > 0) {
        raw.stopped = `${reason}; read ${raw.pages.length} of ${raw.numPages} pages`;
        finish(null);
      } else finish(err);
    };
    const timer = setTimeout(() => {
      const reason = `PDF extraction exceeded its ${options.timeoutMs} ms budget`;
      partialOr(reason, new ServiceError('EXTRACTION_FAILED', reason));
    }, options.timeoutMs);
    worker.on('message', (msg: WorkerMessage) => {
      if (msg.type === 'meta') {
        raw.numPages = msg.numPages;
        raw.info = msg.info;
        raw.xmp = msg.xmp;
      } else if (msg.type === 'page') raw.pages.push({ width: msg.width, height: msg.height, items: msg.items });
      else if (msg.type === 'done') {
        if (raw.numPages > raw.pages.length) raw.stopped = `PDF cut at ${raw.pages.length} of ${raw.numPages} pages`;
        finish(null);
      } else finish(workerError(msg.name, msg.message));
    });
    worker.on('error', (err: Error & { code?: string }) => {
      const reason = err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `PDF extraction exceeded its ${options.maxHeapMb} MB memory cap` : `PDF extraction crashed: ${err.message}`;
      partialOr(reason, new ServiceError('EXTRACTION_FAILED', reason, {}, { cause: err }));
    });
    worker.on('exit', (code) => {
      if (!settled) finish(new ServiceError('EXTRACTION_FAILED', `PDF extraction stopped unexpectedly (exit ${code})`));
    });
  });
}

/**
 * Maps pdf.js exceptions: a password-protected PDF is EXTRACTION_FAILED with a message
 * saying so (the file is a PDF we support; we cannot open it without the password).
 */
function workerError(name: string, message: string): ServiceError {
  if (name === 'PasswordException') {
    return new ServiceError('EXTRACTION_FAILED', 'the PDF is encrypted and needs a password to open; password-protected PDFs cannot be read', { reason: 'pdf_password_required' });
  }
  if (name === 'BombException') return new ServiceError('EXTRACTION_FAILED', `the PDF was refused: ${message}`, { reason: 'pdf_decompression_bomb' });
  if (name === 'InvalidPDFException') return new ServiceError('EXTRACTION_FAILED', `the PDF is damaged and could not be read: ${clip(message, 200)}`);
  return new ServiceError('EXTRACTION_FAILED', `PDF extraction failed: ${clip(message, 200)}`);
}

/** Title, author, language, description and date from the info dictionary, then XMP. */
function pdfMetadata(raw: RawPdf, firstHeading: string | null): DocumentMetadata {
  const pick = (...values: Array<string | undefined>): string | null => {
    for (const v of values) {
      const t = v?.replace(/\s+/g, ' ').trim();
      if (t) return t;
    }
    return null;
  };
  const title = pick(cleanTitle(raw.info.Title), cleanTitle(raw.xmp['dc:title']), firstHeading ?? undefined);
  return {
    title,
    description: pick(raw.info.Subject, raw.xmp['dc:description']),
    language: pick(raw.info.Language, raw.xmp['dc:language']),
    author: pick(raw.info.Author, raw.xmp['dc:creator']),
    published_at: pdfDate(raw.info.CreationDate) ?? pick(raw.xmp['xmp:createdate']),
    content_type: 'application/pdf',
    page_count: raw.numPages,
  };
}

/** Drops titles that are file names or tool boilerplate ("Microsoft Word - x.docx", "untitled"). */
function cleanTitle(title: string | undefined): string | undefined {
  const t = title?.replace(/^Microsoft (Word|PowerPoint|Excel) - /, '').trim();
  if (!t || /^(untitled|document\d*|title)$/i.test(t) || /\.(docx?|pdf|tex|dvi|pptx?|indd)$/i.test(t)) return undefined;
  return t;
}

/** PDF dates look like `D:20240102153000+01'00'`; → ISO 8601, or null. */
function pdfDate(value: string | undefined): string | null {
  const m = /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Zz+-])?(\d{2})?'?(\d{2})?/.exec(value ?? '');
  if (!m) return null;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', sign, oh, om] = m;
  const zone = !sign || sign.toUpperCase() === 'Z' ? 'Z' : `${sign}${oh ?? '00'}:${om ?? '00'}`;
  const ms = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}${zone}`);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}
