import type { PithError } from './errors.js';
import { ConnectionError, errorFromEnvelope } from './errors.js';
import type { BatchResults, Billing, WithBilling } from './client-types.js';
import { IDEMPOTENT_PATHS } from './types.js';
import type {
  BatchRequest,
  ExtractRequest,
  ExtractResponse,
  MapRequest,
  MapResponse,
  ReadAndScoreResponse,
  ReadRequest,
  ReadResponse,
  ScoreRequest,
  ScoreResponse,
  UsageResponse,
} from './types.js';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface RetryInfo {
  /** 1 for the first retry. */
  attempt: number;
  delayMs: number;
  error: PithError;
}

export interface RetryOptions {
  /** Retries after the first try; default 3. 0 turns retrying off. */
  maxRetries?: number;
  /**
   * Also retry RATE_LIMITED (monthly quota used up). Off by default: its `retry_after` is
   * the start of the next month, so a retry waits at most `maxDelayMs` and usually fails again.
   */
  retryRateLimited?: boolean;
  /** First backoff step, doubled per attempt; default 500 ms. */
  baseDelayMs?: number;
  /** Cap of one wait; default 30 s. */
  maxDelayMs?: number;
  /** Called (and awaited) before each wait: progress output, metrics, tests. */
  onRetry?: (info: RetryInfo) => void | Promise<void>;
}

export interface PithClientOptions {
  /** e.g. `https://pith.example.com` or `http://127.0.0.1:8080` (no `/v1`). */
  baseUrl: string;
  /** `pk_…` */
  apiKey: string;
  /** A fetch implementation; default the global `fetch`. */
  fetch?: FetchLike;
  retry?: RetryOptions;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Sent as X-Request-Id (letters, digits, `._:-`, ≤ 64); the server mints one otherwise. */
  requestId?: string;
  /**
   * Sent as Idempotency-Key on billable calls. The client makes one per call by itself and
   * sends the same key on every retry of that call, so a retry after a lost reply is never
   * charged twice; give your own to make a call idempotent across processes or restarts.
   */
  idempotencyKey?: string;
}

/** Billable POSTs: the server keeps their answers per Idempotency-Key for 24 h (generated from /openapi.json). */
const IDEMPOTENT = new Set(IDEMPOTENT_PATHS);

const DEFAULT_RETRY = { maxRetries: 3, retryRateLimited: false, baseDelayMs: 500, maxDelayMs: 30_000 };

/** A client of one pith deployment with one API key. Safe to share; it keeps no state between calls. */
export class PithClient {
  readonly baseUrl: string;
  readonly #apiKey: string;
  readonly #fetch: FetchLike;
  readonly #retry: Required<Omit<RetryOptions, 'onRetry'>> & Pick<RetryOptions, 'onRetry'>;

  constructor(options: PithClientOptions) {
    if (!options.baseUrl) throw new TypeError('PithClient: baseUrl is required');
    if (!options.apiKey) throw new TypeError('PithClient: apiKey is required');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#apiKey = options.apiKey;
    const given = options.fetch;
    // Call the global fetch unbound-safe (browsers throw "Illegal invocation" otherwise).
    this.#fetch = given ?? ((input, init) => globalThis.fetch(input, init));
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
  }

  /** POST /v1/read: the page as Markdown with metadata, stats and warnings (1 credit). */
  read(request: ReadRequest | string, options?: CallOptions): Promise<WithBilling<ReadResponse>> {
    return this.#json('POST', '/v1/read', typeof request === 'string' ? { url: request } : request, options);
  }

  /** POST /v1/read with `Accept: text/markdown`: only the Markdown text (1 credit). */
  async readMarkdown(request: ReadRequest | string, options?: CallOptions): Promise<{ markdown: string; billing: Billing }> {
    const body = typeof request === 'string' ? { url: request } : request;
    const { response, billing } = await this.#send('POST', '/v1/read', body, 'text/markdown', options);
    return { markdown: await response.text(), billing };
  }

  /** POST /v1/read-and-score: a read plus the agent-readiness score (1 credit). */
  readAndScore(request: ReadRequest | string, options?: CallOptions): Promise<WithBilling<ReadAndScoreResponse>> {
    return this.#json('POST', '/v1/read-and-score', typeof request === 'string' ? { url: request } : request, options);
  }

  /** POST /v1/score: how readable the page is for AI agents (0 credits, takes a slot). */
  score(request: ScoreRequest | string, options?: CallOptions): Promise<WithBilling<ScoreResponse>> {
    return this.#json('POST', '/v1/score', typeof request === 'string' ? { url: request } : request, options);
  }

  /** POST /v1/extract: structured data (JSON-LD, Open Graph, headings, links, tables, CSS fields) (1 credit). */
  extract(request: ExtractRequest | string, options?: CallOptions): Promise<WithBilling<ExtractResponse>> {
    return this.#json('POST', '/v1/extract', typeof request === 'string' ? { url: request } : request, options);
  }

  /** POST /v1/map: the site's URLs from sitemaps and the page's links (1 credit). */
  map(request: MapRequest | string, options?: CallOptions): Promise<WithBilling<MapResponse>> {
    return this.#json('POST', '/v1/map', typeof request === 'string' ? { url: request } : request, options);
  }

  /** POST /v1/batch: up to 100 reads in one call and one slot (1 credit per URL; failed items refunded). */
  batch(request: BatchRequest | string[], options?: CallOptions): Promise<WithBilling<BatchResults>> {
    return this.#json('POST', '/v1/batch', Array.isArray(request) ? { urls: request } : request, options);
  }

