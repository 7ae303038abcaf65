/**
 * The registry the server's worker threads load (convert/workers/pool.ts): every job the
 * operations may hand to a worker. A job missing here fails in the worker with a clear error,
 * and test/unit/ops/worker-jobs.test.ts checks that every job is listed.
 */
import { CONVERT_TEXT_JOB } from '../convert/convert-text.js';
import { FINISH_OUTPUT_JOB } from '../convert/output.js';
import { jobRegistry } from '../convert/workers/jobs.js';
import { siblingModule } from '../convert/workers/pool.js';
import { EXTRACT_JOB, PAGE_LINKS_JOB, SCORE_JOB, SITEMAP_JOB } from './jobs.js';

export const jobs = jobRegistry([CONVERT_TEXT_JOB, FINISH_OUTPUT_JOB, SCORE_JOB, EXTRACT_JOB, PAGE_LINKS_JOB, SITEMAP_JOB]);

/** This module's URL, for WorkerPool's `registry` option. */
export const WORKER_JOBS_MODULE = siblingModule(import.meta.url, './worker-jobs');
