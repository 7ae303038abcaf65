/**
 * The format dispatcher: PDFs (recognised by their first bytes) go to the pdf.js workers
 * (`pdf.ts`), everything else to the text job (`convert-text.ts`), which picks the format,
 * decodes and converts. Where the text job runs is the caller's choice: the server's worker
 * pool, or in-process. docs/formats.md documents the behaviour.
 */
import { asExtractionFailure, CONVERT_TEXT_JOB, completeResult } from './convert-text.js';
import type { PdfOptions } from './pdf/pdf.js';
import { FINISH_OUTPUT_JOB, ignoredOptionsWarning } from './output.js';
import { pdfToMarkdown } from './pdf/pdf.js';
import { pickFormat } from './detect/pick-format.js';
import { sniffContent } from './detect/sniff.js';
import type { ConvertInput, ConvertResult, Warning } from './types.js';
import type { JobRunner } from './workers/jobs.js';
import { runJob } from './workers/jobs.js';

export interface ConvertOptions {
  /** PDF extraction bounds (time budget, worker heap); defaults suit the 15 s request budget. */
  pdf?: PdfOptions;
  /** Where every other format converts (server.ts: the worker pool); in-process when absent. */
  runner?: JobRunner;
}

export async function convertDocument(input: ConvertInput, options: ConvertOptions = {}): Promise<ConvertResult> {
  const { signal, ...doc } = input;
  if (sniffContent(input.body).kind !== 'pdf') return runJob(options.runner, CONVERT_TEXT_JOB, doc, signal ? { signal } : {});
  const choice = pickFormat(input.contentType, input.body, input.url);
  const warnings: Warning[] = [];
  if (choice.mismatch) warnings.push({ code: 'CONTENT_TYPE_MISMATCH', message: choice.mismatch });
  const readOptions = input.options ?? {};
  const ignored = ignoredOptionsWarning(readOptions, 'application/pdf');
  if (ignored) warnings.push(ignored);
  let result: ConvertResult;
  try {
    result = completeResult(await pdfToMarkdown(input.body, options.pdf), choice, input, warnings);
  } catch (err) {
    throw asExtractionFailure(err, choice);
  }
  // token count and the asked-for formats: CPU work on the answer, so in a worker too
  const finish = { result, options: readOptions, url: input.url };
  return runJob(options.runner, FINISH_OUTPUT_JOB, finish, signal ? { signal } : {});
}
