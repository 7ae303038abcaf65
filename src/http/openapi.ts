import type { ErrorCode } from '../errors.js';
import { ERROR_CODES } from '../errors.js';
import { IDEMPOTENCY_KEY_MAX, idempotencyKeySchema } from './idempotency-key.js';
import { NAMED_SCHEMAS, refsFor } from './named-schemas.js';
import type { OperationSpec } from './operation-spec.js';
import { documentedSummary } from './operation-spec.js';
import { OPERATIONS, ROUTING_ERRORS } from './operations.js';
import type { BillingHeaderName } from './plugins/billing-headers.js';
import { errorEnvelopeSchema } from './schemas.js';

/**
 * The OpenAPI 3.1 document served at /openapi.json: a loop over the operation registry.
 * Schemas that have a name (named-schemas.ts) become components and are referenced by
 * `$ref`; test/unit/http/openapi.test.ts checks the document against the routes, the
 * error registry and docs/errors.md.
 */

type Json = Record<string, unknown>;

type HeaderDoc = { description: string; schema: Json; on: 'success' | 'error' | 'both' };

/**
 * The response headers of a billed operation. Keyed by the names plugins/billing-headers.ts
 * writes (BILLING_HEADER_NAMES), so a header it writes cannot go undeclared; `on` says
 * whether the header comes on the success answer, on error answers, or both.
 */
const BILLING_HEADERS: Record<BillingHeaderName | 'X-Service-Cache' | 'X-Request-Id', HeaderDoc> = {
  'X-Service-Cache': {
    description: 'HIT or MISS: whether the one-hour cache served the result (a HIT still costs 1 credit).',
    schema: { type: 'string', enum: ['HIT', 'MISS'] },
    on: 'success',
  },
  'X-RateLimit-Remaining': {
    description: 'Monthly plan credits left; 0 while billing goes to bought credits; omitted for Enterprise (unlimited).',
    schema: { type: 'integer' },
    on: 'both',
  },
  'X-RateLimit-Reset': {
    description: 'When monthly plan credits reset: first instant of the next UTC month.',
    schema: { type: 'string', format: 'date-time' },
    on: 'both',
  },
  'X-Service-Billed': {
    description: 'plan or credit: the pool this request was billed to. Absent on errors (refunded), unless the refund is pending.',
    schema: { type: 'string', enum: ['plan', 'credit'] },
    on: 'both',
  },
  'X-Credits-Remaining': {
    description: 'Bought-credit balance after the request; sent only when billed to credits.',
    schema: { type: 'integer' },
    on: 'both',
  },
  'X-Concurrent-Remaining': {
    description: 'More in-flight requests the account has headroom for at that moment.',
    schema: { type: 'integer' },
    on: 'both',
  },
  'X-Refund-Pending': {
    description:
      'true on an error whose refund could not be written yet (billing store down; the body has `refund_pending: true`): the sweeper refunds the open charge once it is OPEN_CHARGE_TIMEOUT_S old (15 min by default; later while the store is down).',
    schema: { type: 'string', enum: ['true'] },
    on: 'error',
  },
  'X-Request-Id': { description: 'Request id, also in error bodies and logs.', schema: { type: 'string' }, on: 'both' },
};

/** The billing headers of a success (`success`) or an error (`error`) answer, as OpenAPI header objects. */
function billingHeaders(answer: 'success' | 'error'): Json {
  return Object.fromEntries(
    Object.entries(BILLING_HEADERS)
      .filter(([, h]) => h.on === answer || h.on === 'both')
      .map(([name, { description, schema }]) => [name, { description, schema }]),
  );
}

/** The `Idempotency-Key` header of the operations marked `idempotent` (src/http/plugins/idempotency.ts). */
const IDEMPOTENCY_KEY_PARAM = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: idempotencyKeySchema(IDEMPOTENCY_KEY_MAX),
  description:
    "Makes a retry safe: the same key with the same request within 24 h answers the first call's result (header `Idempotent-Replayed: true`) and charges once. The same key with another request, or while the first still runs, is 409 IDEMPOTENCY_CONFLICT. Answers 402, 429 and 503 are not kept, so their retry runs anew.",
};

