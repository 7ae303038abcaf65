/**
 * The bound of an `Idempotency-Key`, kept once: the plugin that checks it
 * (plugins/idempotency.ts), /mcp (routes/mcp.ts) and the OpenAPI parameters read it here.
 */

/** Visible ASCII only; its source is also the header schema's `pattern`. */
const KEY_CHARS = /^[\x21-\x7e]+$/;

/** The longest key a /v1 operation takes. */
export const IDEMPOTENCY_KEY_MAX = 255;

/**
 * The longest key /mcp takes: it keys each tool call as `<key>.<n>` on its /v1 route, and
 * the suffix must still fit in IDEMPOTENCY_KEY_MAX.
 */
export const MCP_IDEMPOTENCY_KEY_MAX = IDEMPOTENCY_KEY_MAX - 15;

/** The header's JSON Schema for a bound. */
export function idempotencyKeySchema(maxLength: number) {
  return { type: 'string', minLength: 1, maxLength, pattern: KEY_CHARS.source } as const;
}

/** Whether `key` is 1 to `maxLength` visible ASCII characters. */
export function isIdempotencyKey(key: string, maxLength: number = IDEMPOTENCY_KEY_MAX): boolean {
  return key.length <= maxLength && KEY_CHARS.test(key);
}
