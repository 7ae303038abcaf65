import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hashApiKey, looksLikeApiKey } from '../../billing/api-keys.js';
import { ServiceError } from '../../errors.js';
import type { Account, Stores } from '../../store/types.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated account; set by the auth hook of the /v1 scope. */
    account: Account | null;
  }
}

/** Pulls the key out of `Authorization: Bearer <key>`; any other form is UNAUTHORIZED. */
export function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (header === undefined || header === '')
    throw new ServiceError('UNAUTHORIZED', 'missing Authorization header; send "Authorization: Bearer <API key>"');
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!match?.[1]) throw new ServiceError('UNAUTHORIZED', 'the Authorization header must be "Bearer <API key>"');
  return match[1];
}

/** Adds API-key authentication to every route of `scope` (onRequest: before body parsing). */
export function registerApiKeyAuth(scope: FastifyInstance, stores: Stores): void {
  scope.addHook('onRequest', async (request) => {
    const key = bearerToken(request);
    if (!looksLikeApiKey(key)) throw new ServiceError('UNAUTHORIZED', 'invalid API key');
    const found = await stores.accounts.findByKeyHash(hashApiKey(key));
    if (!found) throw new ServiceError('UNAUTHORIZED', 'invalid or revoked API key');
    request.account = found.account;
  });
}

const sha256 = (s: string): Buffer => createHash('sha256').update(s).digest();

/**
 * An onRequest hook that admits only `Authorization: Bearer <secret>` (operator tokens:
 * ADMIN_TOKEN, METRICS_TOKEN). Digests are compared, so the check is constant-time
 * whatever the lengths.
 */
export function requireBearerSecret(secret: string, what: string): (request: FastifyRequest) => Promise<void> {
  const expected = sha256(secret);
  return async (request) => {
    if (!timingSafeEqual(sha256(bearerToken(request)), expected)) throw new ServiceError('UNAUTHORIZED', `invalid ${what}`);
  };
}
