import type { FastifyInstance } from 'fastify';
import { usageReport } from '../../billing/accounts.js';
import type { AppContext } from '../context.js';
import { requireAccount } from '../context.js';
import { errorEnvelopeSchema, usageResponseSchema } from '../schemas.js';

/** GET /v1/usage: 0 credits, no concurrency slot. */
export function registerUsageRoute(scope: FastifyInstance, ctx: AppContext): void {
  scope.get('/usage', { schema: { response: { 200: usageResponseSchema, '4xx': errorEnvelopeSchema } } }, async (request) => {
    const report = await usageReport(ctx, requireAccount(request));
    return { status: 'success' as const, ...report };
  });
}
