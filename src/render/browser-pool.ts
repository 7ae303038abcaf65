import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import type { Server, Socket } from 'node:net';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import { ServiceError } from '../errors.js';
import { chromiumArgs } from './chromium-args.js';
import type { MemoryWatchdog } from './memory-watchdog.js';
import { createMemoryWatchdog } from './memory-watchdog.js';
import { findBrowserPid } from './process-tree.js';

const execFileAsync = promisify(execFile);

/**
 * One Chromium per instance, started on first use and started again after it dies, and a
 * bounded number of contexts (one per render, closed after it). The browser's own
 * proxy (`--proxy-server`) points at a listener of ours that refuses everything: only a
 * context created with its render's guard proxy can reach anything.
 */
export interface BrowserPoolOptions {
  executablePath: string;
  /** The browser's User-Agent for its Chromium version (set once, browser-wide). */
  userAgent: (browserVersion: string) => string;
  /** Contexts open at once (RENDER_CONCURRENCY); more renders wait their turn. */
  concurrency: number;
  /** A renderer process above this resident size is killed (its page fails). */
  tabMemoryMb: number;
  /** Longest browser start (default 20 s). */
  launchTimeoutMs?: number;
  /** After a failed start, calls answer "unavailable" this long before the next try (default 30 s). */
  retryAfterMs?: number;
  logger?: RenderLogger;
}

export interface RenderLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class BrowserPool {
  private browser: Browser | null = null;
  private browserPid: number | null = null;
  private launching: Promise<Browser> | null = null;
  private failure: { reason: string; until: number } | null = null;
  private active = 0;
  private readonly waiters: Waiter[] = [];
  private closed = false;
  private denyProxy: { server: Server; url: string; sockets: Set<Socket> } | null = null;
  /** An extra switch that names this pool's browser among the machine's processes. */
  private readonly marker = `--pith-render-pool=${randomUUID()}`;
  private readonly watchdog: MemoryWatchdog;
  /** Connections that reached the browser-wide proxy: should stay 0 (every context has its own). */
  strayConnections = 0;
  /** Their first request lines (diagnostics), at most 20. */
  readonly strayRequests: string[] = [];

  constructor(private readonly opts: BrowserPoolOptions) {
    this.watchdog = createMemoryWatchdog({
      browserPid: () => this.browserPid,
      maxRendererBytes: opts.tabMemoryMb * 1024 * 1024,
      onKill: (pid, rss) => opts.logger?.warn({ pid, rssMb: Math.round(rss / 1024 / 1024) }, 'render tab over its memory cap: killed'),
    });
  }

  get concurrency(): number {
    return this.opts.concurrency;
  }

  /** The browser's pid while one runs (bench/render.ts reads its process tree). */
  get pid(): number | null {
    return this.browserPid;
  }

  unavailableReason(): string | null {
    if (this.closed) return 'the renderer is shut down';
    if (this.failure && performance.now() < this.failure.until) return this.failure.reason;
    try {
      accessSync(this.opts.executablePath, constants.X_OK);
    } catch {
      return `no browser at ${this.opts.executablePath}`;
    }
    return null;
  }

  /**
   * Runs `work` in a fresh context: waits for a free context (until `deadlineAt` or the
   * signal), starts the browser if none runs, always closes the context after.
   */
  async withContext<T>(
    options: () => BrowserContextOptions,
    wait: { signal: AbortSignal; deadlineAt: number },
    work: (context: BrowserContext) => Promise<T>,
  ): Promise<T> {
    const reason = this.unavailableReason();
    if (reason !== null) throw new ServiceError('RENDER_UNAVAILABLE', `rendering is unavailable: ${reason}`);
    await this.take(wait);
    let context: BrowserContext | null = null;
    try {
      const browser = await untilAborted(this.ensureBrowser(), wait.signal);
      const creating = browser.newContext(options());
      // given up while it was being made: close it once it exists
      creating.catch(() => {});
      context = await untilAborted(creating, wait.signal).catch((err: unknown) => {
        void creating.then(closeQuietly, () => {});
        throw err;
      });
      return await work(context);
    } finally {
      if (context) await closeQuietly(context);
      this.give();
    }
  }

