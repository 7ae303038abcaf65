import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Metrics } from '../../metrics/metrics.js';
import { requireBearerSecret } from '../plugins/auth.js';
import { OPERATIONS } from '../operations.js';
import { operationRoute } from '../register-operation.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Error code of the answer, seen in onSend; null for a success. */
    answerCode: string | null;
  }
}

const ERROR_CODE_IN_BODY = /"code"\s*:\s*"([A-Z_]+)"/;

/** The operation a route serves, as a metrics label: `/v1/read-and-score` → `read-and-score`. */
function operationLabel(request: FastifyRequest): string | null {
  const url = request.routeOptions.url;
  if (url === undefined) return null; // 404s: no route, not an operation
  if (url.startsWith('/v1/')) return url.slice(4);
  if (url === '/mcp') return 'mcp';
  return null;
}

/**
 * Adds request metrics for every /v1 operation and /mcp, and GET /metrics (Prometheus text
 * format). With `token` (METRICS_TOKEN) it answers only that Bearer token; without, it is
 * open like /healthz: expose it only where Prometheus can reach it.
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string | null): void {
  app.decorateRequest('answerCode', null);
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode >= 400 && typeof payload === 'string') {
      request.answerCode = ERROR_CODE_IN_BODY.exec(payload)?.[1] ?? `HTTP_${reply.statusCode}`;
    }
    done(null, payload);
  });
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done) => {
    const op = operationLabel(request);
    if (op !== null) {
      const cacheHeader = reply.getHeader('x-service-cache');
      metrics.observeRequest({
        op,
        code: request.answerCode ?? (reply.statusCode >= 400 ? `HTTP_${reply.statusCode}` : 'OK'),
        seconds: reply.elapsedTime / 1000,
        cache: cacheHeader === 'HIT' || cacheHeader === 'MISS' ? cacheHeader : null,
      });
    }
    done();
  });
  operationRoute(app, OPERATIONS.metrics).handle(
    async (_request, reply) => {
      const text = await metrics.registry.metrics();
      return reply.type(metrics.registry.contentType).send(text);
    },
    token === null ? {} : { onRequest: requireBearerSecret(token, 'metrics token') },
  );
}
