import type { FastifyInstance } from 'fastify';
import { canonicalizeRequestUrl } from '../../fetch/url.js';
import { scoreUrl } from '../../ops/score.js';
import type { AppContext } from '../context.js';
import { requestSignal, runBillable } from '../context.js';
import { errorEnvelopeSchema, scoreResponseSchema, urlRequestSchema } from '../schemas.js';

/** POST /v1/score: 0 credits, never cached (no X-Service-Cache), but holds a concurrency slot. */
export function registerScoreRoute(scope: FastifyInstance, ctx: AppContext): void {
  scope.post<{ Body: { url: string } }>(
    '/score',
    {
      schema: {
        body: urlRequestSchema,
        response: { 200: scoreResponseSchema, '4xx': errorEnvelopeSchema, '5xx': errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const url = canonicalizeRequestUrl(request.body.url, { allowPrivateTargets: ctx.config.allowPrivateTargets });
      const signal = requestSignal(ctx, reply);
      const result = await runBillable(ctx, request, { operation: 'score', cost: 0 }, () => scoreUrl(ctx.readDeps, { url, signal }));
      return { status: 'success' as const, url: result.url, score: result.score };
    },
  );
}
