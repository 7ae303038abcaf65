import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../../errors.js';
import { canonicalizeRequestUrl } from '../../fetch/url.js';
import { compileFilter } from '../../ops/map-rank.js';
import { MAP_LIMITS, mapSiteCached } from '../../ops/map.js';
import type { AppContext } from '../context.js';
import { requestSignal, runBillable } from '../context.js';
import { errorEnvelopeSchema, mapRequestSchema, mapResponseSchema } from '../schemas.js';

interface MapBody {
  url: string;
  limit?: number;
  include?: string[];
  exclude?: string[];
  search?: string;
  same_domain?: boolean;
  fresh?: unknown;
}

/** POST /v1/map: 1 credit per call, cached 1 h per URL and options, no `fresh`. */
export function registerMapRoute(scope: FastifyInstance, ctx: AppContext): void {
  scope.post<{ Body: MapBody }>(
    '/map',
    {
      schema: {
        body: mapRequestSchema,
        response: { 200: mapResponseSchema, '4xx': errorEnvelopeSchema, '5xx': errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (body.fresh !== undefined)
        throw new ServiceError('BAD_REQUEST', 'map does not accept fresh: its results are always cached for one hour');
      const url = canonicalizeRequestUrl(body.url, { allowPrivateTargets: ctx.config.allowPrivateTargets });
      const include = body.include ?? [];
      const exclude = body.exclude ?? [];
      compileFilter(include, exclude); // bad globs: BAD_REQUEST before any charge
      const search = body.search?.trim() ? body.search.trim() : null;
      const signal = requestSignal(ctx, reply);
      const { result, cacheHit } = await runBillable(ctx, request, { operation: 'map', cost: 1 }, () =>
        mapSiteCached(ctx.readDeps, {
          url,
          limit: body.limit ?? MAP_LIMITS.defaultLimit,
          include,
          exclude,
          search,
          sameDomain: body.same_domain !== false,
          signal,
        }),
      );
      reply.header('X-Service-Cache', cacheHit ? 'HIT' : 'MISS');
      return { status: 'success' as const, url: result.url, links: result.links, stats: result.stats };
    },
  );
}
