/**
 * PDF → Markdown from the text layer (no OCR). pdf.js (legacy build, Node 20) runs in a
 * worker thread with a time budget and a heap cap: a malicious file (deep nesting, xref
 * loops, decompression bombs) can exhaust only that worker, which is then terminated;
 * the service process stays up and answers EXTRACTION_FAILED. pdf.js itself runs its
 * "fake worker" inside that thread, so nothing is downloaded and no canvas is used.
 * The worker returns positioned text runs; `pdf-layout.ts` turns them into Markdown.
 */
import { ServiceError } from '../../errors.js';
import { clip } from '../markdown.js';
import type { PdfOutlineEntry, PdfPage } from './pdf-layout.js';
import { layoutPdf } from './pdf-layout.js';
import type { Worker } from 'node:worker_threads';
import type { PdfWorkerMessage, PdfWorkerPool } from '../workers/pdf-worker.js';
import { runPdfJob, spawnPdfWorker } from '../workers/pdf-worker.js';
import type { ConvertResult, DocumentMetadata, Warning } from '../types.js';

export interface PdfOptions {
  /** Wall-clock budget for pdf.js, ms. A 10 MB / 500-page PDF takes a few seconds. */
  timeoutMs?: number;
  /** Heap cap of the extraction worker, MB (a pool sets its own). */
  maxHeapMb?: number;
  /** Pages read at most; later pages are dropped with TRUNCATED. */
  maxPages?: number;
  /** Warm workers to reuse (saves loading pdf.js per file); without one, a worker per file. */
  pool?: PdfWorkerPool;
}

export const PDF_DEFAULTS = { timeoutMs: 20_000, maxHeapMb: 768, maxPages: 2_000 } as const;

/** Largest decoded size of one non-image Flate stream (content, fonts, object streams). */
const MAX_STREAM_BYTES = 64 * 1024 * 1024;
/** Largest decoded size of all of them together. */
const MAX_TOTAL_STREAM_BYTES = 384 * 1024 * 1024;

interface RawPdf {
  numPages: number;
  info: Record<string, string>;
  xmp: Record<string, string>;
  outline: PdfOutlineEntry[];
  pages: PdfPage[];
  /** Why extraction stopped early, when it did. */
  stopped: string | null;
}

export async function pdfToMarkdown(body: Buffer, options: PdfOptions = {}): Promise<ConvertResult> {
  const raw = await extractPdf(body, { ...PDF_DEFAULTS, ...options }, options.pool);
  const warnings: Warning[] = [];
  if (raw.stopped) warnings.push({ code: 'TRUNCATED', message: raw.stopped });
  if (raw.numPages === 0) throw new ServiceError('EXTRACTION_FAILED', 'the PDF has no pages');
  const layout = layoutPdf(raw.pages, raw.outline);
  if (layout.textChars === 0) {
    throw new ServiceError(
      'IMAGE_PDF',
      `the PDF has no embedded text layer on any of its ${raw.numPages} pages (scanned or image-only); OCR is not offered`,
    );
  }
  if (layout.emptyPages.length > 0) {
    const list = layout.emptyPages.length > 10 ? `${layout.emptyPages.slice(0, 10).join(', ')}…` : layout.emptyPages.join(', ');
    warnings.push({
      code: 'PDF_PAGES_WITHOUT_TEXT',
      message: `${layout.emptyPages.length} of ${raw.pages.length} pages have no text layer (pages ${list}); their content is missing`,
    });
  }
  return { markdown: layout.markdown, metadata: pdfMetadata(raw, layout.firstHeading), warnings };
}

