import { CACHE_TTL_SECONDS, cacheKey, convertFetched, type ReadDeps, type ReadInput, type ReadResult } from './read.js';
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
  const read = await convertFetched(doc, deps.convert);
  const score = await scoreDocument(deps, doc, input.signal);
  const result: ReadAndScoreResult = { ...read, score };
  await deps.cache.set(key, JSON.stringify(result), CACHE_TTL_SECONDS * 1000, deps.now());
  return { result, cacheHit: false };
}
