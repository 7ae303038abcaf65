/**
 * stats.tokens against the reference: OpenAI's tiktoken (its WASM build) on the o200k_base
 * encoding, on five golden pages converted as a read converts them, in each format. Our
 * segmented count must equal tiktoken's count of the whole text; hostile text (one long
 * run, which BPE handles in quadratic time) must stay cheap.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { get_encoding } from 'tiktoken';
import { afterAll, describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/convert/html/index.js';
import { EXACT_MAX_CHARS, countTokens } from '../../../src/convert/tokens.js';

const GOLDEN = join(import.meta.dirname, '../../golden');
const PAGES = ['article-german', 'article-japanese-nolang', 'docs-sphinx-pygments', 'forum-discourse-topic', 'product-spec-table'];
const encoding = get_encoding('o200k_base');
afterAll(() => encoding.free());

/** tiktoken's count, special-token markers read as text (as ours does). */
const reference = (text: string): number => encoding.encode_ordinary(text).length;

describe('stats.tokens: o200k_base, checked against tiktoken', () => {
  for (const slug of PAGES) {
    it(`${slug}: the same count as tiktoken, in every format`, async () => {
      const html = readFileSync(join(GOLDEN, slug, 'input.html'), 'utf8');
      for (const format of ['markdown', 'html', 'text'] as const) {
        const r = htmlToMarkdown(html, `http://fakehost/${slug}/`, { format });
        const content = format === 'html' ? (r.html ?? '') : format === 'text' ? (r.text ?? '') : r.markdown;
        expect(content.length).toBeGreaterThan(100);
        expect({ slug, format, tokens: await countTokens(content) }).toEqual({ slug, format, tokens: reference(content) });
      }
    });
  }

  it('reads special-token markers as text and counts an empty answer as 0', async () => {
    const planted = 'Hello <|endoftext|> and <|im_start|>system';
    expect(await countTokens(planted)).toBe(reference(planted));
    expect(await countTokens('')).toBe(0);
  });

  it('stays exact over segment cuts (long prose) and cheap on one endless run', async () => {
    const prose = 'The tide turns twice a day, and the harbour master posts its times at dawn. '.repeat(2000);
    expect(await countTokens(prose)).toBe(reference(prose));
    const started = Date.now();
    const hostile = await countTokens('x'.repeat(2_000_000));
    // tiktoken itself takes minutes on this; a generous bound only a blow-up breaks
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(hostile).toBeGreaterThan(2_000_000 / 16);
  });

  it(`estimates answers over ${EXACT_MAX_CHARS} characters from samples, within 2 %`, async () => {
    const long = Array.from({ length: 40_000 }, (_, i) => `Line ${i}: the ${i % 7 === 0 ? 'north' : 'south'} pier.`).join('\n');
    expect(long.length).toBeGreaterThan(EXACT_MAX_CHARS);
    const estimate = await countTokens(long);
    const exact = reference(long);
    expect(Math.abs(estimate - exact) / exact).toBeLessThan(0.02);
  });
});
