import type { ErrorCode } from '../errors.js';
import {
  accountCreatedSchema,
  accountParamsSchema,
  accountSchema,
  changePlanRequestSchema,
  createAccountRequestSchema,
  createKeyRequestSchema,
  creditPackAddedSchema,
  creditPackRequestSchema,
  keyCreatedSchema,
  keyParamsSchema,
} from './admin-schemas.js';
import type { OperationSpec } from './operation-spec.js';

/** The operator API (/admin/v1), part of the operation registry (operations.ts). */

const ADMIN_ERRORS: readonly ErrorCode[] = ['BAD_REQUEST', 'UNAUTHORIZED', 'NOT_FOUND', 'SERVICE_UNAVAILABLE', 'INTERNAL_ERROR'];

export const ADMIN_OPERATIONS = {
  adminCreateAccount: {
    operationId: 'adminCreateAccount',
    method: 'POST',
    path: '/admin/v1/accounts',
    summary: 'Create an account and its first API key (the key is shown only here)',
    auth: 'adminToken',
    body: createAccountRequestSchema,
    response: { status: 201, description: 'The account and its first key', schema: accountCreatedSchema },
    errors: ADMIN_ERRORS,
  },
  adminGetAccount: {
    operationId: 'adminGetAccount',
    method: 'GET',
    path: '/admin/v1/accounts/:id',
    summary: 'Account, plan, usage, balance and keys (prefixes only)',
    auth: 'adminToken',
    params: accountParamsSchema,
    response: { status: 200, description: 'the account', schema: accountSchema },
    errors: ADMIN_ERRORS,
  },
  adminChangePlan: {
    operationId: 'adminChangePlan',
    method: 'PATCH',
    path: '/admin/v1/accounts/:id',
    summary: 'Change the plan',
    auth: 'adminToken',
    params: accountParamsSchema,
    body: changePlanRequestSchema,
    response: { status: 200, description: 'the account', schema: accountSchema },
    errors: ADMIN_ERRORS,
  },
  adminCreateKey: {
    operationId: 'adminCreateKey',
    method: 'POST',
    path: '/admin/v1/accounts/:id/keys',
    summary: 'Create another API key (shown only here)',
    auth: 'adminToken',
    params: accountParamsSchema,
    body: createKeyRequestSchema,
    bodyOptional: true,
    response: { status: 201, description: 'The new key', schema: keyCreatedSchema },
    errors: ADMIN_ERRORS,
  },
  adminRevokeKey: {
    operationId: 'adminRevokeKey',
    method: 'DELETE',
    path: '/admin/v1/accounts/:id/keys/:keyId',
    summary: 'Revoke a key; it stops working at once',
    auth: 'adminToken',
    params: keyParamsSchema,
    response: { status: 204, description: 'revoked' },
    errors: ADMIN_ERRORS,
  },
  adminAddCreditPack: {
    operationId: 'adminAddCreditPack',
    method: 'POST',
    path: '/admin/v1/accounts/:id/credit-packs',
    summary: 'Add a credit pack; paid plans only',
    auth: 'adminToken',
    params: accountParamsSchema,
    body: creditPackRequestSchema,
    response: { status: 200, description: 'The new bought-credit balance', schema: creditPackAddedSchema },
    errors: [...ADMIN_ERRORS, 'PLAN_NOT_ELIGIBLE'],
  },
} as const satisfies Record<string, OperationSpec>;
