import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Site } from '../../helpers/site.js';
import { startSite } from '../../helpers/site.js';

export const SITES_DIR = fileURLToPath(new URL('../../fixtures/sites/', import.meta.url));

interface SiteConfig {
  status?: Record<string, number>;
  content_type?: Record<string, string>;
}

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  xml: 'application/xml',
  md: 'text/markdown; charset=utf-8',
};

export function fixtureSlugs(): string[] {
  return readdirSync(SITES_DIR).filter((d) => statSync(join(SITES_DIR, d)).isDirectory() && existsSync(join(SITES_DIR, d, 'index.html')));
}

/**
 * One loopback server for every folder of test/fixtures/sites: the site is picked by the
 * first label of the Host (`docs-site.sites.test:<port>`). `/` serves index.html, or
 * index.md when `Accept` names text/markdown first when the folder has one; `site.json` overrides
 * statuses and content types per path.
 */
export async function startFixtureSites(): Promise<Site & { urlOf(slug: string, path?: string): string }> {
  const site = await startSite((req, res) => {
    const slug = (req.headers.host ?? '').split('.')[0] ?? '';
    const dir = join(SITES_DIR, slug);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (!/^[a-z0-9-]+$/.test(slug) || !existsSync(dir) || path.includes('..')) return void res.writeHead(404).end();
    const configFile = join(dir, 'site.json');
    const config: SiteConfig = existsSync(configFile) ? (JSON.parse(readFileSync(configFile, 'utf8')) as SiteConfig) : {};
    const status = config.status?.[path];
    if (status !== undefined) return void res.writeHead(status, { 'content-type': 'text/plain' }).end(`status ${status}`);
    const wantsMd = (req.headers.accept ?? '').trim().toLowerCase().startsWith('text/markdown');
    let file = path === '/' ? (wantsMd && existsSync(join(dir, 'index.md')) ? 'index.md' : 'index.html') : path.slice(1);
    if (file === 'site.json' || file === 'expected.json') file = '';
    const full = join(dir, file);
    if (file === '' || !existsSync(full) || !statSync(full).isFile())
      return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    const ext = file.split('.').pop() ?? '';
    const type = config.content_type?.[path] ?? TYPES[ext] ?? 'application/octet-stream';
    res.writeHead(200, { 'content-type': type }).end(readFileSync(full));
  });
  return { ...site, urlOf: (slug, path = '/') => `http://${slug}.sites.test:${site.port}${path}` };
}
