import type { FastifyInstance } from 'fastify';
import { canonicalizeRequestUrl } from '../../fetch/url.js';
import { compileFields } from '../../ops/extract-data.js';
import { extractPage } from '../../ops/extract.js';
import type { AppContext } from '../context.js';
import { requestSignal } from '../context.js';
import { OPERATIONS } from '../operations.js';
import { billedOperation } from '../register-operation.js';
import { extractResponseBody } from '../wire/extract.js';
import { renderInput } from './read.js';

/** POST /v1/extract: cached 1 h (per URL and field specs), `fresh` honoured. */
export function registerExtractRoute(scope: FastifyInstance, ctx: AppContext): void {
  billedOperation(scope, ctx, OPERATIONS.extract)
    .prepare((request, reply) => ({
      url: canonicalizeRequestUrl(request.body.url, { allowPrivateTargets: ctx.config.allowPrivateTargets }),
      fields: compileFields(request.body.fields), // bad selectors: BAD_REQUEST before any charge
      signal: requestSignal(ctx, reply),
    }))
    .run(async ({ url, fields, signal }, { request, reply }) => {
      const { result, cacheHit } = await extractPage(ctx.readDeps, {
        url,
        fresh: request.body.fresh,
        fields,
        signal,
        ...renderInput(request.body),
      });
      reply.header('X-Service-Cache', cacheHit ? 'HIT' : 'MISS');
      return extractResponseBody(result);
    });
}