  /** Starts the browser now (bench and tests; the service starts it on the first render). */
  async start(): Promise<void> {
    await this.ensureBrowser();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiters.splice(0)) w.reject(new ServiceError('RENDER_UNAVAILABLE', 'the renderer is shut down'));
    this.watchdog.stop();
    const browser = this.browser ?? (await this.launching?.catch(() => null)) ?? null;
    this.browser = null;
    await browser?.close().catch(() => {});
    if (this.denyProxy) {
      for (const s of this.denyProxy.sockets) s.destroy();
      await new Promise<void>((resolve) => this.denyProxy?.server.close(() => resolve()));
      this.denyProxy = null;
    }
  }

  private take(wait: { signal: AbortSignal; deadlineAt: number }): Promise<void> {
    wait.signal.throwIfAborted();
    if (this.active < this.opts.concurrency) {
      this.active++;
      this.watchdog.start();
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const cleanup = (): void => {
        clearTimeout(timer);
        wait.signal.removeEventListener('abort', onAbort);
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
      };
      const waiter: Waiter = {
        resolve: () => {
          cleanup();
          resolve();
        },
        reject: (err) => {
          cleanup();
          reject(err);
        },
      };
      const onAbort = (): void => waiter.reject(wait.signal.reason);
      const timer = setTimeout(
        () => waiter.reject(new ServiceError('TIMEOUT', 'every browser tab stayed busy until the deadline')),
        Math.max(0, wait.deadlineAt - performance.now()),
      );
      wait.signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private give(): void {
    const next = this.waiters.shift();
    if (next) {
      next.resolve(); // the slot passes on: `active` stays
      return;
    }
    this.active--;
    if (this.active === 0) this.watchdog.stop();
  }

  private ensureBrowser(): Promise<Browser> {
    if (this.browser?.isConnected()) return Promise.resolve(this.browser);
    this.launching ??= this.launch().finally(() => {
      this.launching = null;
    });
    return this.launching;
  }

  private async launch(): Promise<Browser> {
    const started = performance.now();
    try {
      const deny = await this.ensureDenyProxy();
      const version = await chromiumVersion(this.opts.executablePath);
      const { chromium } = await import('playwright-core');
      const browser = await chromium.launch({
        executablePath: this.opts.executablePath,
        headless: true,
        timeout: this.opts.launchTimeoutMs ?? 20_000,
        proxy: { server: deny, bypass: '<-loopback>' },
        args: [
          ...chromiumArgs({ proxyHost: '127.0.0.1', jsHeapMb: Math.max(64, Math.floor(this.opts.tabMemoryMb / 2)) }),
          `--user-agent=${this.opts.userAgent(version)}`,
          this.marker,
        ],
        // the server owns shutdown: it closes the pool itself
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
      if (this.closed) {
        await browser.close().catch(() => {});
        throw new ServiceError('RENDER_UNAVAILABLE', 'the renderer is shut down');
      }
      browser.on('disconnected', () => {
        if (this.browser !== browser) return;
        this.browser = null;
        this.browserPid = null;
        if (!this.closed) this.opts.logger?.warn({}, 'the render browser stopped; the next render starts a new one');
      });
      this.browser = browser;
      this.browserPid = findBrowserPid(this.marker);
      this.failure = null;
      this.opts.logger?.info(
        { version: browser.version(), ms: Math.round(performance.now() - started), pid: this.browserPid },
        'render browser started',
      );
      return browser;
    } catch (err) {
      if (err instanceof ServiceError) throw err;
      const message = err instanceof Error ? (err.message.split('\n')[0] ?? err.message) : String(err);
      const reason = `the browser could not start (${message.slice(0, 200)})`;
      this.failure = { reason, until: performance.now() + (this.opts.retryAfterMs ?? 30_000) };
      this.opts.logger?.error({ err }, 'render browser failed to start');
      throw new ServiceError('RENDER_UNAVAILABLE', `rendering is unavailable: ${reason}`, {}, { cause: err });
    }
  }

  /** The browser-wide proxy: answers 403 to anything and counts it. */
  private async ensureDenyProxy(): Promise<string> {
    if (this.denyProxy) return this.denyProxy.url;
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      this.strayConnections++;
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
      socket.once('data', (chunk: Buffer) => {
        if (this.strayRequests.length < 20) this.strayRequests.push(chunk.toString('latin1').split('\r\n')[0] ?? '');
        socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    server.unref();
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    this.denyProxy = { server, url, sockets };
    return url;
  }
}

/** `chromium --version` → "156.0.8078.79" ('' when it does not say). */
async function chromiumVersion(executablePath: string): Promise<string> {
  const { stdout } = await execFileAsync(executablePath, ['--version'], { timeout: 10_000 });
  return /(?<!\d)\d+(?:\.\d+){1,3}/.exec(stdout)?.[0] ?? '';
}

/** Closing a context kills its renderers; a hung close must not hold the slot forever. */
async function closeQuietly(context: BrowserContext): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    context.close().catch(() => {}),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, 5_000);
    }),
  ]);
  clearTimeout(timer);
}

function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
