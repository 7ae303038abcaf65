import type { ErrorCode } from '../errors.js';
import { ERROR_CODES } from '../errors.js';
import {
  batchRequestSchema,
  batchResponseSchema,
  errorEnvelopeSchema,
  extractRequestSchema,
  extractResponseSchema,
  mapRequestSchema,
  mapResponseSchema,
  readAndScoreResponseSchema,
  readRequestSchema,
  readResponseSchema,
  scoreResponseSchema,
  urlRequestSchema,
  usageResponseSchema,
} from './schemas.js';

/**
 * The OpenAPI 3.1 document served at /openapi.json. Route schemas are shared with the
 * routes themselves; the error codes each route can answer are listed by hand here and
 * checked against the registry and docs/errors.md by test/unit/http/openapi.test.ts.
 */

type Json = Record<string, unknown>;

const BILLING_HEADERS: Json = {
  'X-Service-Cache': {
    description: 'HIT or MISS: whether the one-hour cache served the result (a HIT still costs 1 credit).',
    schema: { type: 'string', enum: ['HIT', 'MISS'] },
  },
  'X-RateLimit-Remaining': {
    description: 'Monthly plan credits left; 0 while billing goes to bought credits; omitted for Enterprise (unlimited).',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': {
    description: 'When monthly plan credits reset: first instant of the next UTC month.',
    schema: { type: 'string', format: 'date-time' },
  },
  'X-Service-Billed': {
    description: 'plan or credit: the pool this request was billed to. Absent on errors (refunded).',
    schema: { type: 'string', enum: ['plan', 'credit'] },
  },
  'X-Credits-Remaining': {
    description: 'Bought-credit balance after the request; sent only when billed to credits.',
    schema: { type: 'integer' },
  },
  'X-Concurrent-Remaining': {
    description: 'More in-flight requests the account has headroom for at that moment.',
    schema: { type: 'integer' },
  },
  'X-Request-Id': { description: 'Request id, also in error bodies and logs.', schema: { type: 'string' } },
};

function errorResponses(codes: ErrorCode[]): Json {
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
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return out;
}

const BILLABLE_ERRORS: ErrorCode[] = [
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'PAYMENT_REQUIRED',
  'RATE_LIMITED',
  'CONCURRENT_LIMIT',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_ERROR',
];
const FETCH_ERRORS: ErrorCode[] = [
  'INVALID_URL',
  'ROBOTS_BLOCKED',
  'WAF_BLOCKED',
  'URL_NOT_FOUND',
  'TOO_LARGE',
  'UNSUPPORTED_TYPE',
  'IMAGE_PDF',
  'EXTRACTION_FAILED',
  'TLS_ERROR',
  'UPSTREAM_ERROR',
  'TIMEOUT',
];
/** Operations that take `render`: `render: true` without a working browser. */
const RENDER_ERRORS: ErrorCode[] = ['RENDER_UNAVAILABLE'];
const ADMIN_ERRORS: ErrorCode[] = ['BAD_REQUEST', 'UNAUTHORIZED', 'NOT_FOUND', 'SERVICE_UNAVAILABLE', 'INTERNAL_ERROR'];
/** Answered by any route: unknown path, wrong method, oversize body. */
const ROUTING_ERRORS: ErrorCode[] = ['NOT_FOUND', 'METHOD_NOT_ALLOWED'];

const bearer = [{ apiKey: [] }];
const admin = [{ adminToken: [] }];
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };

/** The `Idempotency-Key` header of the billable POSTs (src/http/plugins/idempotency.ts). */
const IDEMPOTENCY_KEY_PARAM = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
  description:
    "Makes a retry safe: the same key with the same request within 24 h answers the first call's result (header `Idempotent-Replayed: true`) and charges once. The same key with another request, or while the first still runs, is 409 IDEMPOTENCY_CONFLICT. Answers 402, 429 and 503 are not kept, so their retry runs anew.",
};
const IDEMPOTENT_PATHS = ['/v1/read', '/v1/read-and-score', '/v1/extract', '/v1/map', '/v1/batch'];

