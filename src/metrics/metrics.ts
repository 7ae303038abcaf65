import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { BillingEvent } from '../billing/billed-call.js';
import type { RenderEvent } from '../render/types.js';

/**
 * The service's Prometheus metrics, one registry per app (no prom-client globals, so
 * several apps in one process — tests — never share counters).
 */
export interface Metrics {
  registry: Registry;
  /** Counts one finished HTTP request of an operation. */
  observeRequest(sample: { op: string; code: string; seconds: number; cache: 'HIT' | 'MISS' | null }): void;
  /** BillingDeps.onEvent: slots in use, credits charged and refunded. */
  onBillingEvent(event: BillingEvent): void;
  /** RenderingDeps.onEvent: renders, their duration, fallbacks to the static result. */
  onRenderEvent(event: RenderEvent): void;
}

/** Error codes that come from fetching or converting the target (not from the caller or billing). */
export const FETCH_ERROR_CODES = new Set([
  'ROBOTS_BLOCKED',
  'WAF_BLOCKED',
  'URL_NOT_FOUND',
  'TOO_LARGE',
  'UNSUPPORTED_TYPE',
  'IMAGE_PDF',
  'EXTRACTION_FAILED',
  'TLS_ERROR',
  'UPSTREAM_ERROR',
  'TIMEOUT',
]);

/** Seconds; a render takes from a few hundred ms to the 15 s deadline. */
const RENDER_BUCKETS = [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 8, 12, 15];

/** Seconds; reads span a cache hit (~ms) to the 15 s fetch deadline. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30];

export function createMetrics(): Metrics {
  const registry = new Registry();
  const requests = new Counter({
    name: 'pith_requests_total',
    help: 'Finished requests by operation and result code (OK or an error code).',
    labelNames: ['op', 'code'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'pith_request_duration_seconds',
    help: 'Request latency by operation, from the request arriving to the answer being sent.',
    labelNames: ['op'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const cache = new Counter({
    name: 'pith_cache_lookups_total',
    help: 'Cached-operation answers by operation and result (hit or miss).',
    labelNames: ['op', 'result'] as const,
    registers: [registry],
  });
  const counts = { hit: 0, total: 0 };
  new Gauge({
    name: 'pith_cache_hit_ratio',
    help: 'Share of cached-operation answers served from the cache since the process started (0 when none).',
    registers: [registry],
    collect() {
      this.set(counts.total === 0 ? 0 : counts.hit / counts.total);
    },
  });
  const fetchErrors = new Counter({
    name: 'pith_fetch_errors_total',
    help: 'Requests that failed while fetching or converting the target, by error code.',
    labelNames: ['op', 'code'] as const,
    registers: [registry],
  });
  const slots = new Gauge({
    name: 'pith_slots_in_use',
    help: 'Concurrency slots held by requests in this process.',
    registers: [registry],
  });
  const slotRefusals = new Counter({
    name: 'pith_slot_refusals_total',
    help: 'Requests refused with CONCURRENT_LIMIT, by operation.',
    labelNames: ['op'] as const,
    registers: [registry],
  });
  const charged = new Counter({
    name: 'pith_credits_charged_total',
    help: 'Credits charged, by operation and pool (plan or credit).',
    labelNames: ['op', 'source'] as const,
    registers: [registry],
  });
  const refunded = new Counter({
    name: 'pith_credits_refunded_total',
    help: 'Credits refunded (failed calls, failed batch items), by operation and pool.',
    labelNames: ['op', 'source'] as const,
    registers: [registry],
  });

  const renders = new Counter({
    name: 'pith_renders_total',
    help: 'Browser renders by result: ok, or the error code that ended the render.',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  const renderSeconds = new Histogram({
    name: 'pith_render_duration_seconds',
    help: 'Time one render took, from asking for a browser tab to the rendered DOM (failed renders included).',
    buckets: RENDER_BUCKETS,
    registers: [registry],
  });
  const renderFallbacks = new Counter({
    name: 'pith_render_fallbacks_total',
    help: 'Wanted renders answered with the static result instead (RENDER_SKIPPED), by reason: off, unavailable, not_html, failed.',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const renderRefused = new Counter({
    name: 'pith_render_refused_requests_total',
    help: "Browser requests the render guard proxy refused (private or internal targets, bad schemes): a page's attempts, not errors.",
    registers: [registry],
  });

  return {
    registry,
    onRenderEvent(event) {
      switch (event.type) {
        case 'rendered':
          renders.inc({ result: 'ok' });
          renderSeconds.observe(event.seconds);
          break;
        case 'failed':
          renders.inc({ result: event.code });
          renderSeconds.observe(event.seconds);
          break;
        case 'fallback':
          renderFallbacks.inc({ reason: event.reason });
          break;
        case 'refused_requests':
          renderRefused.inc(event.count);
          break;
      }
    },
    observeRequest({ op, code, seconds, cache: cacheResult }) {
      requests.inc({ op, code });
      latency.observe({ op }, seconds);
      if (FETCH_ERROR_CODES.has(code)) fetchErrors.inc({ op, code });
      if (cacheResult !== null) {
        cache.inc({ op, result: cacheResult === 'HIT' ? 'hit' : 'miss' });
        counts.total++;
        if (cacheResult === 'HIT') counts.hit++;
      }
    },
    onBillingEvent(event) {
      switch (event.type) {
        case 'slot_acquired':
          slots.inc();
          break;
        case 'slot_released':
          slots.dec();
          break;
        case 'slot_refused':
          slotRefusals.inc({ op: event.operation });
          break;
        case 'charged':
          charged.inc({ op: event.operation, source: event.source }, event.amount);
          break;
        case 'refunded':
          refunded.inc({ op: event.operation, source: event.source }, event.amount);
          break;
      }
    },
  };
}
