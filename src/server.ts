import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { startSweeper } from './billing/sweeper.js';
import type { Config } from './config.js';
import { PdfWorkerPool } from './convert/workers/pdf-worker.js';
import { WorkerPool } from './convert/workers/pool.js';
import { MemoryBudget } from './fetch/memory-budget.js';
import { WORKER_JOBS_MODULE } from './ops/worker-jobs.js';
import { createFetcher } from './fetch/fetcher.js';
import type { RenderLogger } from './render/browser-pool.js';
import { createRenderer } from './render/renderer.js';
import { openStores, storeBackends } from './store/open.js';
import type { Stores } from './store/types.js';

/** How long shutdown waits for requests in flight before aborting them (they are refunded). */
const DRAIN_GRACE_MS = 20_000;

export interface RunningServer {
  app: FastifyInstance;
  stores: Stores;
  url: string;
  close(): Promise<void>;
}

/** Opens the stores, builds the app and listens. The only place that wires real clocks and randomness. */
export async function startServer(config: Config): Promise<RunningServer> {
  // Background connection errors (a store restarting) are logged once the app's logger exists;
  // requests meanwhile answer SERVICE_UNAVAILABLE and the clients reconnect by themselves.
  let logStoreError = (err: Error, store: string): void => void process.stderr.write(`${store} store error: ${err.message}\n`);
  const stores = await openStores(config, { onError: (err, store) => logStoreError(err, store) });
  const now = (): number => Date.now();
  // The ALLOW_PRIVATE_TARGETS warning is logged below through the app's logger, once.
  const quiet = { warn: () => {} };
  const fetcher = createFetcher({ allowPrivateTargets: config.allowPrivateTargets, cache: stores.cache, now, logger: quiet });
  // One pool of warm pdf.js workers per process: bounds concurrent PDF extractions and saves ~300 ms each.
  const pdfPool = new PdfWorkerPool();
  // Conversion and parsing off the event loop: a 10 MB page of pure markup costs seconds of CPU.
  const workers = new WorkerPool({ registry: WORKER_JOBS_MODULE });
  // Listen only once a worker has loaded: "ready" means a read can be converted now.
  await workers.warm();
  // Bodies held at once, over every call: overload is refused early instead of swapping.
  const memory = new MemoryBudget(config.bodyMemoryBytes);
  // The browser for `render` starts on the first render; its logs go to the app's logger.
  let renderLog: RenderLogger = { info: () => {}, warn: () => {}, error: () => {} };
  const renderLogger: RenderLogger = {
    info: (obj, msg) => renderLog.info(obj, msg),
    warn: (obj, msg) => renderLog.warn(obj, msg),
    error: (obj, msg) => renderLog.error(obj, msg),
  };
  const renderer = config.render ? createRenderer({ fetcher, logger: renderLogger }, config.render) : null;
  const app = await buildApp(config, {
    stores,
    fetcher,
    now,
    randomBytes,
    renderer,
    convert: { pdf: { pool: pdfPool } },
    runner: workers,
    memory,
  });
  renderLog = app.log;
  logStoreError = (err, store) => app.log.error({ err, store }, 'store connection error');
  if (config.allowPrivateTargets.length > 0) {
    app.log.warn(
      { allowPrivateTargets: config.allowPrivateTargets },
      'ALLOW_PRIVATE_TARGETS is set: the SSRF guard lets these private targets through. Never set this in production.',
    );
  }
  // Refunds charges a killed instance or a failed refund left open (one sweep at a time across instances).
  const sweeper = startSweeper({ stores, now, logger: app.log, openChargeTimeoutMs: config.openChargeTimeoutMs });
  const url = await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { stores: storeBackends(config), engineVersion: config.engineVersion, render: config.render ?? 'off' },
    `listening on ${url}`,
  );
  let closed: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closed ??= (async () => {
      const timer = setTimeout(() => app.abortInFlight(), DRAIN_GRACE_MS);
      timer.unref();
      try {
        await app.close(); // stops accepting; waits for requests in flight (their finally blocks release slots)
      } finally {
        clearTimeout(timer);
        await sweeper.stop();
        await renderer?.close();
        await fetcher.close();
        await pdfPool.close();
        await workers.close();
        await stores.close();
      }
    })();
    return closed;
  };
  return { app, stores, url, close };
}

/** Installs SIGTERM/SIGINT handlers that drain and exit. */
export function exitOnSignals(server: RunningServer): void {
  const onSignal = (signal: NodeJS.Signals): void => {
    server.app.log.info({ signal }, 'shutting down: draining requests in flight');
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        server.app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}
