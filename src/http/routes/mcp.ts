import type { FastifyInstance } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { PithBackend } from '../../mcp/tools.js';
import { PithToolError, billingFromHeaderMap, createPithMcpServer } from '../../mcp/tools.js';
import type { AppContext } from '../context.js';
import { MCP_IDEMPOTENCY_KEY_MAX, isIdempotencyKey } from '../idempotency-key.js';
import { registerApiKeyAuth } from '../plugins/auth.js';
import { OPERATIONS } from '../operations.js';
import { operationRoute } from '../register-operation.js';

/**
 * Tool calls run the REST route itself through `app.inject` with the caller's key: the same
 * validation, slot, charge, cache, refund and headers as a REST call, and nothing to keep in
 * sync. Inner request ids are `<mcp request id>.<n>`, so logs tie them to the MCP call.
 */
function injectBackend(app: FastifyInstance, authorization: string, requestId: string, idempotencyKey: string | null): PithBackend {
  let n = 0;
  return {
    async call(op, body) {
      const route = OPERATIONS[op];
      n++;
      const res = await app.inject({
        method: route.method,
        url: route.path,
        headers: {
          authorization,
          'x-request-id': `${requestId}.${n}`,
          // a retried POST /mcp with its Idempotency-Key replays each tool call instead of charging again
          ...(idempotencyKey ? { 'idempotency-key': `${idempotencyKey}.${n}` } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { payload: JSON.stringify(body) } : {}),
      });
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
      const parsed = (() => {
        try {
          return res.json() as Record<string, unknown>;
        } catch {
          return {};
        }
      })();
      if (res.statusCode >= 400) {
        const { status: _s, code, message, request_id, ...fields } = parsed;
        throw new PithToolError(
          typeof code === 'string' ? code : 'INTERNAL_ERROR',
          typeof message === 'string' ? message : `HTTP ${res.statusCode}`,
          res.statusCode,
          typeof request_id === 'string' ? request_id : null,
          fields,
        );
      }
      return { data: parsed, billing: billingFromHeaderMap(headers) };
    },
  };
}

/**
 * POST /mcp: MCP over streamable HTTP (stateless: one server per request, JSON answers),
 * Bearer API key like /v1. GET and DELETE (SSE streams, sessions) answer 405.
 */
export async function registerMcpRoute(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    registerApiKeyAuth(scope, ctx.stores);
    operationRoute(scope, OPERATIONS.mcp).handle(async (request, reply) => {
      const outerKey = request.headers['idempotency-key'];
      const key = typeof outerKey === 'string' && isIdempotencyKey(outerKey, MCP_IDEMPOTENCY_KEY_MAX) ? outerKey : null;
      const backend = injectBackend(app, request.headers.authorization ?? '', request.id, key);
      const server = createPithMcpServer(backend, { version: ctx.config.engineVersion });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      reply.hijack();
      reply.raw.setHeader('X-Request-Id', request.id);
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(request.raw, reply.raw, request.body);
      } catch (err) {
        // The reply is hijacked: the root error handler cannot answer, so answer here.
        request.log.error({ err }, 'MCP request failed');
        if (!reply.raw.headersSent) {
          reply.raw.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
          reply.raw.end(JSON.stringify({ status: 'error', code: 'INTERNAL_ERROR', message: 'internal error', request_id: request.id }));
        } else {
          reply.raw.end();
        }
      }
    });
  });
}
