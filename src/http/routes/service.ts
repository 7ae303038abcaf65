import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../../errors.js';
import type { Stores } from '../../store/types.js';
import { buildOpenApiDocument } from '../openapi.js';
import { OPERATIONS } from '../operations.js';
import { operationRoute } from '../register-operation.js';

/** GET /healthz, /readyz (the stores answer) and /openapi.json (built once per process). */
export function registerServiceRoutes(app: FastifyInstance, stores: Stores, version: string): void {
  operationRoute(app, OPERATIONS.healthz).handle(async () => ({ status: 'success', healthy: true }));
  operationRoute(app, OPERATIONS.readyz).handle(async () => {
    await stores.ping().catch((err: unknown) => {
      throw new ServiceError('SERVICE_UNAVAILABLE', 'a backing store is unreachable', {}, { cause: err });
    });
    return { status: 'success', ready: true };
  });
  const openApi = buildOpenApiDocument({ version });
  operationRoute(app, OPERATIONS.openapi).handle(async (_request, reply) => reply.send(openApi));
}
