/**
 * CPU work on fetched content (decoding, converting, parsing pages and sitemaps) as named,
 * pure jobs, so the caller does not decide where they run: in a worker thread of the
 * server's pool (./pool.ts), or in-process where no pool is given (CLI, tests, benches).
 * Jobs take and return plain data (structured-clone safe) and throw ServiceErrors.
 */
import { ServiceError } from '../../errors.js';

export interface Job<I, O> {
  /** Unique across the registry the worker loads. */
  readonly name: string;
  /** What the job does, for error messages ("converting the page"). */
  readonly label: string;
  run(input: I): O | Promise<O>;
  /** Bytes of input the job will chew through; drives the pool's wait estimate. */
  weight(input: I): number;
  /**
   * True when this input is so small that running it on the calling thread costs less
   * than a hop to a worker (a few ms at most, linear work only).
   */
  inline?(input: I): boolean;
}

export interface RunOptions {
  signal?: AbortSignal;
}

/** Where jobs run. */
export interface JobRunner {
  run<I, O>(job: Job<I, O>, input: I, opts?: RunOptions): Promise<O>;
}

/** Runs the job on the calling thread. */
export const IN_PROCESS: JobRunner = {
  async run(job, input, opts) {
    opts?.signal?.throwIfAborted();
    return job.run(input);
  },
};

/** The job through `runner`, or in-process when there is none. */
export function runJob<I, O>(runner: JobRunner | undefined, job: Job<I, O>, input: I, opts?: RunOptions): Promise<O> {
  return (runner ?? IN_PROCESS).run(job, input, opts);
}

/** What a worker loads: every job it may be asked to run, by name. */
export type JobRegistry = ReadonlyMap<string, Job<never, unknown>>;

export function jobRegistry(jobs: ReadonlyArray<Job<never, unknown>>): JobRegistry {
  const map = new Map<string, Job<never, unknown>>();
  for (const job of jobs) {
    if (map.has(job.name)) throw new Error(`two jobs are named ${job.name}`);
    map.set(job.name, job);
  }
  return map;
}

/** A job's failure as it crosses the thread boundary. */
export interface JobFailure {
  code: ServiceError['code'];
  message: string;
  fields: ServiceError['fields'];
}

export function toJobFailure(err: unknown): JobFailure {
  if (err instanceof ServiceError) return { code: err.code, message: err.message, fields: err.fields };
  return { code: 'EXTRACTION_FAILED', message: err instanceof Error ? err.message : String(err), fields: {} };
}

/** What a worker posts once its job registry is loaded, before any reply. */
export const WORKER_READY = 'pith-worker-ready';
