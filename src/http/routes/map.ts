import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../../errors.js';
import { canonicalizeRequestUrl } from '../../fetch/url.js';
import { compileFilter } from '../../ops/map-rank.js';
import { mapSiteCached } from '../../ops/map.js';
import type { AppContext } from '../context.js';
import { requestSignal } from '../context.js';
import { OPERATIONS } from '../operations.js';
import { billedOperation } from '../register-operation.js';
import { mapResponseBody } from '../wire/map.js';

/** POST /v1/map: cached 1 h per URL and options, no `fresh`. */
export function registerMapRoute(scope: FastifyInstance, ctx: AppContext): void {
  billedOperation(scope, ctx, OPERATIONS.map)
    .prepare((request, reply) => {
      const body = request.body;
      if (body.fresh !== undefined)
        throw new ServiceError('BAD_REQUEST', 'map does not accept fresh: its results are always cached for one hour');
      const url = canonicalizeRequestUrl(body.url, { allowPrivateTargets: ctx.config.allowPrivateTargets });
      const include = body.include ?? [];
      const exclude = body.exclude ?? [];
      compileFilter(include, exclude); // bad globs: BAD_REQUEST before any charge
      const search = body.search?.trim() ? body.search.trim() : null;
      return { url, include, exclude, search, signal: requestSignal(ctx, reply) };
    })
    .run(async ({ signal, ...options }, { request, reply }) => {
      const { result, cacheHit } = await mapSiteCached(ctx.readDeps, {
        ...options,
        limit: request.body.limit,
        sameDomain: request.body.same_domain !== false,
        signal,
      });
      reply.header('X-Service-Cache', cacheHit ? 'HIT' : 'MISS');
      return mapResponseBody(result);
    });
}
