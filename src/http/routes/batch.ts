import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../../errors.js';
import { readBatch } from '../../ops/batch.js';
import type { RenderMode } from '../../render/types.js';
import type { AppContext } from '../context.js';
import { requestSignal, runBillable, serializeLargeAnswer } from '../context.js';
import { batchRequestSchema, batchResponseSchema, errorEnvelopeSchema } from '../schemas.js';
import { readResponseBody } from './read.js';

interface BatchBody {
  urls: string[];
  fresh?: unknown;
  render?: RenderMode;
}

/**
 * POST /v1/batch: one slot, N credits checked all-or-nothing up front, every `ok: false`
 * item refunded. X-Service-Cache is HIT only when every successful item came from the cache.
 */
export function registerBatchRoute(scope: FastifyInstance, ctx: AppContext): void {
  scope.post<{ Body: BatchBody }>(
    '/batch',
    {
      schema: {
        body: batchRequestSchema,
        response: { 200: batchResponseSchema, '4xx': errorEnvelopeSchema, '5xx': errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      if (request.body.fresh !== undefined) {
        throw new ServiceError('BAD_REQUEST', 'batch does not accept fresh: items are always read through the cache');
      }
      const urls = request.body.urls;
      const signal = requestSignal(ctx, reply);
      const items = await runBillable(ctx, request, { operation: 'batch', cost: urls.length }, (charge) =>
        readBatch(ctx.readDeps, {
          urls,
          parallelism: ctx.config.batchParallelism,
          render: request.body.render ?? 'auto',
          allowPrivateTargets: ctx.config.allowPrivateTargets,
          signal,
          onItemFailed: (index) => charge.refund(1, `item:${index}`),
        }),
      );
      const okItems = items.filter((item) => item.ok);
      const allHits = okItems.length > 0 && okItems.every((item) => item.cacheHit);
      reply.header('X-Service-Cache', allHits ? 'HIT' : 'MISS');
      serializeLargeAnswer(
        reply,
        okItems.reduce((sum, item) => sum + item.result.markdown.length, 0),
      );
      return {
        status: 'success' as const,
        results: items.map((item) => {
          if (!item.ok) return { url: item.url, ok: false, error: item.error };
          const { status: _status, ...fields } = readResponseBody(item.result, item.cacheHit);
          return { ok: true, ...fields };
        }),
      };
    },
  );
}
