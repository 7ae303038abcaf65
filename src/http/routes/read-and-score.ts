import type { FastifyInstance } from 'fastify';
import { canonicalizeRequestUrl } from '../../fetch/url.js';
import { readAndScore } from '../../ops/read-and-score.js';
import type { AppContext } from '../context.js';
import { requestSignal, runBillable, serializeLargeAnswer } from '../context.js';
import { errorEnvelopeSchema, readAndScoreResponseSchema, readRequestSchema } from '../schemas.js';
import type { RenderMode } from '../../render/types.js';
import { readResponseBody, renderInput } from './read.js';

/** POST /v1/read-and-score: read's JSON plus `score`; 1 credit, cached 1 h apart from read, `fresh` honoured. */
export function registerReadAndScoreRoute(scope: FastifyInstance, ctx: AppContext): void {
  scope.post<{ Body: { url: string; fresh?: boolean; render?: RenderMode } }>(
    '/read-and-score',
    {
      schema: {
        body: readRequestSchema,
        response: { 200: readAndScoreResponseSchema, '4xx': errorEnvelopeSchema, '5xx': errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const url = canonicalizeRequestUrl(request.body.url, { allowPrivateTargets: ctx.config.allowPrivateTargets });
      const signal = requestSignal(ctx, reply);
      const { result, cacheHit } = await runBillable(ctx, request, { operation: 'read-and-score', cost: 1 }, () =>
        readAndScore(ctx.readDeps, { url, fresh: request.body.fresh === true, signal, ...renderInput(request.body) }),
      );
      reply.header('X-Service-Cache', cacheHit ? 'HIT' : 'MISS');
      serializeLargeAnswer(reply, result.markdown.length);
      return { ...readResponseBody(result, cacheHit), score: result.score };
    },
  );
}
