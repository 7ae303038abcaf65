import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_MAX, MCP_IDEMPOTENCY_KEY_MAX, isIdempotencyKey } from '../../../src/http/idempotency-key.js';
import { buildOpenApiDocument } from '../../../src/http/openapi.js';

type Param = { name: string; schema: object };
const doc = buildOpenApiDocument({ version: 't' }) as { paths: Record<string, Record<string, { parameters?: Param[] }>> };
const keySchema = (path: string): object | undefined =>
  doc.paths[path]?.post?.parameters?.find((p) => p.name === 'Idempotency-Key')?.schema;

describe('Idempotency-Key: the documented bound is the one the server checks', () => {
  const samples = (max: number) => ['k', 'a'.repeat(max), 'a'.repeat(max + 1), '', 'with space', 'é', 'key-1:retry.2'];

  for (const [path, max] of [
    ['/v1/read', IDEMPOTENCY_KEY_MAX],
    ['/mcp', MCP_IDEMPOTENCY_KEY_MAX],
  ] as const) {
    it(`${path}: the OpenAPI schema and the check accept the same keys (max ${max})`, () => {
      const schema = keySchema(path);
      expect(schema).toMatchObject({ maxLength: max });
      const validate = new Ajv({ strict: false }).compile(schema as object);
      for (const key of samples(max)) expect(validate(key), JSON.stringify(key)).toBe(isIdempotencyKey(key, max));
    });
  }

  it("/mcp's per-call key `<key>.<n>` still fits the /v1 bound", () => {
    expect(isIdempotencyKey(`${'a'.repeat(MCP_IDEMPOTENCY_KEY_MAX)}.99999`)).toBe(true);
  });
});
