// extract-eval adapter for pith's extraction engine (src/convert/html).
// Loaded by the harness with `-e /work/main/bench/extract-adapter.mjs`; the TypeScript source
// is transpiled once at load time by tsx (esbuild), so timed calls run plain JS.
import { register } from 'tsx/esm/api';

register();
const { htmlToMarkdown } = await import('../src/convert/html/index.ts');

export const meta = {
  name: 'pith',
  description: 'pith extraction engine: htmlparser2 DOM -> own main-content detection -> own GFM writer',
  output: 'markdown',
  packages: ['htmlparser2'],
};

export async function create() {
  return {
    extract({ url, html }) {
      return htmlToMarkdown(html, url || 'http://localhost/').markdown;
    },
  };
}
