import { performance } from 'node:perf_hooks';
import { convertDocument } from '../convert/index.js';
import { CACHE_TTL_SECONDS, cacheKey, computeStats, type ReadDeps, type ReadInput, type ReadResult } from './read.js';
import { scoreDocument, type ScoreDeps } from './score.js';
import type { Score } from './score-rubric.js';

export interface ReadAndScoreResult extends ReadResult {
  score: Score;
}

/**
 * POST /v1/read-and-score: one fetch, converted like read and scored like score. Cached
 * one hour under its own key (apart from read's); `fresh` skips the lookup but still writes.
 */
export async function readAndScore(
  deps: ReadDeps & ScoreDeps,
  input: ReadInput,
): Promise<{ result: ReadAndScoreResult; cacheHit: boolean }> {
  const key = cacheKey('read-and-score', deps.engineVersion, input.url);
  if (!input.fresh) {
    const cached = await deps.cache.get(key, deps.now());
    if (cached !== null) return { result: JSON.parse(cached) as ReadAndScoreResult, cacheHit: true };
  }
  const doc = await deps.fetcher.fetch(input.url, input.signal ? { signal: input.signal } : {});
  const started = performance.now();
  const converted = await convertDocument({ body: doc.body, contentType: doc.contentType, headers: doc.headers, url: doc.url });
  const extractionMs = Math.round(performance.now() - started);
  const score = await scoreDocument(deps, doc, input.signal);
  const result: ReadAndScoreResult = {
    url: doc.url,
    markdown: converted.markdown,
    metadata: converted.metadata,
    stats: computeStats(doc.body.length, Buffer.byteLength(converted.markdown, 'utf8'), extractionMs),
    warnings: converted.warnings,
    score,
  };
  await deps.cache.set(key, JSON.stringify(result), CACHE_TTL_SECONDS * 1000, deps.now());
  return { result, cacheHit: false };
}
