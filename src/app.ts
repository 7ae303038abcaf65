import { setMaxListeners } from 'node:events';
import type { Writable } from 'node:stream';
import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pino from 'pino';
import { createIdFactory } from './billing/ids.js';
import type { Config } from './config.js';
import { ServiceError } from './errors.js';
import type { ConvertOptions } from './convert/index.js';
import type { JobRunner } from './convert/workers/jobs.js';
import type { MemoryBudget } from './fetch/memory-budget.js';
import type { Fetcher } from './fetch/types.js';
import type { Renderer } from './render/types.js';
import type { AppContext } from './http/context.js';
import { registerErrorHandling, sendError } from './http/error-handler.js';
import { registerApiKeyAuth } from './http/plugins/auth.js';
import { registerBillingHeaders } from './http/plugins/billing-headers.js';
import { registerIdempotency } from './http/plugins/idempotency.js';
import { RouteTable } from './http/route-table.js';
import { registerDocsRoutes } from './http/routes/docs.js';
import { registerMcpRoute } from './http/routes/mcp.js';
import { registerPlaygroundRoutes } from './http/routes/playground.js';
import { registerMetrics } from './http/routes/metrics.js';
import { createMetrics } from './metrics/metrics.js';
import { registerAdminRoutes } from './http/routes/admin.js';
import { registerBatchRoute } from './http/routes/batch.js';
import { registerExtractRoute } from './http/routes/extract.js';
import { registerMapRoute } from './http/routes/map.js';
import { registerReadAndScoreRoute } from './http/routes/read-and-score.js';
import { registerReadRoute } from './http/routes/read.js';
import { registerScoreRoute } from './http/routes/score.js';
import { registerServiceRoutes } from './http/routes/service.js';
import { registerUsageRoute } from './http/routes/usage.js';
import type { Stores } from './store/types.js';

/** Everything with side effects comes in here; nothing module-level (STYLE "Dependencies"). */
export interface Deps {
  stores: Stores;
  fetcher: Fetcher;
  /** Converter options, e.g. the PDF worker pool server.ts owns. */
  convert?: ConvertOptions;
  /** Where CPU work on content runs (server.ts: the worker pool); in-process when absent. */
  runner?: JobRunner;
  /** The instance's budget for fetched bodies in memory (server.ts); unbounded when absent. */
  memory?: MemoryBudget;
  /** The headless browser for `render` (server.ts owns it); rendering is off when absent or null. */
  renderer?: Renderer | null;
  /** Tests only: a shorter call deadline / byte cap for renders (default the fetcher's 15 s and 10 MB). */
  renderLimits?: { totalTimeoutMs?: number; maxBytes?: number };
  now: () => number;
  randomBytes: (n: number) => Buffer;
  /** Where logs go (tests pass a sink); stdout when absent. */
  logStream?: Writable;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The injected clock. */
    now: () => number;
    /** Every registered route (for the OpenAPI check and the 405 answer). */
    routeTable: RouteTable;
    /** Aborts work in flight; called by server.ts when the drain grace period runs out. */
    abortInFlight: (reason?: unknown) => void;
  }
}

/** Request bodies are small JSON documents; anything bigger is refused before parsing. */
export const BODY_LIMIT_BYTES = 64 * 1024;
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,64}$/;

export async function buildApp(config: Config, deps: Deps): Promise<FastifyInstance> {
  const logger: FastifyBaseLogger = pino(
    {
      level: config.logLevel,
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'api_key', '*.api_key', 'apiKey', '*.apiKey'],
        censor: '[redacted]',
      },
    },
    deps.logStream ?? process.stdout,
  );
  const newId = createIdFactory(deps.randomBytes);
  const app = Fastify({
    loggerInstance: logger,
    bodyLimit: BODY_LIMIT_BYTES,
    // Echo a caller's safe X-Request-Id for tracing; otherwise mint one.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : newId('req');
    },
    return503OnClosing: false,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: true, useDefaults: true, allErrors: false } },
  });

  const shutdown = new AbortController();
  // every request in flight listens for shutdown; that is not a leak
  setMaxListeners(0, shutdown.signal);
  const routes = new RouteTable();
  const metrics = createMetrics();
  const ctx: AppContext = {
    config,
    stores: deps.stores,
    fetcher: deps.fetcher,
    now: deps.now,
    randomBytes: deps.randomBytes,
    billing: {
      stores: deps.stores,
      now: deps.now,
      newId,
      logger: app.log,
      onEvent: metrics.onBillingEvent,
    },
    readDeps: {
      fetcher: deps.fetcher,
      cache: deps.stores.cache,
      engineVersion: config.engineVersion,
      now: deps.now,
      ...(deps.convert ? { convert: deps.convert } : {}),
      ...(deps.runner ? { runner: deps.runner } : {}),
      ...(deps.memory ? { memory: deps.memory } : {}),
      render: {
        renderer: deps.renderer ?? null,
        onEvent: metrics.onRenderEvent,
        ...(deps.renderLimits ? { limits: deps.renderLimits } : {}),
      },
    },
    shutdownSignal: shutdown.signal,
  };

  app.decorate('now', deps.now);
  app.decorate('routeTable', routes);
  app.decorate('abortInFlight', (reason?: unknown) =>
    shutdown.abort(reason ?? new ServiceError('SERVICE_UNAVAILABLE', 'the server is shutting down')),
  );
  app.decorateRequest('account', null);
  app.decorateRequest('billing', null);
  app.decorateRequest('idempotencyKey', null);
  app.addHook('onRoute', (route) => routes.add(route.url, route.method));

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Hooks on every request use the callback form: an async hook costs a promise and a
  // microtask per request (measured in bench/server.ts).
  // While draining, answers close their connection so keep-alive clients do not hold the close open.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('Connection', 'close');
    done(null, payload);
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    // answering from the hook ends the request: done() must not be called then
    if (closing) sendError(request, reply, new ServiceError('SERVICE_UNAVAILABLE', 'the server is shutting down'));
    else done();
  });
  registerBillingHeaders(app, ctx.billing);
  registerErrorHandling(app, (path) => routes.allowedMethods(path));
  registerMetrics(app, metrics, config.metricsToken);

  registerServiceRoutes(app, deps.stores, config.engineVersion);

  await app.register(
    async (v1) => {
      registerApiKeyAuth(v1, deps.stores);
      registerIdempotency(v1, deps.stores, deps.now);
      registerReadRoute(v1, ctx);
      registerBatchRoute(v1, ctx);
      registerScoreRoute(v1, ctx);
      registerReadAndScoreRoute(v1, ctx);
      registerExtractRoute(v1, ctx);
      registerMapRoute(v1, ctx);
      registerUsageRoute(v1, ctx);
    },
    { prefix: '/v1' },
  );
  await registerMcpRoute(app, ctx);
  registerDocsRoutes(app);
  registerPlaygroundRoutes(app);

  if (config.adminToken !== null) {
    const adminToken = config.adminToken;
    await app.register(async (admin) => registerAdminRoutes(admin, ctx, adminToken), { prefix: '/admin/v1' });
  }

  return app;
}
