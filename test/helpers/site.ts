import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type SiteHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

export interface Site {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  server: Server;
  /** Stops listening and destroys open sockets (so slow responses never hold a test open). */
  close(): Promise<void>;
}

/** Starts a loopback HTTP server on 127.0.0.1, port 0. Every test closes what it starts. */
export async function startSite(handler: SiteHandler): Promise<Site> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    Promise.resolve(handler(req, res)).catch((err: unknown) => {
      if (!res.headersSent) res.statusCode = 500;
      res.end(String(err));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
