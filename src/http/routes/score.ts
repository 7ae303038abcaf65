import type { FastifyInstance } from 'fastify';
import { canonicalizeRequestUrl } from '../../fetch/url.js';
import { scoreUrl } from '../../ops/score.js';
import type { AppContext } from '../context.js';
import { requestSignal } from '../context.js';
import { OPERATIONS } from '../operations.js';
import { billedOperation } from '../register-operation.js';
import { scoreResponseBody } from '../wire/score.js';

/** POST /v1/score: never cached (no X-Service-Cache), but holds a concurrency slot. */
export function registerScoreRoute(scope: FastifyInstance, ctx: AppContext): void {
  billedOperation(scope, ctx, OPERATIONS.score)
    .prepare((request, reply) => ({
      url: canonicalizeRequestUrl(request.body.url, { allowPrivateTargets: ctx.config.allowPrivateTargets }),
      signal: requestSignal(ctx, reply),
    }))
    .run(async ({ url, signal }) => {
      return scoreResponseBody(await scoreUrl(ctx.readDeps, { url, signal }));
    });
}
