import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { ERROR_CODES } from '../../../src/errors.js';
import type { OperationSpec } from '../../../src/http/operation-spec.js';
import { operationName } from '../../../src/http/operation-spec.js';
import { OPERATIONS } from '../../../src/http/operations.js';
import { BILLING_HEADER_NAMES } from '../../../src/http/plugins/billing-headers.js';
import type { Fetcher } from '../../../src/fetch/types.js';
import { openSqliteStores } from '../../../src/store/sqlite/index.js';

const refuseAll: Fetcher = {
  fetch: async () => {
    throw new Error('no fetching in this test');
  },
};

describe('OpenAPI document, routes, error registry and docs/errors.md agree', () => {
  let app: FastifyInstance;
  let dir: string;
  const routes: Array<{ method: string; url: string }> = [];
  let doc: any;
  let closeStores: () => Promise<void> = async () => {};

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pith-openapi-'));
    const stores = openSqliteStores(dir);
    const config = loadConfig({ DATA_DIR: dir, ADMIN_TOKEN: 'x'.repeat(32), LOG_LEVEL: 'silent', ENGINE_VERSION: 't' });
    app = await buildApp(config, { stores, fetcher: refuseAll, now: () => Date.now(), randomBytes });
    await app.ready();
    routes.push(...app.routeTable.list());
    doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    closeStores = () => stores.close();
  });
  afterAll(async () => {
    await app.close();
    await closeStores();
    rmSync(dir, { recursive: true, force: true });
  });

  /** `METHOD /path` of every documented operation, and of every served route. */
  const documentedRoutes = (): string[] =>
    Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
  const servedRoutes = (list: Array<{ method: string; url: string }>): string[] =>
    [...new Set(list.map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`))].sort();

  it('documents every route and no route that does not exist', () => {
    expect(servedRoutes(routes)).toEqual(documentedRoutes());
  });

  it('a route served but not in the registry fails that check (a planted violation)', () => {
    expect(servedRoutes([...routes, { method: 'GET', url: '/v1/planted' }])).not.toEqual(documentedRoutes());
  });

  it('names every billed operation in the registry by its path under /v1 (the ledger and metrics name)', () => {
    for (const [name, op] of Object.entries(OPERATIONS) as Array<[string, OperationSpec]>) {
      if (op.cost) expect(operationName(op)).toBe(name);
    }
  });

  it('lists only registry codes, and every registry code somewhere', () => {
    const used = new Set<string>(doc['x-routing-errors']);
    for (const ops of Object.values(doc.paths as Record<string, Record<string, any>>)) {
      for (const op of Object.values(ops)) {
        for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
          for (const code of response['x-error-codes'] ?? []) {
            expect(ERROR_CODES[code as keyof typeof ERROR_CODES]?.status, code).toBe(Number(status));
            used.add(code);
          }
        }
      }
    }
    expect([...used].sort()).toEqual(Object.keys(ERROR_CODES).sort());
    expect(doc.components.schemas.Error.properties.code.enum.sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });

  it('docs/errors.md has exactly the registry codes with their statuses', () => {
    const md = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
    const rows = [...md.matchAll(/^\|\s*`([A-Z_]+)`\s*\|\s*(\d{3})\s*\|/gm)].map((m) => [m[1], Number(m[2])] as const);
    const documented = Object.fromEntries(rows);
    const registry = Object.fromEntries(Object.entries(ERROR_CODES).map(([c, v]) => [c, v.status]));
    expect(documented).toEqual(registry);
  });

  it('declares every billing header the hook writes, X-Refund-Pending on the error answers of billed operations', () => {
    const read = doc.paths['/v1/read'].post;
    const onSuccess = Object.keys(read.responses['200'].headers);
    const onError = Object.keys(read.responses['503'].headers);
    for (const name of BILLING_HEADER_NAMES) expect([...onSuccess, ...onError], name).toContain(name);
    expect(onError).toContain('X-Refund-Pending');
    expect(onSuccess).not.toContain('X-Refund-Pending');
    // an unbilled operation's errors carry no billing headers
    expect(doc.paths['/v1/usage'].get.responses['401'].headers).toBeUndefined();
  });

  it('every request example is a body its schema accepts; read, read-and-score and batch show read options', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    for (const op of Object.values(OPERATIONS) as OperationSpec[]) {
      if (!op.body || !op.bodyExamples) continue;
      const validate = ajv.compile(op.body);
      for (const [name, example] of Object.entries(op.bodyExamples)) {
        expect(validate(example.value) ? null : validate.errors, `${op.operationId} ${name}`).toBeNull();
      }
    }
    for (const path of ['/v1/read', '/v1/read-and-score', '/v1/batch']) {
      const examples = Object.values(doc.paths[path].post.requestBody.content['application/json'].examples) as Array<{ value: object }>;
      expect(
        examples.some((e) => 'target_selector' in e.value || 'format' in e.value),
        path,
      ).toBe(true);
    }
  });
});
