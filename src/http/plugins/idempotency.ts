import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError } from '../../errors.js';
import type { StoredResponse, Stores } from '../../store/types.js';
import { rawFormat } from '../context.js';
import { IDEMPOTENCY_KEY_MAX, isIdempotencyKey } from '../idempotency-key.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The Idempotency-Key this request claimed; null without one. */
    idempotencyKey: string | null;
  }
}

/** A key's answer is replayed for 24 h after its first use. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
/**
 * A claim whose instance died (no answer after this long) may be taken over. Longer than
 * the sweep threshold, so the dead call's charge is refunded before its key runs again.
 */
export const IDEMPOTENCY_STALE_MS = 20 * 60_000;

/**
 * `Idempotency-Key` on billable POSTs (Stripe's model): the first request with a key runs
 * and its answer is stored with its charge's settle; the same key with the same request
 * within 24 h gets that answer again, charged once. The same key with another request, or
 * while the first still runs, is 409 IDEMPOTENCY_CONFLICT. Refusals that ran nothing
 * (quota, concurrency, a busy or unreachable store) are not stored, so a retry runs anew.
 */
export function registerIdempotency(scope: FastifyInstance, stores: Stores, now: () => number): void {
  scope.addHook('preHandler', async (request, reply) => {
    const header = request.headers['idempotency-key'];
    // the operation registry marks which operations take a key (src/http/operations.ts `idempotent`)
    if (header === undefined || request.routeOptions.config.idempotent !== true) return;
    const key = Array.isArray(header) ? header[0] : header;
    if (key === undefined || !isIdempotencyKey(key)) {
      throw new ServiceError('BAD_REQUEST', `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters`);
    }
    const account = request.account;
    if (!account) return;
    const claim = await stores.idempotency.claim({
      accountId: account.id,
      key,
      fingerprint: fingerprint(request),
      now: now(),
      expiresAfterMs: IDEMPOTENCY_TTL_MS,
      staleAfterMs: IDEMPOTENCY_STALE_MS,
    });
    switch (claim.state) {
      case 'claimed':
        request.idempotencyKey = key;
        return;
      case 'done':
        for (const [name, value] of Object.entries(claim.response.headers)) reply.header(name, value);
        reply.header('Idempotent-Replayed', 'true');
        return reply.code(claim.response.status).send(claim.response.body);
      case 'in_progress':
        throw new ServiceError('IDEMPOTENCY_CONFLICT', 'a request with this Idempotency-Key is still running; retry shortly', {
          retry_after: 1,
        });
      case 'mismatch':
        throw new ServiceError('IDEMPOTENCY_CONFLICT', 'this Idempotency-Key was used with another request; use a new key');
    }
  });
}

/** What makes two requests "the same": route, answer format and the validated body. */
function fingerprint(request: FastifyRequest): string {
  const format = rawFormat(request) ?? 'json';
  return createHash('sha256')
    .update(`${request.method} ${request.routeOptions.url ?? ''} ${format}\n${canonicalJson(request.body)}`)
    .digest('hex');
}

/** JSON with object keys sorted, so key order in the body does not change the fingerprint. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Answers that ran nothing, or failed for a passing reason, are not kept: 429 (quota,
 * concurrency), 402, 503 (busy, store unavailable). Everything else is the key's answer.
 */
function isKeptAnswer(status: number): boolean {
  return status !== 429 && status !== 402 && status !== 503;
}

/** Stores the claimed key's answer when its settle did not, or forgets the claim. */
export async function finishIdempotentCall(
  { stores, now }: { stores: Stores; now: () => number },
  request: FastifyRequest,
  status: number,
  response: () => StoredResponse,
): Promise<void> {
  const key = request.idempotencyKey;
  const account = request.account;
  if (key === null || !account) return;
  try {
    if (isKeptAnswer(status)) await stores.idempotency.complete({ accountId: account.id, key, response: response(), now: now() });
    else await stores.idempotency.release({ accountId: account.id, key });
  } catch (err) {
    // the claim goes stale and may be run again later; its charge (if any) was already closed
    request.log.error({ err, key }, 'could not finish an Idempotency-Key');
  }
}
