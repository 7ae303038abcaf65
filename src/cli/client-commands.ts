import type { Writable } from 'node:stream';
import type { PithClient, PithError, ScoreResponse } from '@pith/sdk';
import { loadConfig } from '../config.js';
import { isServiceError } from '../errors.js';
import { OPERATIONS } from '../http/operations.js';
import { extractDataOnWire, extractResponseBody } from '../http/wire/extract.js';
import { mapResponseBody } from '../http/wire/map.js';
import { readResponseBody } from '../http/wire/read.js';
import { scoreResponseBody } from '../http/wire/score.js';
import { createFetcher } from '../fetch/fetcher.js';
import { canonicalizeRequestUrl } from '../fetch/url.js';
import { fetchAndConvert } from '../ops/read.js';
import { readOptionsOf } from '../http/wire/read-options.js';
import { routeFragment } from '../ops/rendering.js';
import { createRenderer } from '../render/renderer.js';
import type { Renderer, RenderMode } from '../render/types.js';
import { compileFields } from '../ops/extract-data.js';
import { extractPage } from '../ops/extract.js';
import { compileFilter } from '../ops/map-rank.js';
import { MAP_LIMITS, mapSite } from '../ops/map.js';
import { scoreUrl } from '../ops/score.js';
import type { ParsedArgs } from './args.js';
import { UsageError } from './args.js';
import { READ_BOOLEAN_FLAGS, readOptionsBodyOf, readOutputText } from './read-flags.js';
import { createMemoryCache } from './memory-cache.js';

/**
 * `pith read | score | map | extract`: the user-facing commands. Without `--remote` they run
 * the engine in this process (no server, no account, same SSRF guard); with `--remote`
 * they call a pith server through @pith/sdk.
 */

/** Exit codes of the client commands (README "CLI"). */
export const EXIT = { OK: 0, FAILED: 1, USAGE: 2, UNREACHABLE: 3, LIMITED: 4 } as const;
const LIMIT_CODES = new Set(['RATE_LIMITED', 'PAYMENT_REQUIRED', 'CONCURRENT_LIMIT']);

export interface CliIo {
  stdout: Writable;
  stderr: Writable;
  /** Read for PITH_API_KEY / PITH_BASE_URL. */
  env: NodeJS.ProcessEnv;
}

/** Flags that take no value: `pith read --json <url>` must not read the URL as the flag's value. */
const BOOLEAN_FLAGS = ['json', 'quiet', 'fresh', ...READ_BOOLEAN_FLAGS];

export async function runClientCommand(command: string, parsed: ParsedArgs, io: CliIo): Promise<number> {
  const args: ParsedArgs = { positionals: [...parsed.positionals], options: new Map(parsed.options) };
  for (const flag of BOOLEAN_FLAGS) {
    const value = args.options.get(flag);
    if (typeof value === 'string') {
      args.positionals.push(value);
      args.options.set(flag, true);
    }
  }
  // `--render <url>`: the flag takes no value then, the URL is the positional
  const renderValue = args.options.get('render');
  if (typeof renderValue === 'string' && !['true', 'false', 'auto'].includes(renderValue)) {
    args.positionals.push(renderValue);
    args.options.set('render', true);
  }
  const url = args.positionals[1];
  if (!url) throw new UsageError(`missing <url>: pith ${command} <url>`);
  if (args.positionals.length > 2) throw new UsageError(`pith ${command} takes one <url>`);
  const quiet = args.options.has('quiet');
  const progress = (line: string): void => {
    if (!quiet) io.stderr.write(`pith: ${line}\n`);
  };
  try {
    const remote = remoteOptions(args, io.env);
    if (remote === null) {
      return await runLocally(command, url, args, io, progress);
    }
    const { PithClient: Client } = await import('@pith/sdk');
    const client = new Client({
      baseUrl: remote.baseUrl,
      apiKey: remote.apiKey,
      retry: {
        maxRetries: 3,
        onRetry: ({ error, delayMs }) => progress(`${error.code}: retrying in ${(delayMs / 1000).toFixed(1)} s`),
      },
    });
    progress(`${command} ${url} via ${remote.baseUrl}`);
    return await runRemote(client, command, url, args, io, progress);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    return reportFailure(err, io);
  }
}

