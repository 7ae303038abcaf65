import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ImportGraph, LayerRule } from '../helpers/import-graph.js';
import { importCycles, layerViolations, readImportGraph } from '../helpers/import-graph.js';
import { snakeCaseKeys, snakeCaseKeysIn } from '../helpers/wire-keys.js';

/** STYLE "Layers": http → ops → fetch | convert | billing → store. Entry points (app, server, cli, mcp) sit above http. */
const ENTRY = ['app', 'server', 'cli', 'mcp'];
const NETWORK_AND_STORAGE = ['undici', 'node:net', 'node:tls', 'node:http', 'node:https', 'node:dns', 'pg', 'ioredis', 'better-sqlite3'];

const LAYER_RULES: LayerRule[] = [
  {
    layer: 'ops',
    why: 'ops is plain functions, callable without a server',
    notLayers: ['http', ...ENTRY],
    notPackages: ['fastify', '@fastify'],
  },
  {
    layer: 'convert',
    why: 'convert turns bytes into Markdown and does no I/O',
    notLayers: ['fetch', 'store', 'billing', 'ops', 'http', 'render', 'metrics', ...ENTRY],
    notPackages: NETWORK_AND_STORAGE,
  },
  { layer: 'store', why: 'store sits at the bottom: it imports nothing above it', onlyLayers: ['errors'] },
  {
    layer: 'billing',
    why: 'billing is policy over the store contracts',
    notLayers: ['http', 'ops', 'fetch', 'convert', 'render', ...ENTRY],
  },
  {
    layer: 'fetch',
    why: 'fetch brings bytes; it knows nothing of billing, ops or conversion',
    notLayers: ['http', 'ops', 'billing', 'convert', ...ENTRY],
  },
  { layer: 'errors', why: 'the error registry is a leaf every layer may import', onlyLayers: [] },
];

const graph = readImportGraph(fileURLToPath(new URL('../../src', import.meta.url)));

describe('the import graph of src/ follows the layers (STYLE "Layers", DESIGN §8)', () => {
  it('reads the real graph', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('ops/read.ts')?.length).toBeGreaterThan(3);
  });

  it('has no import that crosses a layer the wrong way', () => {
    expect(layerViolations(graph, LAYER_RULES)).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it('catches a planted violation of each rule, and a planted cycle', () => {
    const planted: ImportGraph = new Map([
      ['ops/read.ts', [{ pkg: 'fastify' }, { pkg: '@fastify/ajv-compiler' }, { file: 'ops/rendering.ts' }]],
      ['ops/rendering.ts', [{ file: 'ops/read.ts' }]],
      ['convert/index.ts', [{ file: 'fetch/charset.ts' }, { pkg: 'undici' }]],
      ['store/sqlite/index.ts', [{ file: 'billing/plans.ts' }, { file: 'errors.ts' }]],
      ['billing/accounts.ts', [{ file: 'http/context.ts' }]],
    ]);
    expect(layerViolations(planted, LAYER_RULES)).toEqual([
      'ops/read.ts imports fastify: ops is plain functions, callable without a server',
      'ops/read.ts imports @fastify/ajv-compiler: ops is plain functions, callable without a server',
      'convert/index.ts imports fetch/charset.ts: convert turns bytes into Markdown and does no I/O',
      'convert/index.ts imports undici: convert turns bytes into Markdown and does no I/O',
      'store/sqlite/index.ts imports billing/plans.ts: store sits at the bottom: it imports nothing above it',
      'billing/accounts.ts imports http/context.ts: billing is policy over the store contracts',
    ]);
    expect(importCycles(planted)).toEqual(['ops/read.ts → ops/rendering.ts → ops/read.ts']);
  });
});

/**
 * Wire shaping happens in src/http/ only (ARCHITECTURE "Wire shaping"): the layers below build
 * camelCase domain objects, and http/wire/ names their fields for the answer. These layers may
 * not write a snake_case key, property or property access. Not checked: store (its row
 * mappers turn DB columns into camelCase records), and mcp and cli (clients of the wire above
 * http). The extra fields of `new ServiceError(…)` are the error envelope's, declared with the
 * error registry, and are not reported.
 */
const DOMAIN_LAYERS = ['ops', 'convert', 'billing', 'fetch', 'render', 'metrics'];

/**
 * File → snake_case names it may write: genuinely external formats read or written as they
 * are (a JSON-LD property, a third-party API's field), never our own wire. Empty today: the
 * JSON-LD and OpenGraph keys extract reads are data (computed keys), not written names.
 */
const ALLOWED_WIRE_KEYS: Record<string, string[]> = {};

describe('wire shaping only in src/http/ (issue 15)', () => {
  const src = fileURLToPath(new URL('../../src', import.meta.url));

  it('no snake_case keys are built below http/', () => {
    expect(snakeCaseKeysIn(src, DOMAIN_LAYERS, ALLOWED_WIRE_KEYS)).toEqual([]);
  });

  it('catches planted wire keys: literal, type, property write, quoted; not error fields or allowed names', () => {
    const planted = [
      'export interface Stats { raw_html_size_kb: number; rendered: boolean }',
      "const stats = { rendered: true, 'markdown_size_kb': 2, extraction_time_ms };",
      'metadata.site_name = name;',
      "throw new ServiceError('CONCURRENT_LIMIT', undefined, { in_flight: 2, retry_after: 1 });",
      'throw new ServiceError(err.code, m, { ...err.fields, refund_pending: true }, { cause: err });',
      "const ld = { '@type': 'Thing', date_published: '2026' };",
    ].join('\n');
    expect(snakeCaseKeys('ops/planted.ts', planted, new Set(['date_published']))).toEqual([
      'ops/planted.ts:1 raw_html_size_kb',
      'ops/planted.ts:2 markdown_size_kb',
      'ops/planted.ts:2 extraction_time_ms',
      'ops/planted.ts:3 site_name',
    ]);
  });
});