/** Adds the Idempotency-Key header and its 409 to every billable POST of the document. */
function withIdempotencyKey(doc: Json): Json {
  const paths = doc.paths as Record<string, { post: { parameters?: unknown[]; responses: Record<string, unknown> } }>;
  for (const path of IDEMPOTENT_PATHS) {
    const op = paths[path]?.post;
    if (!op) continue;
    op.parameters = [...(op.parameters ?? []), IDEMPOTENCY_KEY_PARAM];
    Object.assign(op.responses, errorResponses(['IDEMPOTENCY_CONFLICT']));
  }
  return doc;
}

export function buildOpenApiDocument(opts: { version: string }): Json {
  return withIdempotencyKey({
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
        ReadRequest: readRequestSchema,
        ReadResponse: readResponseSchema,
        Usage: usageResponseSchema,
        BatchRequest: batchRequestSchema,
        BatchResponse: batchResponseSchema,
        UrlRequest: urlRequestSchema,
        ScoreResponse: scoreResponseSchema,
        ReadAndScoreResponse: readAndScoreResponseSchema,
        ExtractRequest: extractRequestSchema,
        ExtractResponse: extractResponseSchema,
        MapRequest: mapRequestSchema,
        MapResponse: mapResponseSchema,
      },
    },
    'x-routing-errors': ROUTING_ERRORS,
    paths: {
      '/v1/read': {
        post: {
          operationId: 'read',
          summary: 'Read a URL as Markdown (1 credit; cached 1 h; holds a concurrency slot)',
          security: bearer,
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/ReadRequest' } } } },
          responses: {
            200: {
              description: 'The page as Markdown. JSON by default; raw Markdown with `Accept: text/markdown`.',
              headers: BILLING_HEADERS,
              content: {
                'application/json': { schema: { $ref: '#/components/schemas/ReadResponse' } },
                'text/markdown': { schema: { type: 'string' } },
              },
            },
            ...errorResponses([...BILLABLE_ERRORS, ...FETCH_ERRORS, ...RENDER_ERRORS]),
          },
        },
      },
      '/v1/batch': {
        post: {
          operationId: 'batch',
          summary:
            'Read 1..100 URLs (1 credit per URL, all-or-nothing up front; every ok:false item refunded; one slot for the whole batch)',
          description:
            "Items are read with bounded parallelism through read's one-hour cache; results come back in request order. Duplicates are allowed and each is charged. An item URL that is invalid or not public becomes an ok:false item with INVALID_URL (refunded). `fresh` is not accepted (BAD_REQUEST). X-Service-Cache is HIT only when every successful item came from the cache.",
          security: bearer,
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/BatchRequest' } } } },
          responses: {
            200: {
              description: 'One result per URL, in request order',
              headers: BILLING_HEADERS,
              content: { 'application/json': { schema: { $ref: '#/components/schemas/BatchResponse' } } },
            },
            ...errorResponses(BILLABLE_ERRORS),
          },
        },
      },
      '/v1/score': {
        post: {
          operationId: 'score',
          summary: 'Agent-readability score 0-100 with grade and checks (0 credits; never cached; holds a concurrency slot)',
          description:
            'The page is fetched like read (robots-gated); robots.txt, /llms.txt, the sitemap and an Accept: text/markdown refetch are probed under one shared 8 s bound, and a probe that fails only fails its check. Rubric: docs/score.md. No X-Service-Cache header (never cached).',
          security: bearer,
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/UrlRequest' } } } },
          responses: {
            200: {
              description: 'The score',
              headers: BILLING_HEADERS,
              content: { 'application/json': { schema: { $ref: '#/components/schemas/ScoreResponse' } } },
            },
            ...errorResponses([...BILLABLE_ERRORS, ...FETCH_ERRORS]),
          },
        },
      },
      '/v1/read-and-score': {
        post: {
          operationId: 'readAndScore',
          summary: 'Read plus score (1 credit; cached 1 h apart from read; fresh honoured; holds a concurrency slot)',
          security: bearer,
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/ReadRequest' } } } },
          responses: {
            200: {
              description: "read's fields plus `score`",
              headers: BILLING_HEADERS,
              content: { 'application/json': { schema: { $ref: '#/components/schemas/ReadAndScoreResponse' } } },
            },
            ...errorResponses([...BILLABLE_ERRORS, ...FETCH_ERRORS, ...RENDER_ERRORS]),
          },
        },
      },
      '/v1/extract': {
        post: {
          operationId: 'extract',
          summary:
            'Structured data of an HTML page: JSON-LD, OpenGraph/Twitter, meta, headings, links, images, tables, CSS fields (1 credit; cached 1 h; fresh honoured; holds a concurrency slot)',
          description:
            'Deterministic (no LLM). `fields` selectors are compiled before any charge: an invalid selector is BAD_REQUEST. A target that is not HTML is UNSUPPORTED_TYPE (refunded). The cache key covers the URL and the field specs. See docs/operations.md.',
          security: bearer,
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/ExtractRequest' } } } },
          responses: {
            200: {
              description: 'The extracted data',
              headers: BILLING_HEADERS,
              content: { 'application/json': { schema: { $ref: '#/components/schemas/ExtractResponse' } } },
            },
            ...errorResponses([...BILLABLE_ERRORS, ...FETCH_ERRORS, ...RENDER_ERRORS]),
          },
        },
      },
      '/v1/map': {
        post: {
          operationId: 'map',
          summary:
            "Discover a site's URLs from its sitemaps and the page's links (1 credit per call; cached 1 h; no fresh; holds a concurrency slot)",
          description:
            "Reads robots.txt Sitemap lines, /sitemap.xml, sitemap indexes (cycles skipped) and .gz sitemaps, at most 50 files and 50 MB decoded within the 15 s budget, plus the page's own links. Same registrable domain by default. include/exclude globs, BM25 `search` over URL and title, `limit` 1..5000 (default 1000). A bound cuts discovery short and is reported in stats.bounds_hit, not as an error. `fresh` is BAD_REQUEST. See docs/operations.md.",
          security: bearer,
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/MapRequest' } } } },
          responses: {
            200: {
              description: 'Deduplicated canonical URLs',
              headers: BILLING_HEADERS,
              content: { 'application/json': { schema: { $ref: '#/components/schemas/MapResponse' } } },
            },
            ...errorResponses([...BILLABLE_ERRORS, ...FETCH_ERRORS]),
          },
        },
      },
      '/v1/usage': {
        get: {
          operationId: 'usage',
          summary: 'Credits and concurrency of the calling account (0 credits, no slot)',
          security: bearer,
          responses: {
            200: {
              description: 'Usage of the current UTC month',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Usage' } } },
            },
            ...errorResponses(['UNAUTHORIZED', 'SERVICE_UNAVAILABLE', 'INTERNAL_ERROR']),
          },
        },
      },
      '/healthz': { get: { operationId: 'healthz', summary: 'Process is up', responses: { 200: { description: 'healthy' } } } },
      '/readyz': {
        get: {
          operationId: 'readyz',
          summary: 'Backing stores are reachable',
          responses: { 200: { description: 'ready' }, ...errorResponses(['SERVICE_UNAVAILABLE']) },
        },
      },
      '/openapi.json': { get: { operationId: 'openapi', summary: 'This document', responses: { 200: { description: 'OpenAPI 3.1' } } } },
      '/': {
        get: {
          operationId: 'playground',
          summary: 'Playground: read a URL with your key; rendered and raw Markdown, stats, billing and cache headers, warnings',
          responses: { 200: { description: 'HTML page', content: { 'text/html': { schema: { type: 'string' } } } } },
        },
      },
      '/playground/{file}': {
        get: {
          operationId: 'playgroundAsset',
          summary: 'Playground scripts and styles (playground.js, playground.css, marked.min.js, purify.min.js)',
          parameters: [
            {
              name: 'file',
              in: 'path',
              required: true,
              schema: { type: 'string', enum: ['playground.js', 'playground.css', 'marked.min.js', 'purify.min.js'] },
            },
          ],
          responses: { 200: { description: 'the asset' }, ...errorResponses(['NOT_FOUND']) },
        },
      },
      '/docs': {
        get: {
          operationId: 'docs',
          summary: 'API reference (Redoc, bundled from npm) rendered from /openapi.json',
          responses: { 200: { description: 'HTML page', content: { 'text/html': { schema: { type: 'string' } } } } },
        },
      },
      '/docs/redoc.standalone.js': {
        get: {
          operationId: 'docsBundle',
          summary: 'The Redoc bundle the docs page loads',
          responses: { 200: { description: 'JavaScript' } },
        },
      },
      '/mcp': {
        post: {
          operationId: 'mcp',
          summary:
            'MCP over streamable HTTP (stateless, JSON answers). Tools: read_url, read_and_score, score_url, extract, map_site, batch_read, usage. Each tool call runs the matching /v1 route with the same key, so it takes slots and credits exactly like REST; tool errors carry pith error codes.',
          security: bearer,
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: { type: 'object', description: 'A JSON-RPC 2.0 message of the Model Context Protocol' } },
            },
          },
          responses: {
            200: { description: 'JSON-RPC answer', content: { 'application/json': { schema: { type: 'object' } } } },
            202: { description: 'Notification accepted' },
            ...errorResponses(['UNAUTHORIZED', 'SERVICE_UNAVAILABLE']),
          },
        },
      },
      '/metrics': {
        get: {
          operationId: 'metrics',
          summary:
            'Prometheus metrics: requests by op/code, latency, cache hit ratio, fetch errors, slots in use, credits charged/refunded (Bearer METRICS_TOKEN when the deployment sets one, open otherwise)',
          security: [{}, { metricsToken: [] }],
          responses: {
            200: { description: 'Prometheus text exposition format', content: { 'text/plain': { schema: { type: 'string' } } } },
            ...errorResponses(['UNAUTHORIZED']),
          },
        },
      },
      '/admin/v1/accounts': {
        post: {
          operationId: 'adminCreateAccount',
          summary: 'Create an account and its first API key (the key is shown only here)',
          security: admin,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['plan'],
                  properties: {
                    plan: { type: 'string', enum: ['free', 'starter', 'growth', 'scale', 'enterprise'] },
                    name: { type: 'string' },
                  },
                },
              },
            },
          },
          responses: { 201: { description: '`{account_id, api_key, key_id, plan}`' }, ...errorResponses(ADMIN_ERRORS) },
        },
      },
      '/admin/v1/accounts/{id}': {
        get: {
          operationId: 'adminGetAccount',
          summary: 'Account, plan, usage, balance and keys (prefixes only)',
          security: admin,
          parameters: [idParam],
          responses: { 200: { description: 'the account' }, ...errorResponses(ADMIN_ERRORS) },
        },
        patch: {
          operationId: 'adminChangePlan',
          summary: 'Change the plan',
          security: admin,
          parameters: [idParam],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { type: 'object', required: ['plan'], properties: { plan: { type: 'string' } } } } },
          },
          responses: { 200: { description: 'the account' }, ...errorResponses(ADMIN_ERRORS) },
        },
      },
      '/admin/v1/accounts/{id}/keys': {
        post: {
          operationId: 'adminCreateKey',
          summary: 'Create another API key (shown only here)',
          security: admin,
          parameters: [idParam],
          responses: { 201: { description: '`{key_id, api_key, prefix}`' }, ...errorResponses(ADMIN_ERRORS) },
        },
      },
      '/admin/v1/accounts/{id}/keys/{keyId}': {
        delete: {
          operationId: 'adminRevokeKey',
          summary: 'Revoke a key; it stops working at once',
          security: admin,
          parameters: [idParam, { name: 'keyId', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { 204: { description: 'revoked' }, ...errorResponses(ADMIN_ERRORS) },
        },
      },
      '/admin/v1/accounts/{id}/credit-packs': {
        post: {
          operationId: 'adminAddCreditPack',
          summary: 'Add a credit pack (S 500, M 2,200, L 6,000, XL 28,000); paid plans only',
          security: admin,
          parameters: [idParam],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { type: 'object', required: ['pack'], properties: { pack: { type: 'string', enum: ['S', 'M', 'L', 'XL'] } } },
              },
            },
          },
          responses: { 200: { description: '`{bought_credits: {balance}}`' }, ...errorResponses([...ADMIN_ERRORS, 'PLAN_NOT_ELIGIBLE']) },
        },
      },
    },
  });
}
