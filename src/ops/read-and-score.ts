import { withLease } from '../fetch/memory-budget.js';
import type { ReadDeps, ReadInput, ReadResult } from './read.js';
import { DEFAULT_READ_OPTIONS, readOptionsKey } from './read-options.js';
import { cacheKey } from './cache.js';
import { convertWithRender, openSignal } from './read.js';
import { renderAwareCache } from './rendering.js';
import type { ScoreDeps } from './score.js';
import { scoreDocument } from './score.js';
import type { Score } from './score-rubric.js';

export interface ReadAndScoreResult extends ReadResult {
  score: Score;
}

/**
 * POST /v1/read-and-score: one fetch, converted like read (rendered when `render` asks for
 * it) and scored like score. The score always judges the page as the server sent it (its
 * first check is whether the content is server-rendered). Cached one hour under its own
 * key (apart from read's); `fresh` skips the lookup but still writes.
 */
export async function readAndScore(
  deps: ReadDeps & ScoreDeps,
  input: ReadInput,
): Promise<{ result: ReadAndScoreResult; cacheHit: boolean }> {
  const mode = input.render ?? 'auto';
  const fragment = input.fragment ? { fragment: input.fragment } : {};
  const options = input.options ?? DEFAULT_READ_OPTIONS;
  return renderAwareCache(
    deps,
    cacheKey('read-and-score', deps.engineVersion, input.url) + readOptionsKey(options),
    { mode, fresh: input.fresh, ...fragment },
    async () => {
      const signal = openSignal(input.signal);
      const startedAt = performance.now();
      return withLease(deps.memory, async (memory) => {
        const doc = await deps.fetcher.fetch(input.url, { ...(signal ? { signal } : {}), ...(memory ? { memory } : {}) });
        const read = await convertWithRender(deps, doc, { render: mode, startedAt, options, ...fragment, ...(signal ? { signal } : {}) });
        const score = await scoreDocument(deps, doc, signal);
        return {
          result: { ...read.result, score },
          rendered: read.rendered,
          staticResult: read.staticResult ? { ...read.staticResult, score } : null,
        };
      });
    },
  );
}
