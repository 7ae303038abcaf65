/**
 * Real `pith serve` processes for the multi-instance test and bench/scale.ts: each runs from
 * source (tsx), listens on 127.0.0.1 port 0 and reports its URL on stderr.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Instance {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote so far (for failure messages). */
  output(): string;
  /** SIGTERM (graceful drain) and wait for exit. */
  stop(): Promise<void>;
  /** SIGKILL and wait for exit: no drain, no finally blocks. */
  crash(): Promise<void>;
}

const READY = /pith is ready at (http:\/\/\S+)/;

export async function startInstance(env: Record<string, string>, timeoutMs = 30_000): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'src', 'cli', 'main.ts'), 'serve'], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`pith serve did not become ready:\n${out}`)), timeoutMs);
    const onData = (chunk: Buffer): void => {
      out = (out + chunk.toString('utf8')).slice(-20_000);
      const m = READY.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolveUrl(m[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`pith serve exited with ${code}:\n${out}`));
    });
  });
  const stopWith = async (signal: NodeJS.Signals): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { url, child, output: () => out, stop: () => stopWith('SIGTERM'), crash: () => stopWith('SIGKILL') };
}
