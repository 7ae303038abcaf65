import type { FastifyInstance } from 'fastify';
import { usageReport } from '../../billing/accounts.js';
import type { AppContext } from '../context.js';
import { requireAccount } from '../context.js';
import { OPERATIONS } from '../operations.js';
import { operationRoute } from '../register-operation.js';
import { usageResponseBody } from '../wire/accounts.js';

/** GET /v1/usage: 0 credits, no concurrency slot. */
export function registerUsageRoute(scope: FastifyInstance, ctx: AppContext): void {
  operationRoute(scope, OPERATIONS.usage).handle(async (request) => {
    return usageResponseBody(await usageReport(ctx, requireAccount(request)));
  });
}
