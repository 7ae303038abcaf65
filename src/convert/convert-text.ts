/**
 * Every format but PDF, from bytes to Markdown: pick the format (Content-Type checked against
 * sniffing, `pick-format.ts`), decode the text, convert, and fill the metadata every format
 * shares. Pure and synchronous apart from loading the HTML engine, so it runs as one job
 * (CONVERT_TEXT_JOB) in a worker thread of the server: nothing here touches the event loop.
 */
import { ServiceError, isServiceError } from '../errors.js';
import { decodeBody } from './decode.js';
import { csvToMarkdown } from './formats/csv.js';
import type { HtmlToMarkdownOptions } from './html/index.js';
import { jsonToMarkdown } from './formats/json.js';
import { fileNameFromUrl, firstParagraph, urlExtension } from './markdown.js';
import type { Format, FormatChoice } from './detect/pick-format.js';
import { pickFormat } from './detect/pick-format.js';
import { finishOutput, ignoredOptionsWarning } from './output.js';
import { markdownPassthrough, plainTextToMarkdown } from './formats/text.js';
import type { ConvertResult, DocumentMetadata, DocumentOptions, Warning } from './types.js';
import type { Job } from './workers/jobs.js';
import { parseXml, rootName, xmlToMarkdown } from './formats/xml.js';

/** What the text job needs: the fetched bytes and what the server said about them. */
export interface TextDocument {
  /** A Buffer on the calling thread; a plain Uint8Array once it crossed into a worker. */
  body: Uint8Array;
  contentType: string | null;
  headers: Record<string, string>;
  url: string;
  /** The read options the caller chose (plain data: selectors are compiled in the engine). */
  options?: DocumentOptions;
}

/** Bodies up to this size convert on the calling thread: a worker hop would cost more. */
const INLINE_MAX_BYTES = 32 * 1024;

export const CONVERT_TEXT_JOB: Job<TextDocument, ConvertResult> = {
  name: 'convert-text',
  label: 'converting the page',
  run: convertTextDocument,
  weight: (doc) => doc.body.byteLength,
  // HTML always goes to a worker: the engine's first load alone is ~0.4 s of CPU
  inline: (doc) => doc.body.byteLength <= INLINE_MAX_BYTES && !looksLikeHtml(doc),
};

export async function convertTextDocument(doc: TextDocument): Promise<ConvertResult> {
  const body = Buffer.isBuffer(doc.body) ? doc.body : Buffer.from(doc.body.buffer, doc.body.byteOffset, doc.body.byteLength);
  const input = { ...doc, body };
  const choice = pickFormat(input.contentType, body, input.url);
  if (choice.format === 'pdf') throw new ServiceError('INTERNAL_ERROR', 'a PDF reached the text converter');
  const warnings: Warning[] = [];
  if (choice.mismatch) warnings.push({ code: 'CONTENT_TYPE_MISMATCH', message: choice.mismatch });
  const options = doc.options ?? {};
  try {
    const result = await convertText(input, choice.format, warnings);
    if (choice.format !== 'html' && choice.format !== 'xml') {
      const ignored = ignoredOptionsWarning(options, choice.mediaType);
      if (ignored) warnings.push(ignored);
    }
    return finishOutput(completeResult(result, choice, input, warnings), options, input.url);
  } catch (err) {
    throw asExtractionFailure(err, choice);
  }
}

/** Fills what every format shares (contentType, description, a title from the file name). */
export function completeResult(
  result: ConvertResult,
  choice: FormatChoice,
  input: { url: string; headers: Record<string, string> },
  warnings: Warning[],
): ConvertResult {
  const metadata: DocumentMetadata = {
    ...result.metadata,
    language: result.metadata.language ?? contentLanguage(input.headers),
    title: result.metadata.title ?? (choice.format === 'html' ? null : fileNameFromUrl(input.url)),
    description: result.metadata.description ?? firstParagraph(result.markdown),
    contentType: result.metadata.contentType ?? choice.mediaType,
  };
  return { ...result, metadata, warnings: [...warnings, ...result.warnings] };
}

export function asExtractionFailure(err: unknown, choice: FormatChoice): ServiceError {
  if (isServiceError(err)) return err;
  const reason = err instanceof Error ? err.message : String(err);
  return new ServiceError('EXTRACTION_FAILED', `could not convert ${choice.mediaType}: ${reason}`, {}, { cause: err });
}

