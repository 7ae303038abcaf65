/**
 * Worker-thread entry of WorkerPool: loads the job registry the pool names and runs one job
 * per message with the same pure functions the main thread would run.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { JobRegistry } from './jobs.js';
import { WORKER_READY, toJobFailure } from './jobs.js';
import type { WorkerReply, WorkerRequest } from './pool.js';

const { jobs } = (await import((workerData as { registry: string }).registry)) as { jobs: JobRegistry };

parentPort?.on('message', async (request: WorkerRequest) => {
  let reply: WorkerReply;
  try {
    const job = jobs.get(request.name);
    if (!job) throw new Error(`no job named ${request.name} in this worker's registry`);
    reply = { id: request.id, ok: true, output: await job.run(request.input as never) };
  } catch (err) {
    reply = { id: request.id, ...toJobFailure(err), ok: false };
  }
  parentPort?.postMessage(reply);
});
parentPort?.postMessage(WORKER_READY);
