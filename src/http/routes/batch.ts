import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../../errors.js';
import { readBatch } from '../../ops/batch.js';
import { readOptionsOf } from '../wire/read-options.js';
import type { AppContext } from '../context.js';
import { requestSignal, serializeLargeAnswer } from '../context.js';
import { OPERATIONS } from '../operations.js';
import { billedOperation } from '../register-operation.js';
import { readResultOnWire } from '../wire/read.js';

/**
 * POST /v1/batch: one slot, N credits checked all-or-nothing up front, every `ok: false`
 * item refunded. X-Service-Cache is HIT only when every successful item came from the cache.
 */
export function registerBatchRoute(scope: FastifyInstance, ctx: AppContext): void {
  billedOperation(scope, ctx, OPERATIONS.batch)
    .prepare((request, reply) => {
      if (request.body.fresh !== undefined) {
        throw new ServiceError('BAD_REQUEST', 'batch does not accept fresh: items are always read through the cache');
      }
      return { options: readOptionsOf(request.body), signal: requestSignal(ctx, reply) };
    })
    .run(async ({ options, signal }, { request, reply, charge }) => {
      const items = await readBatch(ctx.readDeps, {
        urls: request.body.urls,
        parallelism: ctx.config.batchParallelism,
        render: request.body.render,
        options,
        allowPrivateTargets: ctx.config.allowPrivateTargets,
        signal,
        onItemFailed: (index) => charge.refund(1, `item:${index}`),
      });
      const okItems = items.filter((item) => item.ok);
      const allHits = okItems.length > 0 && okItems.every((item) => item.cacheHit);
      reply.header('X-Service-Cache', allHits ? 'HIT' : 'MISS');
      serializeLargeAnswer(
        reply,
        okItems.reduce((sum, item) => sum + item.result.content.length, 0),
      );
      return {
        status: 'success',
        results: items.map((item) => {
          if (!item.ok) return { url: item.url, ok: false, error: item.error };
          return { ok: true, ...readResultOnWire(item.result, item.cacheHit) };
        }),
      };
    });
}
