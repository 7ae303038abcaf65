import { ServiceError } from '../errors.js';

/**
 * The bytes one render may still receive: the call's 10 MB cap minus the document the
 * fetcher already read. Every response body (and every byte of a CONNECT tunnel) the
 * browser receives through the guard proxy is taken from it; the first take past the cap
 * aborts `signal` with TOO_LARGE, which ends the render.
 */
export class ByteBudget {
  private used = 0;
  private readonly controller = new AbortController();

  /** `maxBytes`: what is left for the browser; `capBytes`: the call's whole cap, for the message. */
  constructor(
    readonly maxBytes: number,
    private readonly capBytes: number = maxBytes,
  ) {}

  /** Aborted (reason: ServiceError TOO_LARGE) once the cap is passed. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get bytesUsed(): number {
    return this.used;
  }

  /** Counts `n` received bytes; false (and the signal aborted) when that passes the cap. */
  take(n: number): boolean {
    this.used += n;
    if (this.used <= this.maxBytes) return true;
    if (!this.controller.signal.aborted) {
      this.controller.abort(
        new ServiceError('TOO_LARGE', `the page and its resources are over ${Math.round(this.capBytes / 1024 / 1024)} MB`),
      );
    }
    return false;
  }
}
