import type { FastifyInstance } from 'fastify';
import { canonicalizeRequestUrl } from '../../fetch/url.js';
import type { FieldSpec } from '../../ops/extract-data.js';
import { compileFields } from '../../ops/extract-data.js';
import { extractPage } from '../../ops/extract.js';
import type { RenderMode } from '../../render/types.js';
import { renderInput } from './read.js';
import type { AppContext } from '../context.js';
import { requestSignal, runBillable } from '../context.js';
import { errorEnvelopeSchema, extractRequestSchema, extractResponseSchema } from '../schemas.js';

interface ExtractBody {
  url: string;
  fresh?: boolean;
  render?: RenderMode;
  fields?: Record<string, FieldSpec>;
}

/** POST /v1/extract: 1 credit, cached 1 h (per URL and field specs), `fresh` honoured. */
export function registerExtractRoute(scope: FastifyInstance, ctx: AppContext): void {
  scope.post<{ Body: ExtractBody }>(
    '/extract',
    {
      schema: {
        body: extractRequestSchema,
        response: { 200: extractResponseSchema, '4xx': errorEnvelopeSchema, '5xx': errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const url = canonicalizeRequestUrl(request.body.url, { allowPrivateTargets: ctx.config.allowPrivateTargets });
      const fields = compileFields(request.body.fields); // bad selectors: BAD_REQUEST before any charge
      const signal = requestSignal(ctx, reply);
      const { result, cacheHit } = await runBillable(ctx, request, { operation: 'extract', cost: 1 }, () =>
        extractPage(ctx.readDeps, { url, fresh: request.body.fresh === true, fields, signal, ...renderInput(request.body) }),
      );
      reply.header('X-Service-Cache', cacheHit ? 'HIT' : 'MISS');
      return {
        status: 'success' as const,
        url: result.url,
        data: result.data,
        stats: { rendered: result.rendered === true },
        ...(result.warnings?.length > 0 ? { warnings: result.warnings } : {}),
      };
    },
  );
}
