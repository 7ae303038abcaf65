import type { FastifyInstance } from 'fastify';
import { buyCreditPack, changePlan, createAccount, createKey, describeAccount, revokeKey, verifyLedger } from '../../billing/accounts.js';
import type { AppContext } from '../context.js';
import { OPERATIONS } from '../operations.js';
import { requireBearerSecret } from '../plugins/auth.js';
import { operationRoute } from '../register-operation.js';
import type { ReplyOf } from '../register-operation.js';
import { onWire } from '../wire/check.js';

/** Operator API under /admin/v1, guarded by ADMIN_TOKEN. Registered only when the token is set. */
export function registerAdminRoutes(scope: FastifyInstance, ctx: AppContext, adminToken: string): void {
  scope.addHook('onRequest', requireBearerSecret(adminToken, 'admin token'));

  operationRoute(scope, OPERATIONS.adminCreateAccount).handle(async (request, reply) => {
    const created = await createAccount(ctx, { plan: request.body.plan, name: request.body.name ?? null });
    return reply.code(201).send({
      status: 'success',
      account_id: created.account.id,
      api_key: created.apiKey,
      key_id: created.keyId,
      plan: created.account.plan,
    });
  });

  const accountAnswer = onWire<ReplyOf<typeof OPERATIONS.adminGetAccount>>();
  operationRoute(scope, OPERATIONS.adminGetAccount).handle(async (request) =>
    accountAnswer({ status: 'success', ...(await describeAccount(ctx, request.params.id)) }),
  );

  operationRoute(scope, OPERATIONS.adminChangePlan).handle(async (request) => {
    await changePlan(ctx, request.params.id, request.body.plan);
    return accountAnswer({ status: 'success', ...(await describeAccount(ctx, request.params.id)) });
  });

  operationRoute(scope, OPERATIONS.adminCreateKey).handle(async (request, reply) => {
    const { apiKey, key } = await createKey(ctx, request.params.id, request.body?.name ?? null);
    return reply.code(201).send({ status: 'success', key_id: key.id, api_key: apiKey, prefix: key.prefix });
  });

  operationRoute(scope, OPERATIONS.adminRevokeKey).handle(async (request, reply) => {
    await revokeKey(ctx, request.params.id, request.params.keyId);
    return reply.code(204).send();
  });

  operationRoute(scope, OPERATIONS.adminAddCreditPack).handle(async (request) => {
    const { balance, duplicate } = await buyCreditPack(ctx, request.params.id, request.body.pack, request.body.payment_id);
    return { status: 'success', bought_credits: { balance }, ...(duplicate ? { duplicate: true } : {}) };
  });

  operationRoute(scope, OPERATIONS.adminVerifyLedger).handle(async () => ({ status: 'success', ...(await verifyLedger(ctx)) }));
}
