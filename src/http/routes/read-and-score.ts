import type { FastifyInstance } from 'fastify';
import { canonicalizeRequestUrl } from '../../fetch/url.js';
import { readAndScore } from '../../ops/read-and-score.js';
import { readOptionsOf } from '../wire/read-options.js';
import type { AppContext } from '../context.js';
import { requestSignal, serializeLargeAnswer } from '../context.js';
import { OPERATIONS } from '../operations.js';
import { billedOperation } from '../register-operation.js';
import { renderInput, tokensHeader } from './read.js';
import { readAndScoreResponseBody } from '../wire/score.js';

/** POST /v1/read-and-score: read's JSON plus `score`; cached 1 h apart from read, `fresh` honoured. */
export function registerReadAndScoreRoute(scope: FastifyInstance, ctx: AppContext): void {
  billedOperation(scope, ctx, OPERATIONS['read-and-score'])
    .prepare((request, reply) => ({
      url: canonicalizeRequestUrl(request.body.url, { allowPrivateTargets: ctx.config.allowPrivateTargets }),
      options: readOptionsOf(request.body),
      signal: requestSignal(ctx, reply),
    }))
    .run(async ({ url, options, signal }, { request, reply }) => {
      const { result, cacheHit } = await readAndScore(ctx.readDeps, {
        url,
        fresh: request.body.fresh,
        options,
        signal,
        ...renderInput(request.body),
      });
      reply.header('X-Service-Cache', cacheHit ? 'HIT' : 'MISS');
      tokensHeader(reply, result);
      serializeLargeAnswer(reply, result.content.length);
      return readAndScoreResponseBody(result, cacheHit);
    });
}
