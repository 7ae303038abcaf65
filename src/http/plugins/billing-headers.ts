import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { BillingDeps, BillingState } from '../../billing/billed-call.js';
import { REFUND_PENDING_NOTE, refundCall, settleCall } from '../../billing/billed-call.js';
import { ServiceError } from '../../errors.js';
import type { StoredResponse } from '../../store/types.js';
import { envelope } from '../error-handler.js';
import { finishIdempotentCall } from './idempotency.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Billing state of a billable call; its headers go on success and error responses alike. */
    billing: BillingState | null;
  }
}

/** Headers an Idempotency-Key replays with the stored body. */
const REPLAYED_HEADERS = [
  'content-type',
  'x-service-cache',
  'x-service-billed',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-credits-remaining',
  'x-concurrent-remaining',
] as const;

/**
 * Delivery of a billable call, on every answer that has billing state: the open charge is
 * settled as the answer goes out — in the same transaction as the answer an
 * Idempotency-Key replays — or refunded when the answer is an error or the client is gone.
 * A settle the store refuses turns the answer into a 503 (refunded): a call is never
 * delivered without its charge being closed. Then the spec's billing headers are written.
 */
export function registerBillingHeaders(app: FastifyInstance, deps: BillingDeps): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const state = request.billing;
    if (!state) {
      if (request.idempotencyKey === null) return done(null, payload);
      // failed before billing began (a bad URL): the key keeps that answer
      finishIdempotentCall(deps, request, reply.statusCode, () => captured(reply, payload)).then(
        () => done(null, payload),
        (err: unknown) => done(err as Error),
      );
      return;
    }
    if (state.pending === null && request.idempotencyKey === null) {
      writeBillingHeaders(reply, state);
      return done(null, payload);
    }
    deliver(deps, request, reply, state, payload).then(
      (out) => done(null, out),
      (err: unknown) => done(err as Error),
    );
  });
}

async function deliver(
  deps: BillingDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  state: BillingState,
  payload: unknown,
): Promise<unknown> {
  const key = request.idempotencyKey;
  let out = payload;
  let stored = false;
  if (state.pending !== null) {
    const clientGone = reply.raw.destroyed || request.raw.socket?.destroyed === true;
    if (reply.statusCode < 400 && !clientGone) {
      writeBillingHeaders(reply, state);
      try {
        await settleCall(deps, state, key !== null ? { key, response: captured(reply, payload) } : undefined);
        stored = key !== null;
      } catch (err) {
        request.log.error({ err }, 'settle failed: the answer is withheld and the charge refunded');
        const refunded = await refundCall(deps, state);
        const message = `the answer could not be delivered: the billing store is unavailable${refunded ? '; nothing was charged' : ` (${REFUND_PENDING_NOTE})`}`;
        const error = new ServiceError('SERVICE_UNAVAILABLE', message, { retry_after: 1, ...(refunded ? {} : { refund_pending: true }) });
        reply.code(error.status).type('application/json; charset=utf-8').header('Retry-After', '1').removeHeader('X-Service-Cache');
        out = JSON.stringify(envelope(request.id, error.code, error.message, error.fields));
      }
    } else {
      await refundCall(deps, state);
    }
  }
  writeBillingHeaders(reply, state);
  if (key !== null && !stored) await finishIdempotentCall(deps, request, reply.statusCode, () => captured(reply, out));
  return out;
}

/** The answer as an Idempotency-Key replays it. */
function captured(reply: FastifyReply, payload: unknown): StoredResponse {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
  return { status: reply.statusCode, headers, body };
}

/**
 * The billing headers this hook writes. openapi.ts declares each of them from this list
 * (a header written here but not declared there does not compile).
 */
export const BILLING_HEADER_NAMES = [
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-Service-Billed',
  'X-Credits-Remaining',
  'X-Concurrent-Remaining',
  'X-Refund-Pending',
] as const;
export type BillingHeaderName = (typeof BILLING_HEADER_NAMES)[number];

function writeBillingHeaders(reply: FastifyReply, state: BillingState): void {
  const set = (name: BillingHeaderName, value: string | null): void => {
    if (value !== null) reply.header(name, value);
    else reply.removeHeader(name);
  };
  if (state.planRemaining !== null) set('X-RateLimit-Remaining', String(state.planRemaining));
  set('X-RateLimit-Reset', state.resetAt);
  set('X-Service-Billed', state.billed);
  set('X-Credits-Remaining', state.billed === 'credit' && state.creditsRemaining !== null ? String(state.creditsRemaining) : null);
  if (state.concurrentRemaining !== null) set('X-Concurrent-Remaining', String(state.concurrentRemaining));
  if (state.refundPending) set('X-Refund-Pending', 'true');
}
