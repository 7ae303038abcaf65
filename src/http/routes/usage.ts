import type { FastifyInstance } from 'fastify';
import { usageReport } from '../../billing/accounts.js';
import type { AppContext } from '../context.js';
import { requireAccount } from '../context.js';
import { OPERATIONS } from '../operations.js';
import { operationRoute } from '../register-operation.js';
import { onWire } from '../wire/check.js';
import type { ReplyOf } from '../register-operation.js';

/** GET /v1/usage: 0 credits, no concurrency slot. */
export function registerUsageRoute(scope: FastifyInstance, ctx: AppContext): void {
  operationRoute(scope, OPERATIONS.usage).handle(async (request) => {
    const report = await usageReport(ctx, requireAccount(request));
    return onWire<ReplyOf<typeof OPERATIONS.usage>>()({ status: 'success', ...report });
  });
}
