import { DeadlineExceeded } from './fetch-errors.js';

export type DeadlineOutcome<T> = { value: T } | { error: unknown; deadlineHit: boolean };

/**
 * Runs `work` under one deadline: the signal it gets aborts when `timeoutMs` passes or
 * the caller's signal aborts, and the outcome is there by then at the latest (even if
 * some step ignores the signal). `deadlineHit` tells our time-out from anything else.
 */
export async function withDeadline<T>(
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<DeadlineOutcome<T>> {
  const controller = new AbortController();
  let stop: (reason: unknown) => void = () => {};
  const stopped = new Promise<never>((_, reject) => {
    stop = (reason) => {
      controller.abort(reason);
      reject(reason);
    };
  });
  stopped.catch(() => {});
  const timer = setTimeout(() => stop(new DeadlineExceeded(`deadline of ${timeoutMs} ms exceeded`)), timeoutMs);
  const onCallerAbort = (): void => stop(callerSignal?.reason ?? new Error('aborted'));
  if (callerSignal?.aborted) onCallerAbort();
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  try {
    const running = controller.signal.aborted ? stopped : work(controller.signal);
    running.catch(() => {});
    return { value: await Promise.race([running, stopped]) };
  } catch (error) {
    const deadlineHit = controller.signal.aborted && controller.signal.reason instanceof DeadlineExceeded;
    return { error, deadlineHit };
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', onCallerAbort);
  }
}
