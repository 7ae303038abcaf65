import { processTree } from './process-tree.js';

/**
 * Kills a renderer process that grows past the tab cap. V8's heap cap (`--js-flags`)
 * stops a page that allocates JavaScript objects without end, but not one that fills
 * ArrayBuffers, canvases or the DOM; this catches those. The page in that renderer
 * crashes (its render fails), the browser and the other tabs go on.
 */
export interface MemoryWatchdogOptions {
  /** The browser's pid (null while none runs). */
  browserPid: () => number | null;
  /** Resident bytes above which a renderer is killed. */
  maxRendererBytes: number;
  intervalMs?: number;
  /** Told about each kill (logs). */
  onKill?: (pid: number, rss: number) => void;
  /** Test seams. */
  list?: typeof processTree;
  kill?: (pid: number) => void;
}

export interface MemoryWatchdog {
  /** Starts polling (idempotent); called while renders are running. */
  start(): void;
  /** Stops polling when no render is running. */
  stop(): void;
  /** One check now (tests). */
  check(): void;
}

export function createMemoryWatchdog(opts: MemoryWatchdogOptions): MemoryWatchdog {
  const list = opts.list ?? processTree;
  const kill =
    opts.kill ??
    ((pid: number) => {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    });
  let timer: NodeJS.Timeout | null = null;
  const check = (): void => {
    const root = opts.browserPid();
    if (root === null) return;
    for (const p of list(root)) {
      if (p.type === 'renderer' && p.rss > opts.maxRendererBytes) {
        kill(p.pid);
        opts.onKill?.(p.pid, p.rss);
      }
    }
  };
  return {
    start() {
      if (timer !== null) return;
      timer = setInterval(check, opts.intervalMs ?? 500);
      timer.unref();
    },
    stop() {
      if (timer === null) return;
      clearInterval(timer);
      timer = null;
    },
    check,
  };
}