type TextInput = Omit<TextDocument, 'body'> & { body: Buffer };

async function convertText(input: TextInput, format: Exclude<Format, 'pdf'>, warnings: Warning[]): Promise<ConvertResult> {
  const language = contentLanguage(input.headers);
  const text = decodeText(input, format, warnings);
  const base = (markdown: string, title: string | null, extra: Warning[]): ConvertResult => ({
    markdown,
    metadata: { title, description: null, language },
    warnings: extra,
  });
  switch (format) {
    case 'html': {
      return htmlToMarkdown(text, input.url, { contentLanguage: language, ...input.options });
    }
    case 'json': {
      const json = jsonToMarkdown(text);
      return {
        markdown: json.markdown,
        metadata: { title: json.hints.title, description: json.hints.description, language },
        warnings: json.warnings,
      };
    }
    case 'csv':
    case 'tsv': {
      const table = csvToMarkdown(text, format === 'tsv' ? { delimiter: '\t' } : {});
      const result = base(table.markdown, null, table.warnings);
      result.metadata.description = `Table with ${table.rows} rows and ${table.columns} columns`;
      return result;
    }
    case 'xml': {
      if (rootName(parseXml(text.slice(0, 64 * 1024)).doc) === 'html') {
        const result = await htmlToMarkdown(text, input.url, { contentLanguage: language, ...input.options });
        return { ...result, metadata: { ...result.metadata, contentType: 'application/xhtml+xml' } };
      }
      const xml = xmlToMarkdown(text);
      return {
        markdown: xml.markdown,
        metadata: { title: xml.title, description: xml.description, language: xml.language ?? language, contentType: xml.mediaType },
        warnings: xml.warnings,
      };
    }
    case 'markdown': {
      const md = markdownPassthrough(text);
      return base(md.markdown, md.title, md.warnings);
    }
    case 'text': {
      const plain = plainTextToMarkdown(text, input.contentType ?? 'text/plain', urlExtension(input.url));
      return base(plain.markdown, plain.title, plain.warnings);
    }
  }
}

/**
 * Decodes with the owner's decodeBody. XML may declare its encoding in the prolog, which
 * the HTTP header outranks; JSON is UTF-8 by definition (RFC 8259), so a guess is no news.
 * CHARSET_GUESSED is only raised when the body has non-ASCII bytes the guess could get wrong.
 */
function decodeText(input: TextInput, format: Format, warnings: Warning[]): string {
  let header = input.headers['content-type'] ?? null;
  if (format === 'xml' && !/charset=/i.test(header ?? '')) {
    const declared = /^\s*<\?xml[^>]*encoding\s*=\s*["']([\w.:-]+)["']/.exec(input.body.subarray(0, 256).toString('latin1'))?.[1];
    if (declared) header = `application/xml; charset=${declared}`;
  }
  const decoded = decodeBody(input.body, header);
  if (decoded.guessed && format !== 'json' && hasNonAscii(input.body)) {
    warnings.push({ code: 'CHARSET_GUESSED', message: `charset not declared; decoded as ${decoded.charset}` });
  }
  return decoded.text;
}

function hasNonAscii(body: Buffer): boolean {
  for (let i = 0; i < body.length; i++) if ((body[i] as number) > 0x7f) return true;
  return false;
}

/**
 * The HTML converter, loaded on first use: it is the heaviest module here and non-HTML
 * reads (JSON, CSV…) converted on the calling thread never need it.
 */
async function htmlToMarkdown(html: string, url: string, options: HtmlToMarkdownOptions): Promise<ConvertResult> {
  const engine = await import('./html/index.js');
  return engine.htmlToMarkdown(html, url, options);
}

/** Whether the declared type or the first bytes say HTML (the inline rule only; pickFormat decides). */
function looksLikeHtml(doc: TextDocument): boolean {
  if (doc.contentType === 'text/html' || doc.contentType === 'application/xhtml+xml') return true;
  const head = Buffer.from(doc.body.buffer, doc.body.byteOffset, Math.min(doc.body.byteLength, 512)).toString('latin1').toLowerCase();
  return head.includes('<html') || head.includes('<!doctype html') || head.includes('<body') || head.includes('<div');
}

/** The first language of the Content-Language header, or null. */
function contentLanguage(headers: Record<string, string>): string | null {
  return headers['content-language']?.split(',')[0]?.trim() || null;
}