const SECURITY: Record<OperationSpec['auth'], unknown[] | null> = {
  apiKey: [{ apiKey: [] }],
  adminToken: [{ adminToken: [] }],
  metricsToken: [{}, { metricsToken: [] }],
  none: null,
};

/**
 * The codes an operation can answer: its own, plus those that come with its shape (a body
 * can be malformed or over the 64 KB limit; an idempotent call can meet its key in use).
 */
export function operationErrors(op: OperationSpec): ErrorCode[] {
  const implied: ErrorCode[] = [
    ...(op.body ? (['BAD_REQUEST', 'TOO_LARGE'] as const) : []),
    ...(op.idempotent ? (['IDEMPOTENCY_CONFLICT'] as const) : []),
  ];
  return [...new Set([...op.errors, ...implied])];
}

function errorResponses(codes: readonly ErrorCode[], billed: boolean): Json {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Json = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[String(status)] = {
      description: list.map((c) => `${c}: ${ERROR_CODES[c].message}`).join('; '),
      'x-error-codes': list,
      ...(billed ? { headers: billingHeaders('error') } : {}),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return out;
}

/** `/admin/v1/accounts/:id` → `/admin/v1/accounts/{id}` */
export const openApiPath = (path: string): string => path.replace(/:(\w+)/g, '{$1}');

function parameters(op: OperationSpec): Json[] {
  const params = (op.params ?? {}) as { required?: readonly string[]; properties?: Record<string, unknown> };
  const inPath = Object.entries(params.properties ?? {}).map(([name, schema]) => ({ name, in: 'path', required: true, schema }));
  const headers = Object.entries(op.headers ?? {}).map(([name, h]) => ({ name, in: 'header', required: false, ...h }));
  return [...inPath, ...headers, ...(op.idempotent ? [IDEMPOTENCY_KEY_PARAM] : [])];
}

function successResponse(op: OperationSpec): Json {
  const { response } = op;
  const content: Json = {};
  if (response.schema) content['application/json'] = { schema: refsFor(response.schema) };
  for (const [type, schema] of Object.entries(response.alternatives ?? {})) content[type] = { schema };
  return {
    description: response.description,
    ...(op.cost || response.headers ? { headers: { ...(op.cost ? billingHeaders('success') : {}), ...response.headers } } : {}),
    ...(Object.keys(content).length > 0 ? { content } : {}),
  };
}

function operationObject(op: OperationSpec): Json {
  const security = SECURITY[op.auth];
  const params = parameters(op);
  return {
    operationId: op.operationId,
    summary: documentedSummary(op),
    ...(op.description ? { description: op.description } : {}),
    ...(security ? { security } : {}),
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: op.bodyOptional !== true,
            content: { 'application/json': { schema: refsFor(op.body), ...(op.bodyExamples ? { examples: op.bodyExamples } : {}) } },
          },
        }
      : {}),
    responses: {
      [op.response.status]: successResponse(op),
      ...Object.fromEntries(Object.entries(op.otherResponses ?? {}).map(([status, description]) => [status, { description }])),
      ...errorResponses(operationErrors(op), op.cost !== undefined),
    },
  };
}

export function buildOpenApiDocument(opts: { version: string }): Json {
  const paths: Record<string, Json> = {};
  for (const op of Object.values(OPERATIONS) as OperationSpec[]) {
    const path = openApiPath(op.path);
    paths[path] = { ...paths[path], [op.method.toLowerCase()]: operationObject(op) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'pith read service',
      version: opts.version,
      description:
        'Turns a public URL into clean Markdown. Every billable call costs credits taken before the cache lookup and refunded on failure. Errors use one envelope: `{status: "error", code, message, request_id, ...fields}`.',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'API key `pk_…`' },
        adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN of the deployment (admin API is disabled when unset)' },
        metricsToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'METRICS_TOKEN of the deployment (required by /metrics only when set)',
        },
      },
      schemas: {
        Error: {
          ...errorEnvelopeSchema,
          properties: { ...errorEnvelopeSchema.properties, code: { type: 'string', enum: Object.keys(ERROR_CODES) } },
        },
        ...Object.fromEntries([...NAMED_SCHEMAS].map(([schema, name]) => [name, refsFor(schema, schema)])),
      },
    },
    'x-routing-errors': ROUTING_ERRORS,
    paths,
  };
}
