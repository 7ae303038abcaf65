/**
 * The format dispatcher: picks a converter from Content-Type checked against sniffing
 * (`pick-format.ts`), decodes text (`fetch/charset.ts`), converts, and fills the metadata
 * every format shares (content_type, a description from the first paragraph, a title
 * from the file name when the format has none). docs/formats.md documents the behaviour.
 */
import { ServiceError, isServiceError } from '../errors.js';
import { decodeBody } from '../fetch/charset.js';
import { csvToMarkdown } from './csv.js';
import { jsonToMarkdown } from './json.js';
import { fileNameFromUrl, firstParagraph, urlExtension } from './markdown.js';
import type { PdfOptions } from './pdf.js';
import { pdfToMarkdown } from './pdf.js';
import type { Format } from './pick-format.js';
import { pickFormat } from './pick-format.js';
import { markdownPassthrough, plainTextToMarkdown } from './text.js';
import type { ConvertInput, ConvertResult, DocumentMetadata, Warning } from './types.js';
import type { HtmlToMarkdownOptions } from './html/index.js';
import type { HtmlWorkerPool } from './workers/html-pool.js';
import { parseXml, rootName, xmlToMarkdown } from './xml.js';

export interface ConvertOptions {
  /** PDF extraction bounds (time budget, worker heap); defaults suit the 15 s request budget. */
  pdf?: PdfOptions;
  /** Runs the HTML engine in worker threads (server.ts); in-process when absent. */
  html?: HtmlWorkerPool;
}

export async function convertDocument(input: ConvertInput, options: ConvertOptions = {}): Promise<ConvertResult> {
  const choice = pickFormat(input.contentType, input.body, input.url);
  const warnings: Warning[] = [];
  if (choice.mismatch) warnings.push({ code: 'CONTENT_TYPE_MISMATCH', message: choice.mismatch });
  try {
    const result =
      choice.format === 'pdf'
        ? await pdfToMarkdown(input.body, options.pdf)
        : await convertText(input, choice.format, warnings, options.html);
    const metadata: DocumentMetadata = {
      ...result.metadata,
      language: result.metadata.language ?? contentLanguage(input),
      title: result.metadata.title ?? (choice.format === 'html' ? null : fileNameFromUrl(input.url)),
      description: result.metadata.description ?? firstParagraph(result.markdown),
      content_type: result.metadata.content_type ?? choice.mediaType,
    };
    return { markdown: result.markdown, metadata, warnings: [...warnings, ...result.warnings] };
  } catch (err) {
    if (isServiceError(err)) throw err;
    const reason = err instanceof Error ? err.message : String(err);
    throw new ServiceError('EXTRACTION_FAILED', `could not convert ${choice.mediaType}: ${reason}`, {}, { cause: err });
  }
}

async function convertText(
  input: ConvertInput,
  format: Exclude<Format, 'pdf'>,
  warnings: Warning[],
  pool?: HtmlWorkerPool,
): Promise<ConvertResult> {
  const language = contentLanguage(input);
  const text = decodeText(input, format, warnings);
  const base = (markdown: string, title: string | null, extra: Warning[]): ConvertResult => ({
    markdown,
    metadata: { title, description: null, language },
    warnings: extra,
  });
  switch (format) {
    case 'html': {
      return htmlToMarkdown(text, input.url, { contentLanguage: language }, pool, input.signal);
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
        const result = await htmlToMarkdown(text, input.url, { contentLanguage: language }, pool, input.signal);
        return { ...result, metadata: { ...result.metadata, content_type: 'application/xhtml+xml' } };
      }
      const xml = xmlToMarkdown(text);
      return {
        markdown: xml.markdown,
        metadata: { title: xml.title, description: xml.description, language: xml.language ?? language, content_type: xml.mediaType },
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
function decodeText(input: ConvertInput, format: Format, warnings: Warning[]): string {
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
 * reads (PDF, JSON, CSV…) never need it.
 */
async function htmlToMarkdown(
  html: string,
  url: string,
  options: HtmlToMarkdownOptions,
  pool?: HtmlWorkerPool,
  signal?: AbortSignal,
): Promise<ConvertResult> {
  if (pool) return pool.convert(html, url, options, signal);
  const html_ = await import('./html/index.js');
  return html_.htmlToMarkdown(html, url, options);
}

/** The first language of the Content-Language header, or null. */
function contentLanguage(input: ConvertInput): string | null {
  return input.headers['content-language']?.split(',')[0]?.trim() || null;
}
