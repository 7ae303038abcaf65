/**
 * Map's include/exclude globs as a bit-parallel automaton (Shift-And with repeatable
 * classes): one pass over the text, a few word operations per character, no backtracking.
 * The anchored RegExp these globs used to compile to (`**` → `.*`, `*` → `[^/]*`) took
 * time exponential in the number of stars on a client glob like `/**a**a**a…b`.
 *
 * Cost: O(text length × ⌈(glob tokens + 1) / 32⌉); a glob of up to 31 tokens is one word.
 */

/** What one glob token consumes: a given character, any but `/`, or any but a line break. */
type CharClass = { kind: 'literal'; code: number } | { kind: 'segment' } | { kind: 'line' };

interface CharMasks {
  /** States whose token consumes this character (they move one state on). */
  advance: Uint32Array;
  /** States after a star whose class holds this character (they stay). */
  loop: Uint32Array;
}

interface Token {
  chars: CharClass;
  /** `*` and `**`: zero or more characters of the class. */
  repeat: boolean;
}

export interface GlobMatcher {
  /** Whether the whole text matches the glob. */
  matches(text: string): boolean;
  /** 32-bit words of state per character: the cost of a match is about text length × this. */
  words: number;
}

/**
 * Tokens of a glob: `**` (a run of two or more `*` counts once) spans segments, `*` stays
 * within one, `?` is one character other than `/`, anything else is itself.
 */
export function globTokens(pattern: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const code = pattern.charCodeAt(i);
    if (code === STAR) {
      let end = i + 1;
      while (pattern.charCodeAt(end) === STAR) end++;
      tokens.push({ chars: end - i > 1 ? { kind: 'line' } : { kind: 'segment' }, repeat: true });
      i = end - 1;
    } else if (code === QUESTION) {
      tokens.push({ chars: { kind: 'segment' }, repeat: false });
    } else {
      tokens.push({ chars: { kind: 'literal', code }, repeat: false });
    }
  }
  return tokens;
}

/**
 * State `j` (bit `j`) means the first `j` tokens matched. A literal or `?` at token `i`
 * moves state `i` to `i + 1`; a star at token `i` is an ε-move `i → i + 1` plus a loop
 * on state `i + 1`. Stars are never adjacent (runs collapse), so one ε pass closes a step.
 */
export function compileGlobMatcher(pattern: string, ignoreCase: boolean): GlobMatcher {
  const tokens = globTokens(pattern);
  const states = tokens.length + 1;
  const words = (states + 31) >>> 5;
  const mask = (): Uint32Array => new Uint32Array(words);
  const set = (m: Uint32Array, bit: number): void => {
    m[bit >>> 5]! |= 1 << (bit & 31);
  };

  const literal = new Map<number, Uint32Array>();
  const advanceSegment = mask();
  const loopSegment = mask();
  const loopLine = mask();
  const epsilon = mask();
  tokens.forEach((token, i) => {
    if (token.repeat) {
      set(epsilon, i);
      set(token.chars.kind === 'line' ? loopLine : loopSegment, i + 1);
    } else if (token.chars.kind === 'segment') {
      set(advanceSegment, i);
    } else if (token.chars.kind === 'literal') {
      for (const code of ignoreCase ? asciiCases(token.chars.code) : [token.chars.code]) {
        const m = literal.get(code) ?? mask();
        set(m, i);
        literal.set(code, m);
      }
    }
  });

  // Per-character masks: ASCII in a table; other characters share one entry unless a
  // literal or a line break makes theirs different.
  const entryFor = (code: number): CharMasks => {
    const advance = mask();
    const loop = mask();
    const lit = literal.get(code);
    for (let w = 0; w < words; w++) {
      advance[w] = (code === SLASH ? 0 : advanceSegment[w]!) | (lit ? lit[w]! : 0);
      loop[w] = (code === SLASH ? 0 : loopSegment[w]!) | (isLineBreak(code) ? 0 : loopLine[w]!);
    }
    return { advance, loop };
  };
  const ascii = Array.from({ length: 128 }, (_, code) => entryFor(code));
  const other = entryFor(-1);
  const special = new Map<number, CharMasks>();
  for (const code of [...literal.keys(), 0x2028, 0x2029]) if (code >= 128) special.set(code, entryFor(code));
  const masksFor = (code: number): CharMasks => (code < 128 ? ascii[code]! : (special.get(code) ?? other));
  const accept = tokens.length;

  if (words === 1) {
    // One word: masks as plain numbers in flat tables, no per-character allocation.
    const eps = epsilon[0]!;
    const advanceAscii = Int32Array.from(ascii, (entry) => entry.advance[0]!);
    const loopAscii = Int32Array.from(ascii, (entry) => entry.loop[0]!);
    const acceptBit = 1 << accept;
    return {
      words,
      matches(text) {
        let d = 1 | ((1 & eps) << 1);
        for (let i = 0; i < text.length; i++) {
          const code = text.charCodeAt(i);
          let advance: number;
          let loop: number;
          if (code < 128) {
            advance = advanceAscii[code]!;
            loop = loopAscii[code]!;
          } else {
            const entry = masksFor(code);
            advance = entry.advance[0]!;
            loop = entry.loop[0]!;
          }
          d = ((d & advance) << 1) | (d & loop);
          d |= (d & eps) << 1;
          if (d === 0) return false;
        }
        return (d & acceptBit) !== 0;
      },
    };
  }

  return {
    words,
    matches(text) {
      let d = mask();
      let next = mask();
      d[0] = 1;
      closeOver(d, epsilon);
      for (let i = 0; i < text.length; i++) {
        const { advance, loop } = masksFor(text.charCodeAt(i));
        let carry = 0;
        let any = 0;
        for (let w = 0; w < words; w++) {
          const moved = d[w]! & advance[w]!;
          next[w] = ((moved << 1) | carry | (d[w]! & loop[w]!)) >>> 0;
          carry = moved >>> 31;
        }
        closeOver(next, epsilon);
        for (let w = 0; w < words; w++) any |= next[w]!;
        if (any === 0) return false;
        [d, next] = [next, d];
      }
      return ((d[accept >>> 5]! >>> (accept & 31)) & 1) === 1;
    },
  };
}

/** States before a star also hold the state after it (the star matched nothing). */
function closeOver(d: Uint32Array, epsilon: Uint32Array): void {
  let carry = 0;
  for (let w = 0; w < d.length; w++) {
    const skipping = d[w]! & epsilon[w]!;
    d[w] = (d[w]! | (skipping << 1) | carry) >>> 0;
    carry = skipping >>> 31;
  }
}

/** A character and its other ASCII case (what the `i` regex flag folded for URLs, which are ASCII). */
function asciiCases(code: number): number[] {
  if (code >= 0x41 && code <= 0x5a) return [code, code + 32];
  if (code >= 0x61 && code <= 0x7a) return [code, code - 32];
  return [code];
}

function isLineBreak(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;
}

const STAR = 0x2a;
const QUESTION = 0x3f;
const SLASH = 0x2f;
