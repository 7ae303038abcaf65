import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { projectRoot } from '../../config.js';
import { ServiceError } from '../../errors.js';
import { cachedFile, sendFile } from './static-file.js';
import { OPERATIONS } from '../operations.js';
import { operationRoute } from '../register-operation.js';

/** The page may call this origin only, run its own scripts only, and show images from anywhere. */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: http: https:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * GET /: the playground (static HTML + JS in src/http/static/playground, no framework),
 * and its assets at /playground/{file}: a fixed list, never a path from the request.
 */
export function registerPlaygroundRoutes(app: FastifyInstance): void {
  const root = projectRoot();
  const own = (name: string) => cachedFile(join(root, 'src', 'http', 'static', 'playground', name));
  const assets: Record<string, { file: () => Promise<Buffer>; type: string }> = {
    'playground.js': { file: own('playground.js'), type: 'application/javascript; charset=utf-8' },
    'playground.css': { file: own('playground.css'), type: 'text/css; charset=utf-8' },
    'marked.min.js': {
      file: cachedFile(join(root, 'node_modules', 'marked', 'marked.min.js')),
      type: 'application/javascript; charset=utf-8',
    },
    'purify.min.js': {
      file: cachedFile(join(root, 'node_modules', 'dompurify', 'dist', 'purify.min.js')),
      type: 'application/javascript; charset=utf-8',
    },
  };
  const page = own('index.html');
  operationRoute(app, OPERATIONS.playground).handle(async (_request, reply) =>
    sendFile(reply, page, 'text/html; charset=utf-8', { 'Content-Security-Policy': CSP }),
  );
  operationRoute(app, OPERATIONS.playgroundAsset).handle(async (request, reply) => {
    const asset = Object.hasOwn(assets, request.params.file) ? assets[request.params.file] : undefined;
    if (!asset) throw new ServiceError('NOT_FOUND', `no playground asset ${request.params.file}`);
    return sendFile(reply, asset.file, asset.type);
  });
}
