/**
 * PROMPT_INJECTION on real pages (issue 21): runs the engine over both benchmark sets
 * (../shared/bench/article-extraction, ../shared/bench/wcxb-dev) and lists every page whose
 * Markdown draws the warning, with the matched text, so each can be judged by hand.
 *
 *   npx tsx bench/injection-scan.ts
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { findInjections } from '../src/convert/html/injection.js';
import { htmlToMarkdown } from '../src/convert/html/index.js';

const ROOT = new URL('../../shared/bench/', import.meta.url).pathname;
let pages = 0;
let flagged = 0;
for (const set of ['article-extraction', 'wcxb-dev']) {
  const dir = join(ROOT, set, 'html');
  for (const file of readdirSync(dir).sort()) {
    const html = gunzipSync(readFileSync(join(dir, file))).toString('utf8');
    let markdown = '';
    try {
      markdown = htmlToMarkdown(html, 'https://example.com/page').markdown;
    } catch {
      continue;
    }
    pages++;
    const hits = findInjections(markdown);
    if (hits.length === 0) continue;
    flagged++;
    console.log(`${set}/${file}: ${hits.map((h) => `${h.rule}: "${h.snippet}"`).join(' | ')}`);
  }
}
console.log(`${flagged} of ${pages} pages flagged`);
