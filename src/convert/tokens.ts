type Counter = (text: string, options: { disallowedSpecial: Set<string> }) => number;

/**
 * `stats.tokens`: the answer's length in o200k_base tokens (the GPT-4o / GPT-4.1 / GPT-5
 * family), counted by gpt-tokenizer — a pure-JS port of OpenAI's tiktoken with no runtime
 * dependencies and no `engines` bound. Exact for ordinary text (checked against tiktoken in
 * test/unit/convert/tokens.test.ts); bench/README.md has its cost per page.
 *
 * Two bounds keep hostile text cheap. BPE is quadratic in the length of one pre-tokenised
 * piece (100k letters without a space: 15 s), so text is counted in segments cut at a space
 * that follows a non-space — where the tokenizer's own pre-tokeniser splits anyway, so the
 * sum is exact — and hard-cut when no such space came for SEGMENT_MAX_RUN characters. And
 * beyond EXACT_MAX_CHARS the count is extrapolated from evenly spread samples.
 */

/** Longest run counted in one piece: a run this long without a word break is not prose. */
const SEGMENT_MAX_RUN = 256;
/** Segments of ordinary text are cut near this length (at a word break). */
const SEGMENT_TARGET = 4096;
/** Answers up to this many characters are counted whole; longer ones are sampled. */
export const EXACT_MAX_CHARS = 512 * 1024;
/** Samples of a longer answer (each EXACT_MAX_CHARS / SAMPLES characters). */
const SAMPLES = 16;

/** Special-token markers in page text (`<|endoftext|>`) are text here, not control tokens. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

let counter: Promise<Counter> | null = null;

/** The o200k_base encoder, loaded on first use (its tables take ~0.3 s and tens of MB). */
function loadCounter(): Promise<Counter> {
  counter ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => m.countTokens as Counter);
  return counter;
}

export async function countTokens(text: string): Promise<number> {
  return countWith(await loadCounter(), text);
}

function countWith(countO200k: Counter, text: string): number {
  const countSegments = (t: string): number => segmentTokens(countO200k, t);
  if (text.length <= EXACT_MAX_CHARS) return countSegments(text);
  const window = Math.floor(EXACT_MAX_CHARS / SAMPLES);
  const stride = Math.floor((text.length - window) / (SAMPLES - 1));
  let tokens = 0;
  let chars = 0;
  for (let i = 0; i < SAMPLES; i++) {
    const sample = text.slice(i * stride, i * stride + window);
    tokens += countSegments(sample);
    chars += sample.length;
  }
  return Math.round((tokens * text.length) / chars);
}

/** Exact token count of `text`, one bounded segment at a time. */
function segmentTokens(countO200k: Counter, text: string): number {
  let total = 0;
  let start = 0;
  // the last space that follows a non-space: a boundary of the tokenizer's own pieces
  let cut = -1;
  let runClass = -1;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const cls = charClass(c);
    // digits are split every three by the pre-tokeniser: their runs never make long pieces
    run = cls === DIGIT ? 0 : cls === runClass ? run + 1 : 1;
    runClass = cls;
    if (c === 32 && i > 0 && !isSpace(text.charCodeAt(i - 1))) cut = i;
    let end = -1;
    if (run >= SEGMENT_MAX_RUN) end = i;
    else if (i - start >= SEGMENT_TARGET && cut > start) end = cut;
    if (end <= start) continue;
    total += countO200k(text.slice(start, end), AS_TEXT);
    start = end;
    run = end === i ? 1 : run;
  }
  return start < text.length ? total + countO200k(text.slice(start), AS_TEXT) : total;
}

const LETTER = 0;
const SPACE = 1;
const OTHER = 2;
const DIGIT = 3;

/**
 * Classes whose runs the pre-tokeniser keeps in one piece: letters (non-ASCII counted as
 * letters, except CJK punctuation), whitespace, punctuation.
 */
function charClass(c: number): number {
  if (isSpace(c)) return SPACE;
  if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) return LETTER;
  if (c >= 48 && c <= 57) return DIGIT;
  if (c < 128) return OTHER;
  if ((c >= 0x3000 && c <= 0x303f) || (c >= 0xff00 && c <= 0xff0f)) return OTHER;
  return LETTER;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12;
}
