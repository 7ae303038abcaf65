import type { ReadDeps, ReadInput, ReadResult } from './read.js';
import { cacheKey, convertFetched, openSignal, readThroughCache } from './read.js';
import type { ScoreDeps } from './score.js';
import { scoreDocument } from './score.js';
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
  return readThroughCache(deps, cacheKey('read-and-score', deps.engineVersion, input.url), input.fresh, async () => {
    const signal = openSignal(input.signal);
    const doc = await deps.fetcher.fetch(input.url, signal ? { signal } : {});
    const read = await convertFetched(doc, deps.convert, signal);
    const score = await scoreDocument(deps, doc, signal);
    return { ...read, score };
  });
}
