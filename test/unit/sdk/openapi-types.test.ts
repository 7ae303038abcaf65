import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../src/errors.js';
import { buildOpenApiDocument } from '../../../src/http/openapi.js';
import { ERROR_CLASSES, PithError } from '../../../packages/sdk/src/index.js';
import { operationTypes } from '../../../scripts/openapi-to-ts.js';

/** Every /v1 operation and the SDK types that describe it: [request, response]. */
const SDK_TYPES: Record<string, [string | null, string]> = {
  'POST /v1/read': ['ReadRequest', 'ReadResponse'],
  'POST /v1/read-and-score': ['ReadRequest', 'ReadAndScoreResponse'],
  'POST /v1/score': ['ScoreRequest', 'ScoreResponse'],
  'POST /v1/extract': ['ExtractRequest', 'ExtractResponse'],
  'POST /v1/map': ['MapRequest', 'MapResponse'],
  'POST /v1/batch': ['BatchRequest', 'BatchResults'],
  'GET /v1/usage': [null, 'UsageResponse'],
};

const SDK_INDEX = fileURLToPath(new URL('../../../packages/sdk/src/index.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pith-sdk-types-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Type-level checks, one block per operation, that the compiler must accept. */
function checkSource(): { source: string; covered: string[] } {
  const doc = buildOpenApiDocument({ version: 'test' });
  const lines = [
    `import type * as Sdk from ${JSON.stringify(SDK_INDEX)};`,
    'type Assert<T extends true> = T;',
    'type Extends<A, B> = [A] extends [B] ? true : false;',
    'type Either<A extends boolean, B extends boolean> = A extends true ? true : B;',
    'type NoExtraKeys<A, B> = [Exclude<keyof A, keyof B>] extends [never] ? true : false;',
  ];
  const covered: string[] = [];
  operationTypes(doc).forEach((op, i) => {
    const sdk = SDK_TYPES[op.key];
    if (!sdk) throw new Error(`the SDK has no method for ${op.key}; add one and list it in SDK_TYPES`);
    covered.push(op.key);
    const [reqName, resName] = sdk;
    lines.push(`// ${op.key}`);
    if (op.response) {
      lines.push(`type Res${i} = ${op.response};`);
      // the SDK type is the documented type made looser (unknown[] for rich items) or stricter
      // (a discriminated union where the schema is flat), never a different one; and it
      // names no field the server does not document
      lines.push(`type _res${i} = Assert<Either<Extends<Res${i}, Sdk.${resName}>, Extends<Sdk.${resName}, Res${i}>>>;`);
      lines.push(`type _resKeys${i} = Assert<NoExtraKeys<Sdk.${resName}, Res${i}>>;`);
    }
    if (op.request && reqName) {
      lines.push(`type Req${i} = ${op.request};`);
      // what the SDK sends is a valid body, with no undocumented field
      lines.push(`type _req${i} = Assert<Extends<Sdk.${reqName}, Req${i}>>;`);
      lines.push(`type _reqKeys${i} = Assert<NoExtraKeys<Sdk.${reqName}, Req${i}>>;`);
    }
  });
  return { source: `${lines.join('\n')}\n`, covered };
}

describe('SDK types agree with the OpenAPI document', { timeout: 90_000 }, () => {
  it('compiles the SDK types against types generated from /openapi.json', () => {
    const { source, covered } = checkSource();
    expect(covered).toContain('POST /v1/read');
    expect(covered).toContain('GET /v1/usage');
    const file = join(dir, 'check.mts');
    writeFileSync(file, source);
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      skipLibCheck: true,
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : null;
      const line = where && d.file ? d.file.text.split('\n')[where.line] : '';
      return `${ts.flattenDiagnosticMessageText(d.messageText, '\n')}\n  at: ${line}`;
    });
    expect(diagnostics).toEqual([]);
  });

  it('a deliberately wrong SDK type fails the same check (the check has teeth)', () => {
    const bad = `import type * as Sdk from ${JSON.stringify(SDK_INDEX)};
type Assert<T extends true> = T;
type _x = Assert<[{ url: number }] extends [Sdk.ReadRequest] ? true : false>;
`;
    const file = join(dir, 'bad.mts');
    writeFileSync(file, bad);
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      skipLibCheck: true,
    });
    expect(ts.getPreEmitDiagnostics(program).length).toBeGreaterThan(0);
  });

  it('has one error class per registry code, each a PithError', () => {
    expect(Object.keys(ERROR_CLASSES).sort()).toEqual(Object.keys(ERROR_CODES).sort());
    for (const [code, Cls] of Object.entries(ERROR_CLASSES)) {
      const err = new Cls({ code, status: ERROR_CODES[code as keyof typeof ERROR_CODES].status, message: 'm' });
      expect(err).toBeInstanceOf(PithError);
      expect(err.name).toBe(Cls.name);
    }
  });
});
