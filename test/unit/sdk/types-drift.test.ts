import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../src/http/openapi.js';
import { generateSdkTypes } from '../../../scripts/openapi-to-ts.js';

const committed = (): string => readFileSync(new URL('../../../packages/sdk/src/types.ts', import.meta.url), 'utf8');

describe('packages/sdk/src/types.ts is generated from /openapi.json', () => {
  it('equals a fresh generation (run `npm run sdk:types` after changing a schema)', () => {
    expect(committed()).toBe(generateSdkTypes(buildOpenApiDocument({ version: 'sdk' })));
  });

  it('fails when a schema changes and the file is not regenerated (a planted drift)', () => {
    const doc = buildOpenApiDocument({ version: 'sdk' }) as { components: { schemas: Record<string, any> } };
    doc.components.schemas.ReadStats.properties.planted_field = { type: 'integer' };
    expect(generateSdkTypes(doc)).not.toBe(committed());
    expect(generateSdkTypes(doc)).toContain('planted_field?: number;');
  });
});
