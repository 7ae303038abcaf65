import { createHash } from 'node:crypto';
import { ServiceError } from '../errors.js';
import type { CompiledField, ExtractData } from './extract-data.js';
import { extractData } from './extract-data.js';
import { isHtmlType, parsePage } from './html-page.js';
import type { ReadDeps } from './read.js';
import { cacheKey, readThroughCache } from './read.js';

export interface ExtractInput {
  url: string;
  fresh: boolean;
  /** Compiled by the route with compileFields (bad selectors are refused before charging). */
  fields: CompiledField[];
  signal?: AbortSignal;
}

export interface ExtractResult {
  url: string;
  data: ExtractData;
}

/** Cache key: extract's own, plus a digest of the field specs when there are any. */
export function extractCacheKey(engineVersion: string, url: string, fields: CompiledField[]): string {
  const base = cacheKey('extract', engineVersion, url);
  if (fields.length === 0) return base;
  const spec = JSON.stringify(fields.map((f) => [f.name, f.spec.selector, f.spec.attr ?? null, f.spec.all === true]));
  return `${base}#fields:${createHash('sha256').update(spec).digest('hex').slice(0, 32)}`;
}

/** POST /v1/extract: fetch like read, pull structured data; cached 1 h, `fresh` skips the lookup. */
export async function extractPage(deps: ReadDeps, input: ExtractInput): Promise<{ result: ExtractResult; cacheHit: boolean }> {
  return readThroughCache(
    deps,
    extractCacheKey(deps.engineVersion, input.url, input.fields),
    input.fresh,
    async (): Promise<ExtractResult> => {
      const doc = await deps.fetcher.fetch(input.url, input.signal ? { signal: input.signal } : {});
      if (!isHtmlType(doc.contentType, doc.body)) {
        throw new ServiceError('UNSUPPORTED_TYPE', `extract needs an HTML page; the target sent ${doc.contentType ?? 'no Content-Type'}`);
      }
      const page = parsePage(doc.url, doc.body, doc.headers['content-type'] ?? null);
      return { url: doc.url, data: extractData(page, input.fields) };
    },
  );
}
