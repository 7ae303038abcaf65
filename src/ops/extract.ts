import { createHash } from 'node:crypto';
import type { Warning } from '../convert/types.js';
import { ServiceError } from '../errors.js';
import type { FetchedDocument } from '../fetch/types.js';
import { JS_SHELL_MAX_TEXT } from '../convert/html/warnings.js';
import { isScriptHeavy } from '../render/needs-render.js';
import type { RenderMode } from '../render/types.js';
import type { CompiledField, ExtractData } from './extract-data.js';
import { extractData } from './extract-data.js';
import { isHtmlType, parsePage, visibleText } from './html-page.js';
import type { ReadDeps } from './read.js';
import { cacheKey } from './read.js';
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
      const doc = await deps.fetcher.fetch(input.url, input.signal ? { signal: input.signal } : {});
      if (!isHtmlType(doc.contentType, doc.body)) {
        throw new ServiceError('UNSUPPORTED_TYPE', `extract needs an HTML page; the target sent ${doc.contentType ?? 'no Content-Type'}`);
      }
      let staticResult: ExtractResult | null = null;
      if (mode !== true) {
        const page = parsePage(doc.url, doc.body, doc.headers['content-type'] ?? null);
        const needsRender = visibleText(page.doc).length < JS_SHELL_MAX_TEXT && isScriptHeavy(doc.body);
        staticResult = { url: doc.url, data: extractData(page, input.fields), rendered: false, warnings: [], needsRender };
        if (mode === false || !staticResult.needsRender) return { result: staticResult, rendered: false, staticResult };
      }
      const outcome = await renderFetched(deps.render, doc, {
        mode,
        startedAt,
        ...fragment,
        ...(input.signal ? { signal: input.signal } : {}),
      });
      if (!outcome.rendered) {
        const base = staticResult ?? extractFrom(doc, input.fields);
        return { result: { ...base, warnings: [...base.warnings, outcome.warning] }, rendered: false, staticResult };
      }
      const result = { ...extractFrom(outcome.document, input.fields), rendered: true, warnings: outcome.warnings };
      return { result, rendered: true, staticResult };
    },
  );
}

function extractFrom(doc: FetchedDocument, fields: CompiledField[]): ExtractResult {
  const page = parsePage(doc.url, doc.body, doc.headers['content-type'] ?? null);
  return { url: doc.url, data: extractData(page, fields), rendered: false, warnings: [] };
}
