import { ServiceError } from '../errors.js';
import { decodeBody } from '../fetch/charset.js';
import { htmlToMarkdown } from './html/index.js';
import type { ConvertInput, ConvertResult } from './types.js';

/**
 * INTERIM dispatcher (replaced by the formats work, issue 6): HTML and plain text only.
 * Picks a converter from the media type; everything else is UNSUPPORTED_TYPE.
 */
export async function convertDocument(input: ConvertInput): Promise<ConvertResult> {
  const type = input.contentType ?? 'text/html';
  const decoded = decodeBody(input.body, input.headers['content-type']);
  const warnings = decoded.guessed ? [{ code: 'CHARSET_GUESSED', message: `charset not declared; decoded as ${decoded.charset}` }] : [];
  if (type === 'text/html' || type === 'application/xhtml+xml') {
    const result = htmlToMarkdown(decoded.text, input.url, { contentLanguage: input.headers['content-language'] ?? null });
    return { ...result, warnings: [...warnings, ...result.warnings] };
  }
  if (type === 'text/plain' || type === 'text/markdown') {
    return { markdown: decoded.text, metadata: { title: null, description: null, language: null }, warnings };
  }
  throw new ServiceError('UNSUPPORTED_TYPE', `content type ${type} is not supported`);
}
