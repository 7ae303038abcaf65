import type { FastifyInstance } from 'fastify';
import type { BillingState } from '../../billing/billed-call.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Billing state of a billable call; its headers go on success and error responses alike. */
    billing: BillingState | null;
  }
}

/** Writes the spec's billing headers from `request.billing` on every response that has one. */
export function registerBillingHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const state = request.billing;
    if (!state) return done(null, payload);
    if (state.planRemaining !== null) reply.header('X-RateLimit-Remaining', String(state.planRemaining));
    reply.header('X-RateLimit-Reset', state.resetAt);
    if (state.billed !== null) reply.header('X-Service-Billed', state.billed);
    if (state.billed === 'credit' && state.creditsRemaining !== null) {
      reply.header('X-Credits-Remaining', String(state.creditsRemaining));
    }
    if (state.concurrentRemaining !== null) reply.header('X-Concurrent-Remaining', String(state.concurrentRemaining));
    done(null, payload);
  });
}
