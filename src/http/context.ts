import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BillingDeps } from '../billing/billed-call.js';
import type { Config } from '../config.js';
import { ServiceError } from '../errors.js';
import type { OutputFormat } from '../convert/types.js';
import type { Fetcher } from '../fetch/types.js';
import type { ReadDeps } from '../ops/read.js';
import type { Account, Stores } from '../store/types.js';

/** What every route needs; built once in buildApp. */
export interface AppContext {
  config: Config;
  stores: Stores;
  fetcher: Fetcher;
  now: () => number;
  randomBytes: (n: number) => Buffer;
  billing: BillingDeps;
  /** Fetcher, cache, engine version, clock and converter options of every reading operation. */
  readDeps: ReadDeps;
  /** Aborted when the server shuts down past its grace period. */
  shutdownSignal: AbortSignal;
}

export function requireAccount(request: FastifyRequest): Account {
  if (!request.account) throw new ServiceError('UNAUTHORIZED');
  return request.account;
}

/**
 * An AbortSignal that fires when the client goes away before the answer is sent, or when
 * the server shuts down; work in flight stops and its charge is refunded.
 */
export function requestSignal(ctx: AppContext, reply: FastifyReply): AbortSignal {
  return lazyRequestSignal(ctx, reply)();
}

/**
 * `requestSignal`, opened on first use: a cache hit never needs one, and building an
 * AbortController plus its listeners was a measurable share of a cache hit's time.
 */
export function lazyRequestSignal(ctx: AppContext, reply: FastifyReply): () => AbortSignal {
  let controller: AbortController | null = null;
  let clientGone: ServiceError | null = null;
  const shutdown = ctx.shutdownSignal;
  const onShutdown = (): void => controller?.abort(shutdown.reason);
  reply.raw.once('close', () => {
    shutdown.removeEventListener('abort', onShutdown);
    if (reply.raw.writableFinished) return;
    clientGone = new ServiceError('BAD_REQUEST', 'the client closed the connection');
    controller?.abort(clientGone);
  });
  return () => {
    if (controller) return controller.signal;
    // One plain controller per request instead of AbortSignal.any(), whose dependent
    // signals stay attached to the long-lived shutdown signal on Node 20.
    controller = new AbortController();
    if (clientGone) controller.abort(clientGone);
    else if (shutdown.aborted) controller.abort(shutdown.reason);
    else shutdown.addEventListener('abort', onShutdown, { once: true });
    return controller.signal;
  };
}

/** Above this much Markdown in an answer, V8's own JSON.stringify serialises it. */
const LARGE_ANSWER_CHARS = 256 * 1024;

/**
 * The schema-compiled serializer escapes strings in a JavaScript loop: on an answer with
 * MBs of Markdown that holds the event loop for 50-100 ms, where JSON.stringify takes a
 * fraction. The answers are built field by field for the wire (readResponseBody), so both
 * give the same JSON.
 */
export function serializeLargeAnswer(reply: FastifyReply, markdownChars: number): void {
  if (markdownChars > LARGE_ANSWER_CHARS) reply.serializer((payload: unknown) => JSON.stringify(payload));
}

/** Raw media types a read answers with instead of JSON, and the content format each carries. */
const RAW_TYPES: ReadonlyArray<readonly [string, OutputFormat]> = [
  ['text/markdown', 'markdown'],
  ['text/html', 'html'],
  ['text/plain', 'text'],
];

/**
 * The raw content format the client asked for with `Accept` over JSON, or null for JSON.
 * `text/markdown` wins a tie with `application/json` (as it always has); `text/html` and
 * `text/plain` must be preferred strictly, so the `application/json, text/plain, *\/*` of
 * common HTTP clients (axios) still gets JSON.
 */
export function rawFormat(request: FastifyRequest): OutputFormat | null {
  const accept = request.headers.accept;
  if (!accept) return null;
  const q = new Map<string, number>();
  for (const part of accept.split(',')) {
    const [rawType, ...params] = part.trim().toLowerCase().split(';');
    const quality = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = quality ? Number(quality.slice(2)) : 1;
    const type = (rawType ?? '').trim();
    q.set(type, Math.max(q.get(type) ?? -1, Number.isFinite(weight) ? weight : 0));
  }
  const jsonQ = q.get('application/json') ?? -1;
  let best: OutputFormat | null = null;
  let bestQ = 0;
  for (const [type, format] of RAW_TYPES) {
    const typeQ = q.get(type) ?? -1;
    const beatsJson = format === 'markdown' ? typeQ >= jsonQ : typeQ > jsonQ;
    if (typeQ > bestQ && beatsJson) {
      best = format;
      bestQ = typeQ;
    }
  }
  return best;
}

/** True when the client asked for raw Markdown (`Accept: text/markdown`) over JSON. */
export function wantsMarkdown(request: FastifyRequest): boolean {
  return rawFormat(request) === 'markdown';
}
