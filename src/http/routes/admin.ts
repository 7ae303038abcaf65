import type { FastifyInstance } from 'fastify';
import { addCreditPack, changePlan, createAccount, createKey, describeAccount, revokeKey } from '../../billing/accounts.js';
import type { CreditPackId } from '../../billing/plans.js';
import { CREDIT_PACKS } from '../../billing/plans.js';
import type { PlanId } from '../../store/types.js';
import { PLAN_IDS } from '../../store/types.js';
import type { AppContext } from '../context.js';
import { requireBearerSecret } from '../plugins/auth.js';
import { errorEnvelopeSchema } from '../schemas.js';

const errors = { '4xx': errorEnvelopeSchema, '5xx': errorEnvelopeSchema };
const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 100 } } } as const;
const planProp = { type: 'string', enum: [...PLAN_IDS] } as const;
const nameProp = { type: ['string', 'null'], maxLength: 200 } as const;

/** Operator API under /admin/v1, guarded by ADMIN_TOKEN. Registered only when the token is set. */
export function registerAdminRoutes(scope: FastifyInstance, ctx: AppContext, adminToken: string): void {
  scope.addHook('onRequest', requireBearerSecret(adminToken, 'admin token'));

  scope.post<{ Body: { plan: PlanId; name?: string | null } }>(
    '/accounts',
    {
      schema: {
        body: { type: 'object', required: ['plan'], properties: { plan: planProp, name: nameProp } },
        response: {
          201: {
            type: 'object',
            required: ['status', 'account_id', 'api_key', 'key_id', 'plan'],
            properties: {
              status: { type: 'string' },
              account_id: { type: 'string' },
              api_key: { type: 'string' },
              key_id: { type: 'string' },
              plan: { type: 'string' },
            },
          },
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const created = await createAccount(ctx, { plan: request.body.plan, name: request.body.name ?? null });
      return reply.code(201).send({
        status: 'success',
        account_id: created.account.id,
        api_key: created.apiKey,
        key_id: created.keyId,
        plan: created.account.plan,
      });
    },
  );

  scope.get<{ Params: { id: string } }>('/accounts/:id', { schema: { params: idParams } }, async (request) => ({
    status: 'success',
    ...(await describeAccount(ctx, request.params.id)),
  }));

  scope.patch<{ Params: { id: string }; Body: { plan: PlanId } }>(
    '/accounts/:id',
    { schema: { params: idParams, body: { type: 'object', required: ['plan'], properties: { plan: planProp } } } },
    async (request) => {
      await changePlan(ctx, request.params.id, request.body.plan);
      return { status: 'success', ...(await describeAccount(ctx, request.params.id)) };
    },
  );

  scope.post<{ Params: { id: string }; Body: { name?: string | null } | undefined }>(
    '/accounts/:id/keys',
    { schema: { params: idParams, body: { type: ['object', 'null'], properties: { name: nameProp } } } },
    async (request, reply) => {
      const { apiKey, key } = await createKey(ctx, request.params.id, request.body?.name ?? null);
      return reply.code(201).send({ status: 'success', key_id: key.id, api_key: apiKey, prefix: key.prefix });
    },
  );

  scope.delete<{ Params: { id: string; keyId: string } }>(
    '/accounts/:id/keys/:keyId',
    {
      schema: {
        params: {
          type: 'object',
          required: ['id', 'keyId'],
          properties: { id: { type: 'string', maxLength: 100 }, keyId: { type: 'string', maxLength: 100 } },
        },
      },
    },
    async (request, reply) => {
      await revokeKey(ctx, request.params.id, request.params.keyId);
      return reply.code(204).send();
    },
  );

  scope.post<{ Params: { id: string }; Body: { pack: CreditPackId } }>(
    '/accounts/:id/credit-packs',
    {
      schema: {
        params: idParams,
        body: { type: 'object', required: ['pack'], properties: { pack: { type: 'string', enum: Object.keys(CREDIT_PACKS) } } },
      },
    },
    async (request) => {
      const balance = await addCreditPack(ctx, request.params.id, request.body.pack);
      return { status: 'success', bought_credits: { balance } };
    },
  );
}
