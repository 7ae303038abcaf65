import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { projectRoot } from '../../config.js';
import { cachedFile, sendFile } from './static-file.js';
import { OPERATIONS } from '../operations.js';
import { operationRoute } from '../register-operation.js';

/** The one outside URL in the Redoc bundle (its footer logo); swapped for a blank image so the page loads nothing from a CDN. */
const REDOC_CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const BLANK_SVG = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E";

const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>pith API reference</title>
<link rel="icon" href="data:,">
<style>body { margin: 0; }</style>
</head>
<body>
<redoc spec-url="/openapi.json" path-in-middle-panel="true" required-props-first="true"></redoc>
<script src="/docs/redoc.standalone.js"></script>
</body>
</html>
`;

/**
 * GET /docs: the API reference rendered by Redoc from /openapi.json. The Redoc bundle is
 * served from node_modules (npm package `redoc`), never from a CDN.
 */
export function registerDocsRoutes(app: FastifyInstance): void {
  const file = cachedFile(join(projectRoot(), 'node_modules', 'redoc', 'bundles', 'redoc.standalone.js'));
  let patched: Promise<Buffer> | null = null;
  const bundle = (): Promise<Buffer> => {
    patched ??= file().then((buf) => Buffer.from(buf.toString('utf8').replaceAll(REDOC_CDN_LOGO, BLANK_SVG), 'utf8'));
    return patched;
  };
  operationRoute(app, OPERATIONS.docs).handle(async (_request, reply) => reply.type('text/html; charset=utf-8').send(DOCS_HTML));
  operationRoute(app, OPERATIONS.docsBundle).handle(async (_request, reply) =>
    sendFile(reply, bundle, 'application/javascript; charset=utf-8'),
  );
}
