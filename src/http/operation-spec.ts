import type { JSONSchema } from 'json-schema-to-ts';
import type { ErrorCode } from '../errors.js';

/**
 * The shape of one entry of the operation registry (operations.ts). Everything a route, the
 * OpenAPI document, the billing wrapper, MCP and the CLI need to know about an operation is
 * written here once.
 */
export interface OperationSpec {
  readonly operationId: string;
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Fastify form, `:param` for path parameters. */
  readonly path: string;
  /** One line; the cost and slot note are added from `cost` (costNote). */
  readonly summary: string;
  readonly description?: string;
  /** Who may call it: an API key, the deployment's ADMIN_TOKEN, METRICS_TOKEN when set, or anyone. */
  readonly auth: 'apiKey' | 'adminToken' | 'metricsToken' | 'none';
  /**
   * Billed operations hold a concurrency slot and take `credits` per call (or per URL of the
   * body) before the work runs; the billed scope reads this from the route config.
   */
  readonly cost?: { readonly credits: number; readonly per: 'call' | 'url'; readonly note?: string };
  /** Takes an `Idempotency-Key` header (plugins/idempotency.ts): a retry answers the first call's result. */
  readonly idempotent?: boolean;
  /** Request headers the operation reads besides auth (documented as header parameters). */
  readonly headers?: Readonly<Record<string, { readonly description: string; readonly schema: JSONSchema }>>;
  readonly params?: JSONSchema;
  readonly body?: JSONSchema;
  /** A body may be left out entirely (admin: create key). */
  readonly bodyOptional?: boolean;
  /** Named example bodies for the API document. */
  readonly bodyExamples?: Readonly<Record<string, { readonly summary: string; readonly value: Readonly<Record<string, unknown>> }>>;
  readonly response: {
    readonly status: 200 | 201 | 204;
    readonly description: string;
    /** The JSON body (application/json); the allow-list of what leaves the process. */
    readonly schema?: JSONSchema;
    /** Other media types the operation answers with, and their schema. */
    readonly alternatives?: Readonly<Record<string, JSONSchema>>;
    /** Headers of the success answer besides the billing ones. */
    readonly headers?: Readonly<Record<string, { readonly description: string; readonly schema: JSONSchema }>>;
  };
  /** More success answers besides `response` (MCP: 202 for a notification). */
  readonly otherResponses?: Readonly<Record<string, string>>;
  readonly errors: readonly ErrorCode[];
}

/** `(1 credit; cached 1 h; holds a concurrency slot)`: the cost part of a summary or tool description. */
export function costNote(op: OperationSpec): string | null {
  if (!op.cost) return null;
  const { credits, per, note } = op.cost;
  const amount = `${credits} credit${credits === 1 ? '' : 's'}${per === 'url' ? ' per URL' : ''}`;
  return [amount, note, 'holds a concurrency slot'].filter(Boolean).join('; ');
}

/** The summary as documented: the registry's line plus its cost note. */
export function documentedSummary(op: OperationSpec): string {
  const note = costNote(op);
  return note ? `${op.summary} (${note})` : op.summary;
}

/**
 * The name an operation goes by in the ledger, the metrics and MCP: its path under /v1
 * (`/v1/read-and-score` → `read-and-score`), which is also its registry key.
 */
export function operationName(op: Pick<OperationSpec, 'path'>): string {
  return op.path.startsWith('/v1/') ? op.path.slice('/v1/'.length) : op.path;
}
