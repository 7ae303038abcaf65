/**
 * Costs of the read options (issue 17), same process, interleaved passes:
 *  1. stats.tokens: gpt-tokenizer o200k_base on the Markdown of the article set
 *     (../shared/bench/article-extraction), per page and as a share of the conversion.
 *  2. format: html on a 10 MB page: our allow-list writer over the cleaned DOM, against
 *     sanitize-html (the library route: serialise the cleaned content, sanitise it) when
 *     SANITIZE_HTML points at an install of it (sanitize-html@2.17 is the last line for
 *     Node 20; `npm i --prefix /tmp/s sanitize-html@2.17` then
 *     SANITIZE_HTML=/tmp/s/node_modules/sanitize-html/index.js).
 * Run: npx tsx bench/read-options.ts [--repeat 3]
 */
import { readFileSync, readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gunzipSync } from 'node:zlib';
import { HTML_OUTPUT_ELEMENTS } from '../src/convert/html/html-output.js';
import { htmlToMarkdown } from '../src/convert/html/index.js';
import { countTokens } from '../src/convert/tokens.js';

const REPEAT = Number(process.argv[process.argv.indexOf('--repeat') + 1]) || 3;
const ARTICLES = join(import.meta.dirname, '../../shared/bench/article-extraction/html');

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const spread = (xs: number[]): string => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;

async function tokensCost(): Promise<void> {
  const pages = readdirSync(ARTICLES).map((f) => gunzipSync(readFileSync(join(ARTICLES, f))).toString('utf8'));
  await countTokens('warm up the encoder');
  const convertMs: number[] = [];
  const tokenMs: number[] = [];
  let tokens = 0;
  let chars = 0;
  for (let pass = 0; pass < REPEAT; pass++) {
    let convert = 0;
    let count = 0;
    for (const html of pages) {
      const t0 = performance.now();
      const { markdown } = htmlToMarkdown(html, 'https://bench.example/');
      const t1 = performance.now();
      const n = await countTokens(markdown);
      count += performance.now() - t1;
      convert += t1 - t0;
      if (pass === 0) {
        tokens += n;
        chars += markdown.length;
      }
    }
    convertMs.push(convert / pages.length);
    tokenMs.push(count / pages.length);
  }
  console.log(`\n## stats.tokens (o200k_base, gpt-tokenizer) on ${pages.length} article pages, ${REPEAT} passes`);
  console.log('| | median ms / page | spread |');
  console.log('|---|---|---|');
  console.log(`| conversion (htmlToMarkdown) | ${median(convertMs).toFixed(2)} | ${spread(convertMs)} |`);
  console.log(`| token count | ${median(tokenMs).toFixed(2)} | ${spread(tokenMs)} |`);
  console.log(
    `token count / conversion: ${((100 * median(tokenMs)) / median(convertMs)).toFixed(1)} %; ${tokens} tokens for ${chars} characters (${(chars / tokens).toFixed(2)} characters a token)`,
  );
}

/** A 10 MB page: the article pages' bodies one after another inside one article. */
function bigPage(): string {
  const bodies: string[] = [];
  let size = 0;
  for (const f of readdirSync(ARTICLES)) {
    const html = gunzipSync(readFileSync(join(ARTICLES, f))).toString('utf8');
    const body = /<body[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? '';
    bodies.push(`<section>${body}</section>`);
    size += body.length;
    if (size > 10 * 1024 * 1024) break;
  }
  return `<!doctype html><html><head><title>Ten megabytes</title></head><body><main><article>${bodies.join('\n')}</article></main></body></html>`;
}

type Sanitize = (html: string, options: Record<string, unknown>) => string;

async function htmlCost(): Promise<void> {
  const page = bigPage();
  let sanitize: Sanitize | null = null;
  if (process.env.SANITIZE_HTML) sanitize = ((await import(process.env.SANITIZE_HTML)) as { default: Sanitize }).default;
  // the same element allow-list as our writer, so both routes keep the same markup
  const ALLOWED = [...HTML_OUTPUT_ELEMENTS];
  const markdownOnly: number[] = [];
  const withHtml: number[] = [];
  const library: number[] = [];
  let outSize = 0;
  for (let pass = 0; pass < REPEAT; pass++) {
    let t = performance.now();
    const md = htmlToMarkdown(page, 'https://bench.example/', { mainContent: false });
    markdownOnly.push(performance.now() - t);
    t = performance.now();
    const r = htmlToMarkdown(page, 'https://bench.example/', { mainContent: false, format: 'html' });
    withHtml.push(performance.now() - t);
    outSize = r.html?.length ?? 0;
    if (sanitize) {
      // the library route starts from the same cleaned content, serialised (here: our own output, un-sanitised
      // equivalent size), and parses + filters it again
      t = performance.now();
      sanitize(r.html ?? '', {
        allowedTags: ALLOWED,
        allowedAttributes: {
          a: ['href', 'title'],
          img: ['src', 'alt', 'width', 'height'],
          td: ['colspan', 'rowspan'],
          th: ['colspan', 'rowspan', 'scope'],
        },
        allowedSchemes: ['http', 'https', 'mailto', 'tel'],
      });
      library.push(performance.now() - t);
    }
    void md;
  }
  console.log(`\n## format: html on a ${(page.length / 1048576).toFixed(1)} MB page (main_content: false), ${REPEAT} passes`);
  console.log('| | median ms | spread |');
  console.log('|---|---|---|');
  console.log(`| read as Markdown | ${median(markdownOnly).toFixed(0)} | ${spread(markdownOnly)} |`);
  console.log(`| read as Markdown + allow-list HTML writer | ${median(withHtml).toFixed(0)} | ${spread(withHtml)} |`);
  console.log(`| → the HTML writer's share | ${(median(withHtml) - median(markdownOnly)).toFixed(0)} | |`);
  if (library.length > 0)
    console.log(
      `| sanitize-html 2.17 on the ${(outSize / 1048576).toFixed(1)} MB output alone | ${median(library).toFixed(0)} | ${spread(library)} |`,
    );
}

console.log(`Node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}`);
await tokensCost();
await htmlCost();
