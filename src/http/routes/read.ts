import type { FastifyInstance, FastifyReply } from 'fastify';
import { canonicalizeRequestUrl } from '../../fetch/url.js';
import type { ReadResult } from '../../ops/read.js';
import { readPage } from '../../ops/read.js';
import { readOptionsOf } from '../wire/read-options.js';
import { routeFragment } from '../../ops/rendering.js';
import type { RenderMode } from '../../render/types.js';
import type { AppContext } from '../context.js';
import { lazyRequestSignal, rawFormat, serializeLargeAnswer } from '../context.js';
import { OPERATIONS } from '../operations.js';
import { billedOperation } from '../register-operation.js';
import { readResponseBody } from '../wire/read.js';

/** Media type of each raw answer (`Accept: text/markdown`, `text/html`, `text/plain`). */
const RAW_MEDIA_TYPE = { markdown: 'text/markdown', html: 'text/html', text: 'text/plain' } as const;

/** `X-Markdown-Tokens` (Cloudflare's name): stats.tokens of the answer, whatever its format. */
export function tokensHeader(reply: FastifyReply, result: ReadResult): void {
  reply.header('X-Markdown-Tokens', String(result.stats.tokens));
}

export function registerReadRoute(scope: FastifyInstance, ctx: AppContext): void {
  billedOperation(scope, ctx, OPERATIONS.read)
    .prepare((request, reply) => {
      const raw = rawFormat(request);
      return {
        url: canonicalizeRequestUrl(request.body.url, { allowPrivateTargets: ctx.config.allowPrivateTargets }),
        // an Accept header for a raw answer names its format, whatever `format` says
        options: readOptionsOf(request.body, raw ?? undefined),
        raw,
        signal: lazyRequestSignal(ctx, reply),
      };
    })
    .run(async ({ url, options, raw, signal }, { request, reply }) => {
      const { result, cacheHit } = await readPage(ctx.readDeps, {
        url,
        fresh: request.body.fresh,
        signal,
        options,
        ...renderInput(request.body),
      });
      reply.header('X-Service-Cache', cacheHit ? 'HIT' : 'MISS');
      tokensHeader(reply, result);
      if (raw) return reply.type(`${RAW_MEDIA_TYPE[raw]}; charset=utf-8`).send(result.content);
      serializeLargeAnswer(reply, result.content.length);
      return readResponseBody(result, cacheHit);
    });
}

/** `render` and the client-side route fragment of a request body, as the ops take them. */
export function renderInput(body: { url: string; render?: RenderMode }): { render: RenderMode; fragment?: string } {
  const fragment = routeFragment(body.url);
  return { render: body.render ?? 'auto', ...(fragment ? { fragment } : {}) };
}
