import type { FastifyRequest } from 'fastify';
import type { ChargeHandle } from '../../billing/billed-call.js';
import { initialBillingState, withBilling } from '../../billing/billed-call.js';
import type { AppContext } from '../context.js';
import { requireAccount } from '../context.js';

/** What the registry puts in a billed route's config (register-operation.ts routeOf). */
export interface RouteBilling {
  credits: number;
  per: 'call' | 'url';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The registry's operationId of the route. */
    operation?: string;
    /** The registry key the ledger and metrics name the operation by (`read-and-score`). */
    ledgerName?: string;
    /** Present on billed operations: what one call costs. */
    cost?: RouteBilling;
    /** Takes an Idempotency-Key (plugins/idempotency.ts). */
    idempotent?: boolean;
  }
}

/** Credits of this call: per call, or per URL of a batch body. */
export function callCost(cost: RouteBilling, body: unknown): number {
  if (cost.per === 'call') return cost.credits;
  const urls = (body as { urls?: unknown } | null)?.urls;
  return cost.credits * (Array.isArray(urls) ? urls.length : 0);
}

/**
 * Runs billable work with the billing order of DESIGN §4, operation and cost read from the
 * route config the registry wrote, and exposes its state to the billing-headers hook.
 */
export async function billedCall<T>(ctx: AppContext, request: FastifyRequest, work: (charge: ChargeHandle) => Promise<T>): Promise<T> {
  const { cost, ledgerName } = request.routeOptions.config;
  if (!cost || !ledgerName) throw new Error(`route ${request.routeOptions.url} has no cost in its config`);
  const account = requireAccount(request);
  const state = initialBillingState(ctx.now());
  request.billing = state;
  return withBilling(ctx.billing, { account, operation: ledgerName, cost: callCost(cost, request.body), state }, work);
}
