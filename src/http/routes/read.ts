import type { FastifyInstance } from 'fastify';
import { canonicalizeRequestUrl } from '../../fetch/url.js';
import { CACHE_TTL_SECONDS } from '../../ops/cache.js';
import type { ReadResult } from '../../ops/read.js';
import { readPage } from '../../ops/read.js';
import { readOptionsOf } from '../../ops/read-options.js';
import { routeFragment } from '../../ops/rendering.js';
import type { RenderMode } from '../../render/types.js';
import type { AppContext } from '../context.js';
import { lazyRequestSignal, serializeLargeAnswer, wantsMarkdown } from '../context.js';
import { OPERATIONS } from '../operations.js';
import type { ReplyOf } from '../register-operation.js';
import { billedOperation } from '../register-operation.js';
import { onWire } from '../wire.js';

/** The JSON body of a read: the spec's field table, `warnings` only when there are some. */
export function readResponseBody(result: ReadResult, cacheHit: boolean): ReplyOf<typeof OPERATIONS.read> {
  return onWire<ReplyOf<typeof OPERATIONS.read>>()({
    status: 'success',
    url: result.url,
    markdown: result.markdown,
    metadata: result.metadata,
    // entries cached before `rendered` existed were static reads
    stats: { ...result.stats, rendered: result.stats.rendered === true },
    cache: { hit: cacheHit, ttl_seconds: CACHE_TTL_SECONDS },
    ...(result.warnings.length > 0 ? { warnings: result.warnings } : {}),
  });
}

export function registerReadRoute(scope: FastifyInstance, ctx: AppContext): void {
  billedOperation(scope, ctx, OPERATIONS.read)
    .prepare((request, reply) => ({
      url: canonicalizeRequestUrl(request.body.url, { allowPrivateTargets: ctx.config.allowPrivateTargets }),
      signal: lazyRequestSignal(ctx, reply),
    }))
    .run(async ({ url, signal }, { request, reply }) => {
      const { result, cacheHit } = await readPage(ctx.readDeps, {
        url,
        fresh: request.body.fresh,
        signal,
        options: readOptionsOf(request.body),
        ...renderInput(request.body),
      });
      reply.header('X-Service-Cache', cacheHit ? 'HIT' : 'MISS');
      if (wantsMarkdown(request)) {
        return reply.type('text/markdown; charset=utf-8').send(result.markdown);
      }
      serializeLargeAnswer(reply, result.markdown.length);
      return readResponseBody(result, cacheHit);
    });
}

/** `render` and the client-side route fragment of a request body, as the ops take them. */
export function renderInput(body: { url: string; render?: RenderMode }): { render: RenderMode; fragment?: string } {
  const fragment = routeFragment(body.url);
  return { render: body.render ?? 'auto', ...(fragment ? { fragment } : {}) };
}
