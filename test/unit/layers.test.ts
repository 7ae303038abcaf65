import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ImportGraph, LayerRule } from '../helpers/import-graph.js';
import { importCycles, layerViolations, readImportGraph } from '../helpers/import-graph.js';

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
