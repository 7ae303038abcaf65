import type { FastifyInstance, FastifyReply } from 'fastify';
import { canonicalizeRequestUrl } from '../../fetch/url.js';
import { CACHE_TTL_SECONDS } from '../../ops/cache.js';
import type { ReadResult } from '../../ops/read.js';
import { readPage } from '../../ops/read.js';
import { readOptionsOf } from '../../ops/read-options.js';
import { routeFragment } from '../../ops/rendering.js';
import type { RenderMode } from '../../render/types.js';
import type { AppContext } from '../context.js';
import { lazyRequestSignal, rawFormat, serializeLargeAnswer } from '../context.js';
import { OPERATIONS } from '../operations.js';
import type { ReplyOf } from '../register-operation.js';
import { billedOperation } from '../register-operation.js';
import { onWire } from '../wire.js';

/** Media type of each raw answer (`Accept: text/markdown`, `text/html`, `text/plain`). */
const RAW_MEDIA_TYPE = { markdown: 'text/markdown', html: 'text/html', text: 'text/plain' } as const;

/**
 * The JSON body of a read: the spec's field table, the content under its format's name
 * (`markdown`, `html` or `text`), the lists only when asked for, `warnings` only when
 * there are some.
 */
export function readResponseBody(result: ReadResult, cacheHit: boolean): ReplyOf<typeof OPERATIONS.read> {
  return onWire<ReplyOf<typeof OPERATIONS.read>>()({
    status: 'success',
    url: result.url,
    ...contentField(result),
    ...(result.links ? { links: result.links, links_elsewhere: result.linksElsewhere ?? 0 } : {}),
    ...(result.images ? { images: result.images } : {}),
    metadata: result.metadata,
    // entries cached before `rendered` and `tokens` existed
    stats: { ...result.stats, rendered: result.stats.rendered === true, tokens: result.stats.tokens ?? 0 },
    cache: { hit: cacheHit, ttl_seconds: CACHE_TTL_SECONDS },
    ...(result.warnings.length > 0 ? { warnings: result.warnings } : {}),
  });
}

function contentField(result: ReadResult): { markdown: string } | { html: string } | { text: string } {
  if (result.format === 'html') return { html: result.content };
  if (result.format === 'text') return { text: result.content };
  return { markdown: result.content };
}

/** `X-Markdown-Tokens` (Cloudflare's name): stats.tokens of the answer, whatever its format. */
export function tokensHeader(reply: FastifyReply, result: ReadResult): void {
  reply.header('X-Markdown-Tokens', String(result.stats.tokens ?? 0));
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
