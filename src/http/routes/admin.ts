import type { FastifyInstance } from 'fastify';
import { buyCreditPack, changePlan, createAccount, createKey, describeAccount, revokeKey, verifyLedger } from '../../billing/accounts.js';
import type { AppContext } from '../context.js';
import { OPERATIONS } from '../operations.js';
import { requireBearerSecret } from '../plugins/auth.js';
import { operationRoute } from '../register-operation.js';
import { accountCreatedBody, accountResponseBody, creditPackBody, keyCreatedBody, ledgerResponseBody } from '../wire/accounts.js';

/** Operator API under /admin/v1, guarded by ADMIN_TOKEN. Registered only when the token is set. */
export function registerAdminRoutes(scope: FastifyInstance, ctx: AppContext, adminToken: string): void {
  scope.addHook('onRequest', requireBearerSecret(adminToken, 'admin token'));

  operationRoute(scope, OPERATIONS.adminCreateAccount).handle(async (request, reply) => {
    const created = await createAccount(ctx, { plan: request.body.plan, name: request.body.name ?? null });
    return reply.code(201).send(accountCreatedBody(created));
  });

  operationRoute(scope, OPERATIONS.adminGetAccount).handle(async (request) =>
    accountResponseBody(await describeAccount(ctx, request.params.id)),
  );

  operationRoute(scope, OPERATIONS.adminChangePlan).handle(async (request) => {
    await changePlan(ctx, request.params.id, request.body.plan);
    return accountResponseBody(await describeAccount(ctx, request.params.id));
  });

  operationRoute(scope, OPERATIONS.adminCreateKey).handle(async (request, reply) => {
    const created = await createKey(ctx, request.params.id, request.body?.name ?? null);
    return reply.code(201).send(keyCreatedBody(created));
  });

  operationRoute(scope, OPERATIONS.adminRevokeKey).handle(async (request, reply) => {
    await revokeKey(ctx, request.params.id, request.params.keyId);
    return reply.code(204).send();
  });

  operationRoute(scope, OPERATIONS.adminAddCreditPack).handle(async (request) =>
    creditPackBody(await buyCreditPack(ctx, request.params.id, request.body.pack, request.body.payment_id)),
  );

  operationRoute(scope, OPERATIONS.adminVerifyLedger).handle(async () => ledgerResponseBody(await verifyLedger(ctx)));
}
