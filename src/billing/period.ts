/** UTC month helpers. Plan credits reset at 00:00:00.000 UTC on the 1st. */

/** `YYYY-MM` of the UTC month containing `nowMs`. */
export function utcPeriod(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 7);
}

export function periodStart(nowMs: number): Date {
  const d = new Date(nowMs);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
}

/** First instant of the next UTC month: the reset time and quota `retry_after`. */
export function nextPeriodStart(nowMs: number): Date {
  const d = new Date(nowMs);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
}
