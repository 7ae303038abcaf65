import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The one typed configuration object. Only this module reads `process.env`. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Admin API is disabled when null. */
  adminToken: string | null;
  /** When set, GET /metrics needs `Authorization: Bearer <token>`; open when null. */
  metricsToken: string | null;
  /** Part of every cache key; a deploy changes it. */
  engineVersion: string;
  logLevel: string;
  /** Test-only escape hatch for the SSRF guard: CIDRs or host:port. Empty by default. */
  allowPrivateTargets: string[];
  databaseUrl: string | null;
  redisUrl: string | null;
  /** Internal parallelism of one batch call. */
  batchParallelism: number;
  /** BODY_MEMORY_MB: fetched bodies held in memory at once, over all calls; more are refused with 503. */
  bodyMemoryBytes: number;
  /** OPEN_CHARGE_TIMEOUT_S: a charge still open this long after it was taken is refunded by the sweeper. */
  openChargeTimeoutMs: number;
  /** JavaScript rendering (`render` option); null when RENDER=off. */
  render: RenderConfig | null;
}

export interface RenderConfig {
  /** CHROMIUM_PATH: Debian's chromium, installed by scripts/install-system-deps.sh. */
  executablePath: string;
  /** RENDER_CONCURRENCY: browser tabs at once (default: one per core, at most 8). */
  concurrency: number;
  /** RENDER_TAB_MEMORY_MB: a tab's renderer above this resident size is killed (default 512). */
  tabMemoryMb: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const LOG_LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

export function packageVersion(): string {
  const pkgPath = join(projectRoot(), 'package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}

/** Root of the project, whether running from src/ (tsx) or dist/ (compiled). */
export function projectRoot(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..');
}

/** Build id written by `npm run build` (scripts/write-build-id.mjs); "dev" when running from source. */
function buildId(): string {
  try {
    return readFileSync(join(projectRoot(), 'dist', 'build-id.txt'), 'utf8').trim() || 'dev';
  } catch {
    return 'dev';
  }
}

export function defaultEngineVersion(): string {
  return `${packageVersion()}+${buildId()}`;
}

function parsePort(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new ConfigError(`PORT must be an integer 0-65535, got "${raw}"`);
  return n;
}

function parsePositiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new ConfigError(`${name} must be a positive integer, got "${raw}"`);
  return n;
}

function emptyToNull(raw: string | undefined): string | null {
  return raw === undefined || raw.trim() === '' ? null : raw.trim();
}

/**
 * Room for 25 bodies at the 10 MB cap (or many more ordinary pages); with the worker pool's
 * own heap this keeps an instance under 1 GB RSS at 100 concurrent 10 MB reads
 * (bench/overload.ts).
 */
const DEFAULT_BODY_MEMORY_MB = 256;

/** Bearer secrets guard the admin API and metrics; a short one can be guessed online. */
export const MIN_TOKEN_CHARS = 32;

function parseToken(name: string, raw: string | undefined): string | null {
  const token = emptyToNull(raw);
  if (token !== null && token.length < MIN_TOKEN_CHARS) {
    throw new ConfigError(`${name} must be at least ${MIN_TOKEN_CHARS} characters (e.g. openssl rand -hex 32), got ${token.length}`);
  }
  return token;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const logLevel = env.LOG_LEVEL?.trim() || 'info';
  if (!LOG_LEVELS.has(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${[...LOG_LEVELS].join(', ')}`);
  return {
    port: parsePort(env.PORT, 8080),
    host: env.HOST?.trim() || '127.0.0.1',
    dataDir: resolve(env.DATA_DIR?.trim() || './data'),
    adminToken: parseToken('ADMIN_TOKEN', env.ADMIN_TOKEN),
    metricsToken: parseToken('METRICS_TOKEN', env.METRICS_TOKEN),
    engineVersion: emptyToNull(env.ENGINE_VERSION) ?? defaultEngineVersion(),
    logLevel,
    allowPrivateTargets: (env.ALLOW_PRIVATE_TARGETS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    databaseUrl: emptyToNull(env.DATABASE_URL),
    redisUrl: emptyToNull(env.REDIS_URL),
    batchParallelism: parsePositiveInt('BATCH_PARALLELISM', env.BATCH_PARALLELISM, 8),
    bodyMemoryBytes: parsePositiveInt('BODY_MEMORY_MB', env.BODY_MEMORY_MB, DEFAULT_BODY_MEMORY_MB) * 1024 * 1024,
    openChargeTimeoutMs: parsePositiveInt('OPEN_CHARGE_TIMEOUT_S', env.OPEN_CHARGE_TIMEOUT_S, 900) * 1000,
    render: loadRenderConfig(env),
  };
}

function loadRenderConfig(env: NodeJS.ProcessEnv): RenderConfig | null {
  const mode = (env.RENDER ?? 'on').trim().toLowerCase();
  if (mode === 'off' || mode === 'false' || mode === '0') return null;
  if (mode !== 'on' && mode !== 'true' && mode !== '1' && mode !== '')
    throw new ConfigError(`RENDER must be on or off, got "${env.RENDER}"`);
  return {
    executablePath: env.CHROMIUM_PATH?.trim() || '/usr/bin/chromium',
    concurrency: parsePositiveInt('RENDER_CONCURRENCY', env.RENDER_CONCURRENCY, Math.max(1, Math.min(8, availableParallelism()))),
    tabMemoryMb: parsePositiveInt('RENDER_TAB_MEMORY_MB', env.RENDER_TAB_MEMORY_MB, 512),
  };
}
