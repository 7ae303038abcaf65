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
  },
} as const;

export const creditPackAddedSchema = {
  type: 'object',
  required: ['status', 'bought_credits'],
  properties: {
    status: success,
    bought_credits: { type: 'object', required: ['balance'], properties: { balance: { type: 'integer' } } },
  },
} as const;
