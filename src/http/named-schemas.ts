import {
  accountCreatedSchema,
  accountSchema,
  changePlanRequestSchema,
  createAccountRequestSchema,
  createKeyRequestSchema,
  creditPackAddedSchema,
  creditPackRequestSchema,
  keyCreatedSchema,
} from './admin-schemas.js';
import {
  batchRequestSchema,
  batchResponseSchema,
  cacheInfoSchema,
  extractDataSchema,
  extractFieldSchema,
  extractRequestSchema,
  extractResponseSchema,
  mapLinkSchema,
  mapRequestSchema,
  mapResponseSchema,
  metadataSchema,
  pageImageSchema,
  pageLinkSchema,
  planIdSchema,
  readAndScoreResponseSchema,
  readRequestSchema,
  readResponseSchema,
  renderOptionSchema,
  scoreCheckSchema,
  scoreResponseSchema,
  scoreSchema,
  statsSchema,
  urlRequestSchema,
  usageReportSchema,
  usageResponseSchema,
  warningSchema,
} from './schemas.js';

/**
 * Schemas that have a name in the OpenAPI document (`#/components/schemas/<name>`) and so in
 * the generated SDK types. Keyed by the schema object itself: wherever that very object
 * appears inside another schema, the document says `$ref` instead of repeating it.
 */
export const NAMED_SCHEMAS: ReadonlyMap<object, string> = new Map<object, string>([
  [readRequestSchema, 'ReadRequest'],
  [readResponseSchema, 'ReadResponse'],
  [renderOptionSchema, 'RenderMode'],
  [metadataSchema, 'Metadata'],
  [statsSchema, 'ReadStats'],
  [cacheInfoSchema, 'CacheInfo'],
  [warningSchema, 'Warning'],
  [pageLinkSchema, 'PageLink'],
  [pageImageSchema, 'PageImage'],
  [urlRequestSchema, 'ScoreRequest'],
  [scoreResponseSchema, 'ScoreResponse'],
  [scoreSchema, 'Score'],
  [scoreCheckSchema, 'ScoreCheck'],
  [readAndScoreResponseSchema, 'ReadAndScoreResponse'],
  [extractRequestSchema, 'ExtractRequest'],
  [extractFieldSchema, 'ExtractField'],
  [extractResponseSchema, 'ExtractResponse'],
  [extractDataSchema, 'ExtractData'],
  [mapRequestSchema, 'MapRequest'],
  [mapResponseSchema, 'MapResponse'],
  [mapLinkSchema, 'MapLink'],
  [batchRequestSchema, 'BatchRequest'],
  [batchResponseSchema, 'BatchResponse'],
  [usageResponseSchema, 'UsageResponse'],
  [usageReportSchema, 'UsageReport'],
  [planIdSchema, 'PlanId'],
  [createAccountRequestSchema, 'CreateAccountRequest'],
  [accountCreatedSchema, 'AccountCreated'],
  [accountSchema, 'Account'],
  [changePlanRequestSchema, 'ChangePlanRequest'],
  [createKeyRequestSchema, 'CreateKeyRequest'],
  [keyCreatedSchema, 'KeyCreated'],
  [creditPackRequestSchema, 'CreditPackRequest'],
  [creditPackAddedSchema, 'CreditPackAdded'],
]);

/** `schema` with every named sub-schema (other than `self`) replaced by its `$ref`. */
export function refsFor(schema: unknown, self?: unknown): unknown {
  if (schema === null || typeof schema !== 'object') return schema;
  const name = schema !== self ? NAMED_SCHEMAS.get(schema) : undefined;
  if (name) return { $ref: `#/components/schemas/${name}` };
  if (Array.isArray(schema)) return schema.map((item) => refsFor(item));
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, refsFor(value)]));
}
