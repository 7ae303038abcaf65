import { createHash } from 'node:crypto';
import type { Warning } from '../convert/types.js';
import { ServiceError } from '../errors.js';
import type { FetchedDocument } from '../fetch/types.js';
import { runJob } from '../convert/workers/jobs.js';
import { withLease } from '../fetch/memory-budget.js';
import type { RenderMode } from '../render/types.js';
import type { CompiledField, ExtractData } from './extract-data.js';
import { isHtmlType } from './html-page.js';
import type { ExtractJobOutput } from './jobs.js';
import { EXTRACT_JOB } from './jobs.js';
import type { ReadDeps } from './read.js';
import { cacheKey } from './cache.js';
import { renderAwareCache, renderFetched } from './rendering.js';

export interface ExtractInput {
  url: string;
  fresh: boolean;
  /** Compiled by the route with compileFields (bad selectors are refused before charging). */
  fields: CompiledField[];
  signal?: AbortSignal;
  /** `render` of the request; default "auto". */
  render?: RenderMode;
  fragment?: string;
}

export interface ExtractResult {
  url: string;
  data: ExtractData;
  /** The data comes from the page as a browser rendered it. */
  rendered: boolean;
  warnings: Warning[];
  /** Internal, never on the wire: "auto" would render this static result's page. */
  needsRender?: boolean;
}

/** Cache key: extract's own, plus a digest of the field specs when there are any. */
export function extractCacheKey(engineVersion: string, url: string, fields: CompiledField[]): string {
  const base = cacheKey('extract', engineVersion, url);
  if (fields.length === 0) return base;
  const spec = JSON.stringify(fields.map((f) => [f.name, f.spec.selector, f.spec.attr ?? null, f.spec.all === true]));
  return `${base}#fields:${createHash('sha256').update(spec).digest('hex').slice(0, 32)}`;
}

/**
 * POST /v1/extract: fetch like read, pull structured data; cached 1 h, `fresh` skips the
 * lookup. "auto" renders a page whose static markup has under JS_SHELL_MAX_TEXT characters
 * of visible text and is script-heavy (the shell test of read, without converting).
 */
export async function extractPage(deps: ReadDeps, input: ExtractInput): Promise<{ result: ExtractResult; cacheHit: boolean }> {
  const mode = input.render ?? 'auto';
  const fragment = input.fragment ? { fragment: input.fragment } : {};
  return renderAwareCache(
    deps,
    extractCacheKey(deps.engineVersion, input.url, input.fields),
    { mode, fresh: input.fresh, ...fragment },
    async () => {
      const startedAt = performance.now();
      return withLease(deps.memory, async (memory) => {
        const doc = await deps.fetcher.fetch(input.url, {
          ...(input.signal ? { signal: input.signal } : {}),
          ...(memory ? { memory } : {}),
        });
        if (!isHtmlType(doc.contentType, doc.body)) {
          throw new ServiceError('UNSUPPORTED_TYPE', `extract needs an HTML page; the target sent ${doc.contentType ?? 'no Content-Type'}`);
        }
        const extract = (from: FetchedDocument): Promise<ExtractJobOutput> => extractFrom(deps, from, input);
        let staticResult: ExtractResult | null = null;
        if (mode !== true) {
          const { data, looksLikeShell } = await extract(doc);
          staticResult = { url: doc.url, data, rendered: false, warnings: [], needsRender: looksLikeShell };
          if (mode === false || !staticResult.needsRender) return { result: staticResult, rendered: false, staticResult };
        }
        const outcome = await renderFetched(deps.render, doc, {
          mode,
          startedAt,
          ...fragment,
          ...(input.signal ? { signal: input.signal } : {}),
        });
        if (!outcome.rendered) {
          const base = staticResult ?? { url: doc.url, data: (await extract(doc)).data, rendered: false, warnings: [] };
          return { result: { ...base, warnings: [...base.warnings, outcome.warning] }, rendered: false, staticResult };
        }
        const rendered = outcome.document;
        const result = { url: rendered.url, data: (await extract(rendered)).data, rendered: true, warnings: outcome.warnings };
        return { result, rendered: true, staticResult };
      });
    },
  );
}

/** Parses the page and pulls the data in a job (off the event loop in the server). */
function extractFrom(deps: ReadDeps, doc: FetchedDocument, input: ExtractInput): Promise<ExtractJobOutput> {
  const page = { url: doc.url, body: doc.body, contentType: doc.contentType, contentTypeHeader: doc.headers['content-type'] ?? null };
  const fields = input.fields.map((f) => ({ name: f.name, spec: f.spec }));
  return runJob(deps.runner, EXTRACT_JOB, { page, fields }, input.signal ? { signal: input.signal } : {});
}