  /** GET /v1/usage: credits and concurrency of the account (free, no slot). */
  usage(options?: CallOptions): Promise<WithBilling<UsageResponse>> {
    return this.#json('GET', '/v1/usage', undefined, options);
  }

  async #json<T>(method: string, path: string, body: unknown, options?: CallOptions): Promise<WithBilling<T>> {
    const { response, billing } = await this.#send(method, path, body, 'application/json', options);
    const data = (await response.json()) as T;
    return { ...data, billing };
  }

  /** One call with the retry policy; resolves only with a 2xx response. */
  async #send(
    method: string,
    path: string,
    body: unknown,
    accept: string,
    options: CallOptions = {},
  ): Promise<{ response: Response; billing: Billing }> {
    // one key for the whole call, the same on each retry
    const idempotencyKey = method === 'POST' && IDEMPOTENT.has(path) ? (options.idempotencyKey ?? newIdempotencyKey()) : null;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#once(method, path, body, accept, options, idempotencyKey);
      } catch (err) {
        const delayMs = this.#retryDelay(err, attempt, idempotencyKey !== null);
        if (delayMs === null) throw err;
        await this.#retry.onRetry?.({ attempt: attempt + 1, delayMs, error: err as PithError });
        await sleep(delayMs, options.signal);
      }
    }
  }

  async #once(method: string, path: string, body: unknown, accept: string, options: CallOptions, idempotencyKey: string | null) {
    const headers: Record<string, string> = { authorization: `Bearer ${this.#apiKey}`, accept };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (options.requestId) headers['x-request-id'] = options.requestId;
    if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey;
    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = JSON.stringify(body);
    if (options.signal) init.signal = options.signal;
    let response: Response;
    try {
      response = await this.#fetch(this.baseUrl + path, init);
    } catch (err) {
      if (options.signal?.aborted) throw options.signal.reason ?? err;
      throw new ConnectionError({
        code: 'CONNECTION_ERROR',
        status: 0,
        message: `cannot reach ${this.baseUrl}: ${describe(err)}`,
        cause: err,
      });
    }
    const billing = billingFromHeaders(response.headers);
    if (response.ok) return { response, billing };
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ConnectionError({
        code: 'CONNECTION_ERROR',
        status: response.status,
        message: `HTTP ${response.status} from ${this.baseUrl} is not a pith answer`,
        requestId: billing.requestId,
      });
    }
    const error = errorFromEnvelope(response.status, parsed, billing.requestId);
    const header = response.headers.get('retry-after');
    // Proxies may answer 429/503 with only the header: keep it as the envelope's retry_after.
    if (error.retryAfter === null && header !== null) error.fields.retry_after = /^\d+$/.test(header) ? Number(header) : header;
    throw error;
  }

  /**
   * How long to wait before retrying `err`, or null to give up. With an Idempotency-Key a
   * call is also retried when its reply was lost (a connection error), when the service was
   * busy (503), and while the first try with the key still runs (409 with retry_after): the
   * server answers a retry with the first call's result, charged once.
   */
  #retryDelay(err: unknown, attempt: number, idempotent: boolean): number | null {
    const policy = this.#retry;
    if (attempt >= policy.maxRetries) return null;
    const code = (err as { code?: unknown } | null)?.code;
    const safeWithKey =
      idempotent &&
      (code === 'CONNECTION_ERROR' ||
        code === 'SERVICE_UNAVAILABLE' ||
        (code === 'IDEMPOTENCY_CONFLICT' && (err as PithError).retryAfter !== null));
    const retryable = safeWithKey || code === 'CONCURRENT_LIMIT' || (code === 'RATE_LIMITED' && policy.retryRateLimited);
    if (!retryable) return null;
    const backoff = policy.baseDelayMs * 2 ** attempt;
    const hinted = retryAfterMs((err as PithError).retryAfter);
    // A little jitter so clients that collided do not collide again in lock-step.
    const jitter = Math.random() * 0.1 * backoff;
    return Math.min(policy.maxDelayMs, Math.max(hinted, backoff) + jitter);
  }
}

/** A random key per call (UUID v4 where the platform has it). */
function newIdempotencyKey(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c?.randomUUID) return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}

function retryAfterMs(value: number | string | null): number {
  if (typeof value === 'number') return value * 1000;
  if (typeof value === 'string') {
    const at = Date.parse(value);
    if (Number.isFinite(at)) return Math.max(0, at - Date.now());
  }
  return 0;
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    return cause instanceof Error ? `${err.message} (${cause.message})` : err.message;
  }
  return String(err);
}

function intHeader(headers: Headers, name: string): number | null {
  const raw = headers.get(name);
  if (raw === null || raw.trim() === '') return null;
  const n = Number(raw);
  return Number.isFinite(n) ? n : null;
}

/** The billing headers of a response, absent ones as null. */
export function billingFromHeaders(headers: Headers): Billing {
  const cache = headers.get('x-service-cache');
  const billed = headers.get('x-service-billed');
  return {
    cache: cache === 'HIT' || cache === 'MISS' ? cache : null,
    planRemaining: intHeader(headers, 'x-ratelimit-remaining'),
    planResetAt: headers.get('x-ratelimit-reset'),
    billed: billed === 'plan' || billed === 'credit' ? billed : null,
    creditsRemaining: intHeader(headers, 'x-credits-remaining'),
    concurrentRemaining: intHeader(headers, 'x-concurrent-remaining'),
    requestId: headers.get('x-request-id'),
  };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