function remoteOptions(args: ParsedArgs, env: NodeJS.ProcessEnv): { baseUrl: string; apiKey: string } | null {
  const remote = args.options.get('remote');
  if (remote === undefined) return null;
  const baseUrl = typeof remote === 'string' ? remote : env.PITH_BASE_URL;
  if (!baseUrl) throw new UsageError('--remote needs a base URL (or set PITH_BASE_URL)');
  const key = args.options.get('key');
  const apiKey = typeof key === 'string' ? key : env.PITH_API_KEY;
  if (!apiKey) throw new UsageError('--remote needs --key <api_key> (or set PITH_API_KEY)');
  return { baseUrl, apiKey };
}

/** `--render` → true, `--render=auto|true|false` → that; absent → "auto" (the service's default). */
function renderOption(args: ParsedArgs): RenderMode {
  const value = args.options.get('render');
  if (value === undefined) return 'auto';
  if (value === true || value === 'true') return true;
  if (value === 'false') return false;
  return 'auto';
}

async function runLocally(command: string, rawUrl: string, args: ParsedArgs, io: CliIo, progress: (line: string) => void): Promise<number> {
  const config = loadConfig(io.env);
  const url = canonicalizeRequestUrl(rawUrl, { allowPrivateTargets: config.allowPrivateTargets });
  const cache = createMemoryCache();
  const logger = { warn: (obj: object, msg?: string) => progress(`warning: ${msg ?? ''} ${JSON.stringify(obj)}`) };
  const fetcher = createFetcher({
    allowPrivateTargets: config.allowPrivateTargets,
    cache,
    now: () => Date.now(),
    // the fetcher's warnings (e.g. ALLOW_PRIVATE_TARGETS is set) go to stderr like progress
    logger,
  });
  const render = renderOption(args);
  // the browser starts only if a render is wanted (render: true, or "auto" on a shell)
  const renderer: Renderer | null =
    config.render && render !== false
      ? createRenderer({ fetcher, logger: { ...logger, info: () => {}, error: logger.warn } }, config.render)
      : null;
  const renderDeps = { renderer };
  const fragment = routeFragment(rawUrl);
  try {
    if (command === 'score') {
      progress(`scoring ${url} (local engine)`);
      const result = await scoreUrl({ fetcher }, { url });
      printScore(scoreResponseBody(result), args.options.has('json'), io);
      return EXIT.OK;
    }
    const deps = { fetcher, cache, engineVersion: 'local', now: () => Date.now(), render: renderDeps };
    if (command === 'map') {
      const opts = mapOptions(args);
      compileFilter(opts.include, opts.exclude);
      progress(`mapping ${url} (local engine)`);
      const result = await mapSite(deps, {
        url,
        limit: opts.limit ?? MAP_LIMITS.defaultLimit,
        include: opts.include,
        exclude: opts.exclude,
        search: opts.search ?? null,
        sameDomain: true,
      });
      printMap(mapResponseBody(result), args.options.has('json'), io, progress);
      return EXIT.OK;
    }
    if (command === 'extract') {
      progress(`extracting ${url} (local engine)`);
      const { result } = await extractPage(deps, {
        url,
        fresh: true,
        fields: compileFields(undefined),
        render,
        ...(fragment ? { fragment } : {}),
      });
      for (const w of result.warnings) progress(`warning ${w.code}: ${w.message}`);
      io.stdout.write(
        `${JSON.stringify(args.options.has('json') ? extractResponseBody(result) : extractDataOnWire(result.data), null, 2)}\n`,
      );
      return EXIT.OK;
    }
    progress(`reading ${url} (local engine)`);
    const options = readOptionsOf(readOptionsBodyOf(args));
    const { result } = await fetchAndConvert({ fetcher, render: renderDeps }, url, { render, options, ...(fragment ? { fragment } : {}) });
    progress(
      `${result.stats.rawHtmlSizeKb} KB → ${result.stats.markdownSizeKb} KB (${result.stats.reductionPercent}% smaller, ${result.stats.tokens} tokens) in ${result.stats.extractionTimeMs} ms${result.stats.rendered ? ' (rendered)' : ''}`,
    );
    for (const w of result.warnings) progress(`warning ${w.code}: ${w.message}`);
    if (args.options.has('json')) {
      io.stdout.write(`${JSON.stringify(readResponseBody(result, false), null, 2)}\n`);
    } else {
      io.stdout.write(readOutputText(result.content, result.links));
    }
    return EXIT.OK;
  } finally {
    await renderer?.close();
    await fetcher.close();
  }
}

