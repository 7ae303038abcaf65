/**
 * @pith/sdk — typed client for the pith Web-to-Markdown read service.
 * Zero runtime dependencies; runs on Node 20+ and in browsers (global fetch, AbortSignal).
 */
export { PithClient, billingFromHeaders } from './client.js';
export type { CallOptions, FetchLike, PithClientOptions, RetryInfo, RetryOptions } from './client.js';
export * from './errors.js';
export type * from './types.js';
export type * from './client-types.js';
