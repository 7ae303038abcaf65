/** A loopback TCP proxy that a test can cut and restore, to play a store going away. */
import type { Server, Socket } from 'node:net';
import { createServer, connect } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Stops listening and destroys every open connection (the server "goes away"). */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const listen = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const s = createServer((client) => {
        const upstream = connect(targetPort, targetHost);
        sockets.add(client).add(upstream);
        const drop = (): void => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
        client.pipe(upstream).pipe(client);
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        const addr = s.address();
        if (addr !== null && typeof addr === 'object') port = addr.port;
        server = s;
        resolve();
      });
    });
  const cut = async (): Promise<void> => {
    const s = server;
    server = null;
    for (const sock of sockets) sock.destroy();
    sockets.clear();
    if (s !== null) await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  await listen();
  return {
    get port() {
      return port;
    },
    cut,
    restore: listen,
    close: cut,
  };
}

/** A port on 127.0.0.1 with nothing listening (taken and released at once). */
export async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()));
  const addr = s.address();
  await new Promise<void>((resolve) => s.close(() => resolve()));
  if (addr === null || typeof addr !== 'object') throw new Error('no port');
  return addr.port;
}

/** Polls `fn` until it resolves (a reconnect), giving up after `attempts` tries. */
export async function eventually<T>(fn: () => Promise<T>, attempts = 100, delayMs = 100): Promise<T> {
  let last: unknown;
  for (let i = 0; i < attempts; i++) {
    try {
      return await fn();
    } catch (err) {
      last = err;
      await new Promise((r) => setTimeout(r, delayMs));
    }
  }
  throw last;
}