async function runRemote(
  client: PithClient,
  command: string,
  url: string,
  args: ParsedArgs,
  io: CliIo,
  progress: (line: string) => void,
): Promise<number> {
  const json = args.options.has('json');
  const fresh = args.options.has('fresh');
  const render = args.options.has('render') ? { render: renderOption(args) } : {};
  const out = (value: unknown): void => void io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  switch (command) {
    case 'read': {
      const result = await client.read({ url, ...(fresh ? { fresh } : {}), ...render, ...readOptionsBodyOf(args) });
      progress(
        `cache ${result.billing.cache ?? '?'}, billed to ${result.billing.billed ?? '?'}, plan credits left ${result.billing.planRemaining ?? 'unlimited'}`,
      );
      for (const w of result.warnings ?? []) progress(`warning ${w.code}: ${w.message}`);
      if (json) out(result);
      else io.stdout.write(readOutputText(result.markdown ?? result.html ?? result.text ?? '', result.links));
      return EXIT.OK;
    }
    case 'score': {
      printScore(await client.score({ url }), json, io);
      return EXIT.OK;
    }
    case 'map': {
      const opts = mapOptions(args);
      const result = await client.map({
        url,
        ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
        ...(opts.search !== undefined ? { search: opts.search } : {}),
        ...(opts.include.length > 0 ? { include: opts.include } : {}),
        ...(opts.exclude.length > 0 ? { exclude: opts.exclude } : {}),
      });
      printMap(result, json, io, progress);
      return EXIT.OK;
    }
    case 'extract': {
      const result = await client.extract({ url, ...(fresh ? { fresh } : {}), ...render });
      out(json ? result : result.data);
      return EXIT.OK;
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

function printScore(result: ScoreResponse, json: boolean, io: CliIo): void {
  if (json) {
    io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  io.stdout.write(`${result.url}: ${result.score.value}/100 (${result.score.grade})\n`);
  for (const c of result.score.checks) {
    io.stdout.write(`  ${c.passed ? 'PASS' : 'FAIL'} ${c.label} (${c.points}/${c.max_points})${c.detail ? ` — ${c.detail}` : ''}\n`);
  }
}

function printMap(
  result: { status: 'success'; links: Array<{ url: string }> },
  json: boolean,
  io: CliIo,
  progress: (line: string) => void,
): void {
  progress(`${result.links.length} links`);
  if (json) io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else for (const link of result.links) io.stdout.write(`${link.url}\n`);
}

/** `--limit N --search Q --include G[,G…] --exclude G[,G…]` */
function mapOptions(args: ParsedArgs): { limit?: number; search?: string; include: string[]; exclude: string[] } {
  const limit = args.options.get('limit');
  const search = args.options.get('search');
  const list = (name: string): string[] => {
    const raw = args.options.get(name);
    return typeof raw === 'string'
      ? raw
          .split(',')
          .map((g) => g.trim())
          .filter(Boolean)
      : [];
  };
  return {
    ...(typeof limit === 'string' ? { limit: parseLimit(limit) } : {}),
    ...(typeof search === 'string' ? { search } : {}),
    include: list('include'),
    exclude: list('exclude'),
  };
}

/** `--limit`: the bounds of POST /v1/map's `limit`. */
function parseLimit(raw: string): number {
  const { minimum, maximum } = OPERATIONS.map.body.properties.limit;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < minimum || n > maximum) throw new UsageError(`--limit must be an integer ${minimum}-${maximum}`);
  return n;
}

/** One clear line on stderr, and the exit code for the kind of failure. */
function reportFailure(err: unknown, io: CliIo): number {
  if (isServiceError(err)) {
    io.stderr.write(`error ${err.code} (${err.status}): ${err.message}\n`);
    return EXIT.FAILED;
  }
  const pith = err as Partial<PithError> | null;
  if (pith && typeof pith.code === 'string' && typeof pith.status === 'number') {
    const id = pith.requestId ? ` [request ${pith.requestId}]` : '';
    io.stderr.write(`error ${pith.code}${pith.status ? ` (${pith.status})` : ''}: ${pith.message}${id}\n`);
    if (pith.code === 'CONNECTION_ERROR') return EXIT.UNREACHABLE;
    if (LIMIT_CODES.has(pith.code)) return EXIT.LIMITED;
    return EXIT.FAILED;
  }
  io.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
  return EXIT.FAILED;
}
