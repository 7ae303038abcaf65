/**
 * Writes packages/sdk/src/types.ts from the server's OpenAPI document (npm run sdk:types).
 * test/unit/sdk/types-drift.test.ts fails when the committed file differs from this output.
 */
import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from '../src/http/openapi.js';
import { generateSdkTypes } from './openapi-to-ts.js';

const target = new URL('../packages/sdk/src/types.ts', import.meta.url);
writeFileSync(target, generateSdkTypes(buildOpenApiDocument({ version: 'sdk' })));
console.log(`wrote ${target.pathname}`);
