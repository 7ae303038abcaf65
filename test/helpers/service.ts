import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { buildApp } from '../../src/app.js';
import { addCreditPack, createAccount } from '../../src/billing/accounts.js';
import type { CreditPackId } from '../../src/billing/plans.js';
import type { Config } from '../../src/config.js';
import { loadConfig } from '../../src/config.js';
import type { ConvertOptions } from '../../src/convert/index.js';
import type { JobRunner } from '../../src/convert/workers/jobs.js';
import type { MemoryBudget } from '../../src/fetch/memory-budget.js';
import { createFetcher } from '../../src/fetch/fetcher.js';
import type { RendererOptions } from '../../src/render/renderer.js';
import { createRenderer } from '../../src/render/renderer.js';
import type { BrowserPool } from '../../src/render/browser-pool.js';
import type { Renderer } from '../../src/render/types.js';
import { openSqliteStores } from '../../src/store/sqlite/index.js';
import type { PlanId } from '../../src/billing/plans.js';
import type { Stores } from '../../src/store/types.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef0123456789';

export interface TestService {
  app: FastifyInstance;
  baseUrl: string;
  stores: Stores;
  config: Config;
  /** Mutable clock: tests move it instead of sleeping. */
  clock: { now: number };
  /** Every log line the service wrote, parsed. */
  logs: Array<Record<string, unknown>>;
  /** The renderer when `render` was given. */
  renderer: (Renderer & { pool: BrowserPool }) | null;
  newAccount(plan: PlanId): Promise<{ accountId: string; apiKey: string }>;
  addPack(accountId: string, pack: CreditPackId): Promise<number>;
  call(path: string, opts?: CallOptions): Promise<CallResult>;
  close(): Promise<void>;
}

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  key?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: any;
}

/**
 * Starts the real service on 127.0.0.1 (port 0) over a fresh SQLite dir, with the SSRF
 * escape hatch opened only for loopback targets.
 */
export interface ServiceOptions {
  now?: number;
  env?: Record<string, string>;
  convert?: ConvertOptions;
  /** Where content jobs run (the server's worker pool); in-process when absent. */
  runner?: JobRunner;
  /** The body memory budget; unbounded when absent. */
  memory?: MemoryBudget;
  /** Start a real renderer (Debian chromium) with these options; rendering is off without. */
  render?: Partial<RendererOptions> & { limits?: { totalTimeoutMs?: number; maxBytes?: number } };
}

export async function startService(opts: ServiceOptions = {}): Promise<TestService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pith-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_TOKEN,
    ENGINE_VERSION: 'test-engine',
    LOG_LEVEL: 'info',
    ALLOW_PRIVATE_TARGETS: '127.0.0.1/32',
    ...opts.env,
  });
  const clock = { now: opts.now ?? Date.UTC(2026, 10, 15, 12, 0, 0) };
  const now = (): number => clock.now;
  const stores = openSqliteStores(dataDir);
  const logs: Array<Record<string, unknown>> = [];
  const logStream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) logs.push(JSON.parse(line) as Record<string, unknown>);
      cb();
    },
  });
  const fetcher = createFetcher({ allowPrivateTargets: config.allowPrivateTargets, cache: stores.cache, now, lookup: loopbackOnlyLookup });
  let renderer: (Renderer & { pool: BrowserPool }) | null = null;
  if (opts.render) {
    const { limits: _limits, ...chosen } = opts.render;
    renderer = createRenderer({ fetcher }, { executablePath: '/usr/bin/chromium', concurrency: 2, tabMemoryMb: 512, ...chosen });
  }
  const app = await buildApp(config, {
    stores,
    fetcher,
    now,
    randomBytes,
    logStream,
    renderer,
    ...(opts.render?.limits ? { renderLimits: opts.render.limits } : {}),
    ...(opts.convert ? { convert: opts.convert } : {}),
    ...(opts.runner ? { runner: opts.runner } : {}),
    ...(opts.memory ? { memory: opts.memory } : {}),
  });
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const admin = { stores, now, randomBytes };
  return {
    app,
    baseUrl,
    stores,
    config,
    clock,
    logs,
    async newAccount(plan) {
      const created = await createAccount(admin, { plan });
      return { accountId: created.account.id, apiKey: created.apiKey };
    },
    addPack: (accountId, pack) => addCreditPack(admin, accountId, pack),
    call: (path, callOpts) => call(baseUrl, path, callOpts),
    renderer,
    async close() {
      await app.close();
      await renderer?.close();
      await fetcher.close();
      await stores.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Tests never resolve real names: `*.test` maps to 127.0.0.1, everything else is NXDOMAIN.
 * (IP literals never reach a lookup; the SSRF guard refuses non-allowed ones.)
 */
export async function loopbackOnlyLookup(hostname: string): Promise<Array<{ address: string; family: 4 | 6 }>> {
  if (hostname === 'test' || hostname.endsWith('.test')) return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
}

export async function call(baseUrl: string, path: string, opts: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key !== undefined) headers.authorization = `Bearer ${opts.key}`;
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await request(baseUrl + path, { method: opts.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  const text = await res.body.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
  return { status: res.statusCode, headers: flat, text, json };
}
