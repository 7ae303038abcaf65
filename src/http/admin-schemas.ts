import { CREDIT_PACKS } from '../billing/plans.js';
import { nullableString, planIdSchema, usageReportSchema } from './schemas.js';

/**
 * JSON schemas of the operator API (/admin/v1). Like schemas.ts, the response schemas are
 * the allow-list of what leaves the process.
 */

const nameProp = { type: ['string', 'null'], maxLength: 200 } as const;
const success = { type: 'string', enum: ['success'] } as const;

export const accountParamsSchema = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

export const keyParamsSchema = {
  type: 'object',
  required: ['id', 'keyId'],
  properties: { id: { type: 'string', maxLength: 100 }, keyId: { type: 'string', maxLength: 100 } },
} as const;

export const createAccountRequestSchema = {
  type: 'object',
  required: ['plan'],
  properties: { plan: planIdSchema, name: nameProp },
} as const;

export const accountCreatedSchema = {
  type: 'object',
  required: ['status', 'account_id', 'api_key', 'key_id', 'plan'],
  properties: {
    status: { type: 'string' },
    account_id: { type: 'string' },
    api_key: { type: 'string', description: 'The only time the key is shown.' },
    key_id: { type: 'string' },
    plan: { type: 'string' },
  },
} as const;

export const accountSchema = {
  type: 'object',
  required: ['status', 'account_id', 'name', 'plan', 'created_at', 'usage', 'keys'],
  properties: {
    status: success,
    account_id: { type: 'string' },
    name: nullableString,
    plan: planIdSchema,
    created_at: { type: 'string' },
    usage: usageReportSchema,
    keys: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key_id', 'prefix', 'name', 'created_at', 'revoked_at'],
        properties: {
          key_id: { type: 'string' },
          prefix: { type: 'string', description: 'Display prefix; the key itself is never stored.' },
          name: nullableString,
          created_at: { type: 'string' },
          revoked_at: nullableString,
        },
      },
    },
  },
} as const;

export const changePlanRequestSchema = { type: 'object', required: ['plan'], properties: { plan: planIdSchema } } as const;

export const createKeyRequestSchema = { type: ['object', 'null'], properties: { name: nameProp } } as const;

export const keyCreatedSchema = {
  type: 'object',
  required: ['status', 'key_id', 'api_key', 'prefix'],
  properties: {
    status: success,
    key_id: { type: 'string' },
    api_key: { type: 'string', description: 'The only time the key is shown.' },
    prefix: { type: 'string' },
  },
} as const;

export const creditPackRequestSchema = {
  type: 'object',
  required: ['pack'],
  properties: {
    pack: {
      type: 'string',
      enum: Object.keys(CREDIT_PACKS) as Array<keyof typeof CREDIT_PACKS>,
      description: Object.entries(CREDIT_PACKS)
        .map(([id, pack]) => `${id}: ${pack.credits} credits`)
        .join('; '),
    },
    payment_id: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'The payment this pack was bought with: the same payment_id again adds nothing (a retried payment webhook).',
    },
  },
} as const;

export const creditPackAddedSchema = {
  type: 'object',
  required: ['status', 'bought_credits'],
  properties: {
    status: success,
    bought_credits: { type: 'object', required: ['balance'], properties: { balance: { type: 'integer' } } },
    duplicate: { type: 'boolean', description: 'Present (true) when this payment_id was already credited: nothing was added.' },
  },
} as const;

export const ledgerReportSchema = {
  type: 'object',
  required: ['status', 'ok', 'accounts_checked', 'differences', 'open_charges'],
  properties: {
    status: success,
    ok: { type: 'boolean', description: 'False when any counter differs from what its ledger rows add up to.' },
    accounts_checked: { type: 'integer' },
    differences: {
      type: 'array',
      items: {
        type: 'object',
        required: ['account_id', 'counter', 'stored', 'from_ledger'],
        properties: {
          account_id: { type: 'string' },
          counter: { type: 'string', description: '`plan_used:YYYY-MM` or `bought_balance`' },
          stored: { type: 'integer' },
          from_ledger: { type: 'integer' },
        },
      },
    },
    open_charges: {
      type: 'array',
      description: 'Charges whose call has not delivered or been refunded yet; the sweeper refunds those older than OPEN_CHARGE_TIMEOUT_S.',
      items: {
        type: 'object',
        required: ['charge_id', 'account_id', 'amount', 'refunded', 'operation', 'created_at'],
        properties: {
          charge_id: { type: 'string' },
          account_id: { type: 'string' },
          amount: { type: 'integer' },
          refunded: { type: 'integer' },
          operation: { type: 'string' },
          created_at: { type: 'string' },
        },
      },
    },
  },
} as const;
