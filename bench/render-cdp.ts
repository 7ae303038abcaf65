/**
 * A minimal Chrome DevTools Protocol driver over `--remote-debugging-pipe`, written only to
 * measure what playwright-core costs per render (bench/render.ts, "driver" section): the
 * same browser, the same guard proxy, the same fixed steps (context with its proxy → page
 * → navigate → outerHTML → dispose), no settle logic. Not used by the service.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

type Message = {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: unknown;
  sessionId?: string;
};

export class RawCdp {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: Record<string, unknown>) => void; reject: (e: unknown) => void }>();
  private readonly listeners = new Set<(m: Message) => void>();
  private buffer = '';

  private constructor(
    private readonly child: ChildProcess,
    private readonly out: Writable,
    private readonly profile: string,
  ) {
    (child.stdio[4] as Readable).on('data', (chunk: Buffer) => this.receive(chunk));
  }

  static async launch(executablePath: string, args: string[]): Promise<RawCdp> {
    const profile = mkdtempSync(join(tmpdir(), 'pith-bench-cdp-'));
    const child = spawn(executablePath, [...args, '--headless', '--remote-debugging-pipe', `--user-data-dir=${profile}`, 'about:blank'], {
      stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'],
    });
    const cdp = new RawCdp(child, child.stdio[3] as Writable, profile);
    await cdp.send('Target.getBrowserContexts'); // answers once the browser is up
    return cdp;
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    this.out.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  waitFor(method: string, sessionId: string): Promise<void> {
    return new Promise((resolve) => {
      const on = (m: Message): void => {
        if (m.method === method && m.sessionId === sessionId) {
          this.listeners.delete(on);
          resolve();
        }
      };
      this.listeners.add(on);
    });
  }

  /** One fixed render: a context through `proxyUrl`, navigate, wait for load, outerHTML, dispose. */
  async render(url: string, proxyUrl: string): Promise<string> {
    const { browserContextId } = await this.send('Target.createBrowserContext', {
      proxyServer: proxyUrl,
      proxyBypassList: '<-loopback>',
      disposeOnDetach: true,
    });
    const { targetId } = await this.send('Target.createTarget', { url: 'about:blank', browserContextId });
    const { sessionId } = (await this.send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
    await this.send('Page.enable', {}, sessionId);
    const loaded = this.waitFor('Page.loadEventFired', sessionId);
    await this.send('Page.navigate', { url }, sessionId);
    await loaded;
    const { result } = (await this.send(
      'Runtime.evaluate',
      { expression: 'document.documentElement.outerHTML', returnByValue: true },
      sessionId,
    )) as {
      result: { value: string };
    };
    await this.send('Target.disposeBrowserContext', { browserContextId });
    return result.value;
  }

  async close(): Promise<void> {
    await this.send('Browser.close').catch(() => {});
    await new Promise<void>((resolve) => {
      if (this.child.exitCode !== null) resolve();
      else this.child.once('exit', () => resolve());
    });
    rmSync(this.profile, { recursive: true, force: true });
  }

  private receive(chunk: Buffer): void {
    this.buffer += chunk.toString('utf8');
    for (let end = this.buffer.indexOf('\0'); end >= 0; end = this.buffer.indexOf('\0')) {
      const message = JSON.parse(this.buffer.slice(0, end)) as Message;
      this.buffer = this.buffer.slice(end + 1);
      if (message.id !== undefined) {
        const p = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.error) p?.reject(message.error);
        else p?.resolve(message.result ?? {});
      } else for (const l of this.listeners) l(message);
    }
  }
}
