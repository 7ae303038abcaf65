import type { ErrorCode } from '../errors.js';
import { ADMIN_OPERATIONS } from './admin-operations.js';
import { MCP_IDEMPOTENCY_KEY_MAX, idempotencyKeySchema } from './idempotency-key.js';
import type { OperationSpec } from './operation-spec.js';
import {
  batchRequestSchema,
  batchResponseSchema,
  extractRequestSchema,
  extractResponseSchema,
  healthResponseSchema,
  mapRequestSchema,
  mapResponseSchema,
  readAndScoreResponseSchema,
  readRequestSchema,
  readResponseSchema,
  readyResponseSchema,
  scoreResponseSchema,
  urlRequestSchema,
  usageResponseSchema,
} from './schemas.js';

/**
 * The operation registry (DESIGN §8): per operation its method, path, operationId, cost,
 * request and response schemas, error codes and summary. Routes register from it
 * (register-operation.ts), billing reads `cost` from it through the route config, the
 * OpenAPI document is a loop over it (openapi.ts), and the MCP tools and the CLI take their
 * argument bounds from its schemas.
 */

export const BILLABLE_ERRORS: readonly ErrorCode[] = [
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'PAYMENT_REQUIRED',
  'RATE_LIMITED',
  'CONCURRENT_LIMIT',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_ERROR',
];
export const FETCH_ERRORS: readonly ErrorCode[] = [
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
const RENDER_ERRORS: readonly ErrorCode[] = ['RENDER_UNAVAILABLE'];
/** Answered by any route: unknown path, wrong method. (Every route with a body may also answer TOO_LARGE.) */
export const ROUTING_ERRORS: readonly ErrorCode[] = ['NOT_FOUND', 'METHOD_NOT_ALLOWED'];

/** `X-Markdown-Tokens` (as Cloudflare names it): stats.tokens of the answer. */
const TOKENS_HEADER = {
  description: "The content's length in o200k_base tokens (stats.tokens), whatever its format.",
  schema: { type: 'integer' },
} as const;

/** Example bodies of read and read-and-score: a plain read and steered ones. */
const READ_EXAMPLES = {
  plain: { summary: 'The main content as Markdown', value: { url: 'https://example.com/blog/post' } },
  steered: {
    summary: 'One part of the page, without its comments, links listed',
    value: { url: 'https://example.com/blog/post', target_selector: 'article', remove_selector: ['.comments', '.share'], links: true },
  },
  html: {
    summary: 'Sanitised HTML of the main content, images as alt text',
    value: { url: 'https://example.com/docs/', format: 'html', image_mode: 'alt' },
  },
  citations: {
    summary: 'The whole page, links as numbered references',
    value: { url: 'https://example.com/', main_content: false, link_mode: 'references' },
  },
} as const;

/** Example bodies of batch: the read options are shared by every item. */
const BATCH_EXAMPLES = {
  plain: {
    summary: 'Three pages as Markdown',
    value: { urls: ['https://example.com/a', 'https://example.com/b', 'https://example.com/c'] },
  },
  steered: {
    summary: 'The same part of every page, without comments, links listed',
    value: {
      urls: ['https://example.com/blog/1', 'https://example.com/blog/2'],
      target_selector: 'article',
      remove_selector: '.comments',
      links: true,
    },
  },
  text: {
    summary: 'Plain text of every page, links reduced to their text',
    value: { urls: ['https://example.com/docs/a', 'https://example.com/docs/b'], format: 'text', link_mode: 'text' },
  },
} as const;

const PUBLIC_OPERATIONS = {
  read: {
    operationId: 'read',
    method: 'POST',
    path: '/v1/read',
    summary: 'Read a URL as Markdown',
    auth: 'apiKey',
    cost: { credits: 1, per: 'call', note: 'cached 1 h' },
    idempotent: true,
    body: readRequestSchema,
    bodyExamples: READ_EXAMPLES,
    response: {
      status: 200,
      description:
        'The page as Markdown (or `html` / `text` with `format`). JSON by default; the raw content with `Accept: text/markdown`, `text/html` or `text/plain` (that format, whatever `format` says).',
      schema: readResponseSchema,
      alternatives: { 'text/markdown': { type: 'string' }, 'text/html': { type: 'string' }, 'text/plain': { type: 'string' } },
      headers: { 'X-Markdown-Tokens': TOKENS_HEADER },
    },
    errors: [...BILLABLE_ERRORS, ...FETCH_ERRORS, ...RENDER_ERRORS],
  },
  batch: {
    operationId: 'batch',
    method: 'POST',
    path: '/v1/batch',
    summary: 'Read 1..100 URLs',
    description:
      "Items are read with bounded parallelism through read's one-hour cache; results come back in request order. The read options (target_selector, format, links, …) apply to every item. Duplicates are allowed and each is charged. An item URL that is invalid or not public becomes an ok:false item with INVALID_URL (refunded). `fresh` is not accepted (BAD_REQUEST). X-Service-Cache is HIT only when every successful item came from the cache.",
    auth: 'apiKey',
    cost: { credits: 1, per: 'url', note: 'all-or-nothing up front; every ok:false item refunded; one slot for the whole batch' },
    idempotent: true,
    body: batchRequestSchema,
    bodyExamples: BATCH_EXAMPLES,
    response: { status: 200, description: 'One result per URL, in request order', schema: batchResponseSchema },
    errors: BILLABLE_ERRORS,
  },
  score: {
    operationId: 'score',
    method: 'POST',
    path: '/v1/score',
    summary: 'Agent-readability score 0-100 with grade and checks',
    description:
      'The page is fetched like read (robots-gated); robots.txt, /llms.txt, the sitemap and an Accept: text/markdown refetch are probed under one shared 8 s bound, and a probe that fails only fails its check. Rubric: docs/score.md. No X-Service-Cache header (never cached).',
    auth: 'apiKey',
    cost: { credits: 0, per: 'call', note: 'never cached' },
    body: urlRequestSchema,
    response: { status: 200, description: 'The score', schema: scoreResponseSchema },
    errors: [...BILLABLE_ERRORS, ...FETCH_ERRORS],
  },
  'read-and-score': {
    operationId: 'readAndScore',
    method: 'POST',
    path: '/v1/read-and-score',
    summary: 'Read plus score',
    auth: 'apiKey',
    cost: { credits: 1, per: 'call', note: 'cached 1 h apart from read; fresh honoured' },
    idempotent: true,
    body: readRequestSchema,
    bodyExamples: READ_EXAMPLES,
    response: {
      status: 200,
      description: "read's fields plus `score`",
      schema: readAndScoreResponseSchema,
      headers: { 'X-Markdown-Tokens': TOKENS_HEADER },
    },
    errors: [...BILLABLE_ERRORS, ...FETCH_ERRORS, ...RENDER_ERRORS],
  },
  extract: {
    operationId: 'extract',
    method: 'POST',
    path: '/v1/extract',
    summary: 'Structured data of an HTML page: JSON-LD, OpenGraph/Twitter, meta, headings, links, images, tables, CSS fields',
    description:
      'Deterministic (no LLM). `fields` selectors are compiled before any charge: an invalid selector is BAD_REQUEST. A target that is not HTML is UNSUPPORTED_TYPE (refunded). The cache key covers the URL and the field specs. See docs/operations.md.',
    auth: 'apiKey',
    cost: { credits: 1, per: 'call', note: 'cached 1 h; fresh honoured' },
    idempotent: true,
    body: extractRequestSchema,
    response: { status: 200, description: 'The extracted data', schema: extractResponseSchema },
    errors: [...BILLABLE_ERRORS, ...FETCH_ERRORS, ...RENDER_ERRORS],
  },
  map: {
    operationId: 'map',
    method: 'POST',
    path: '/v1/map',
    summary: "Discover a site's URLs from its sitemaps and the page's links",
    description:
      "Reads robots.txt Sitemap lines, /sitemap.xml, sitemap indexes (cycles skipped) and .gz sitemaps, at most 50 files and 50 MB decoded within the 15 s budget, plus the page's own links. Same registrable domain by default. include/exclude globs, BM25 `search` over URL and title, `limit` 1..5000 (default 1000). A bound cuts discovery short and is reported in stats.bounds_hit, not as an error. `fresh` is BAD_REQUEST. See docs/operations.md.",
    auth: 'apiKey',
    cost: { credits: 1, per: 'call', note: 'cached 1 h; no fresh' },
    idempotent: true,
    body: mapRequestSchema,
    response: { status: 200, description: 'Deduplicated canonical URLs', schema: mapResponseSchema },
    errors: [...BILLABLE_ERRORS, ...FETCH_ERRORS],
  },
  usage: {
    operationId: 'usage',
    method: 'GET',
    path: '/v1/usage',
    summary: 'Credits and concurrency of the calling account (0 credits, no slot)',
    auth: 'apiKey',
    response: { status: 200, description: 'Usage of the current UTC month', schema: usageResponseSchema },
    errors: ['UNAUTHORIZED', 'SERVICE_UNAVAILABLE', 'INTERNAL_ERROR'],
  },
} as const satisfies Record<string, OperationSpec>;

const SERVICE_OPERATIONS = {
  healthz: {
    operationId: 'healthz',
    method: 'GET',
    path: '/healthz',
    summary: 'Process is up',
    auth: 'none',
    response: { status: 200, description: 'healthy', schema: healthResponseSchema },
    errors: [],
  },
  readyz: {
    operationId: 'readyz',
    method: 'GET',
    path: '/readyz',
    summary: 'Backing stores are reachable',
    auth: 'none',
    response: { status: 200, description: 'ready', schema: readyResponseSchema },
    errors: ['SERVICE_UNAVAILABLE'],
  },
  openapi: {
    operationId: 'openapi',
    method: 'GET',
    path: '/openapi.json',
    summary: 'This document',
    auth: 'none',
    response: { status: 200, description: 'OpenAPI 3.1' },
    errors: [],
  },
  playground: {
    operationId: 'playground',
    method: 'GET',
    path: '/',
    summary: 'Playground: read a URL with your key; rendered and raw Markdown, stats, billing and cache headers, warnings',
    auth: 'none',
    response: { status: 200, description: 'HTML page', alternatives: { 'text/html': { type: 'string' } } },
    errors: [],
  },
  playgroundAsset: {
    operationId: 'playgroundAsset',
    method: 'GET',
    path: '/playground/:file',
    summary: 'Playground scripts and styles (playground.js, playground.css, marked.min.js, purify.min.js)',
    auth: 'none',
    // no enum: an unknown file is NOT_FOUND (404), not a validation error (400)
    params: {
      type: 'object',
      required: ['file'],
      properties: { file: { type: 'string', description: 'playground.js, playground.css, marked.min.js or purify.min.js' } },
    },
    response: { status: 200, description: 'the asset' },
    errors: ['NOT_FOUND'],
  },
  docs: {
    operationId: 'docs',
    method: 'GET',
    path: '/docs',
    summary: 'API reference (Redoc, bundled from npm) rendered from /openapi.json',
    auth: 'none',
    response: { status: 200, description: 'HTML page', alternatives: { 'text/html': { type: 'string' } } },
    errors: [],
  },
  docsBundle: {
    operationId: 'docsBundle',
    method: 'GET',
    path: '/docs/redoc.standalone.js',
    summary: 'The Redoc bundle the docs page loads',
    auth: 'none',
    response: { status: 200, description: 'JavaScript' },
    errors: [],
  },
  mcp: {
    operationId: 'mcp',
    method: 'POST',
    path: '/mcp',
    summary:
      'MCP over streamable HTTP (stateless, JSON answers). Tools: read_url, read_and_score, score_url, extract, map_site, batch_read, usage. Each tool call runs the matching /v1 route with the same key, so it takes slots and credits exactly like REST; tool errors carry pith error codes.',
    auth: 'apiKey',
    headers: {
      'Idempotency-Key': {
        description:
          'Keys each tool call of the request as `<key>.<n>` on its /v1 route: a retried request with the same key replays its tool calls instead of charging again.',
        schema: idempotencyKeySchema(MCP_IDEMPOTENCY_KEY_MAX),
      },
    },
    // no `type`: the MCP transport answers malformed messages itself, in JSON-RPC
    body: { description: 'A JSON-RPC 2.0 message of the Model Context Protocol' },
    response: { status: 200, description: 'JSON-RPC answer', alternatives: { 'application/json': { type: 'object' } } },
    otherResponses: { 202: 'Notification accepted' },
    errors: ['UNAUTHORIZED', 'SERVICE_UNAVAILABLE'],
  },
  metrics: {
    operationId: 'metrics',
    method: 'GET',
    path: '/metrics',
    summary:
      'Prometheus metrics: requests by op/code, latency, cache hit ratio, fetch errors, slots in use, credits charged/refunded (Bearer METRICS_TOKEN when the deployment sets one, open otherwise)',
    auth: 'metricsToken',
    response: {
      status: 200,
      description: 'Prometheus text exposition format',
      alternatives: { 'text/plain': { type: 'string' } },
    },
    errors: ['UNAUTHORIZED'],
  },
} as const satisfies Record<string, OperationSpec>;

export const OPERATIONS = { ...PUBLIC_OPERATIONS, ...SERVICE_OPERATIONS, ...ADMIN_OPERATIONS } as const;

/** The /v1 operations an API key calls (what MCP tools and the SDK wrap). */
export type PublicOperationName = keyof typeof PUBLIC_OPERATIONS;
export const PUBLIC_OPERATION_NAMES = Object.keys(PUBLIC_OPERATIONS) as PublicOperationName[];
export type OperationName = keyof typeof OPERATIONS;
