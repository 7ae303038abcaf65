import { readFile } from 'node:fs/promises';
import type { FastifyReply } from 'fastify';

/** A file read once, on first use, and kept in memory (static assets are small and fixed per deploy). */
export function cachedFile(path: string): () => Promise<Buffer> {
  let loaded: Promise<Buffer> | null = null;
  return () => {
    loaded ??= readFile(path).catch((err: unknown) => {
      loaded = null;
      throw err;
    });
    return loaded;
  };
}

export async function sendFile(
  reply: FastifyReply,
  file: () => Promise<Buffer>,
  type: string,
  headers: Record<string, string> = {},
): Promise<FastifyReply> {
  const body = await file();
  for (const [k, v] of Object.entries(headers)) reply.header(k, v);
  return reply.type(type).header('Cache-Control', 'public, max-age=300').header('X-Content-Type-Options', 'nosniff').send(body);
}