async function extractPdf(body: Buffer, options: Required<Omit<PdfOptions, 'pool'>>, pool: PdfWorkerPool | undefined): Promise<RawPdf> {
  const raw: RawPdf = { numPages: 0, info: {}, xmp: {}, outline: [], pages: [], stopped: null };
  const data = new Uint8Array(body.byteLength);
  data.set(body);
  // The budget covers waiting for a pool place too.
  const budget = new AbortController();
  const timer = setTimeout(() => budget.abort(), options.timeoutMs);
  const overBudget = (): ServiceError =>
    new ServiceError('EXTRACTION_FAILED', `PDF extraction exceeded its ${options.timeoutMs} ms budget`);
  let worker: Worker;
  try {
    worker = pool ? await pool.take(budget.signal) : spawnPdfWorker(options.maxHeapMb);
  } catch {
    clearTimeout(timer);
    throw overBudget();
  }
  const heapMb = pool ? pool.maxHeapMb : options.maxHeapMb;
  let failure: ServiceError | null = null;
  const fail = (reason: string, err: ServiceError): void => {
    if (failure || raw.stopped) return;
    if (raw.pages.length > 0) raw.stopped = `${reason}; read ${raw.pages.length} of ${raw.numPages} pages`;
    else failure = err;
  };
  const onMessage = (msg: PdfWorkerMessage): void => {
    if (msg.type === 'meta') {
      raw.numPages = msg.numPages;
      raw.info = msg.info;
      raw.xmp = msg.xmp;
      raw.outline = msg.outline;
    } else if (msg.type === 'page') raw.pages.push({ width: msg.width, height: msg.height, items: msg.items });
    else if (msg.type === 'done') {
      if (raw.numPages > raw.pages.length) raw.stopped = `PDF cut at ${raw.pages.length} of ${raw.numPages} pages`;
    } else if (msg.type === 'error') {
      // A page that fails after others were read costs that page and the rest, not the file.
      const err = workerError(msg.name, msg.message);
      fail(`PDF extraction stopped at page ${raw.pages.length + 1}: ${err.message}`, err);
    }
  };
  const onFailure = (err: Error & { code?: string }): void => {
    const reason =
      err.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? `PDF extraction exceeded its ${heapMb} MB memory cap`
        : `PDF extraction crashed: ${err.message}`;
    fail(reason, new ServiceError('EXTRACTION_FAILED', reason, {}, { cause: err }));
  };
  const job = runPdfJob(
    worker,
    { data, maxPages: options.maxPages, maxStreamBytes: MAX_STREAM_BYTES, maxTotalBytes: MAX_TOTAL_STREAM_BYTES },
    onMessage,
    onFailure,
  );
  const onBudget = (): void => {
    const err = overBudget();
    fail(err.message, err);
    job.cancel();
  };
  if (budget.signal.aborted) onBudget();
  else budget.signal.addEventListener('abort', onBudget, { once: true });
  const healthy = await job.finished;
  clearTimeout(timer);
  budget.signal.removeEventListener('abort', onBudget);
  if (pool) {
    if (healthy) pool.give(worker);
    else pool.discard(worker);
  } else void worker.terminate();
  if (failure) throw failure;
  return raw;
}

/**
 * Maps pdf.js exceptions: a password-protected PDF is EXTRACTION_FAILED with a message
 * saying so (the file is a PDF we support; we cannot open it without the password).
 */
function workerError(name: string, message: string): ServiceError {
  if (name === 'PasswordException') {
    return new ServiceError(
      'EXTRACTION_FAILED',
      'the PDF is encrypted and needs a password to open; password-protected PDFs cannot be read',
      { reason: 'pdf_password_required' },
    );
  }
  if (name === 'BombException')
    return new ServiceError('EXTRACTION_FAILED', `the PDF was refused: ${message}`, { reason: 'pdf_decompression_bomb' });
  if (name === 'InvalidPDFException')
    return new ServiceError('EXTRACTION_FAILED', `the PDF is damaged and could not be read: ${clip(message, 200)}`);
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
    publishedAt: pdfDate(raw.info.CreationDate) ?? pick(raw.xmp['xmp:createdate']),
    contentType: 'application/pdf',
    pageCount: raw.numPages,
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
