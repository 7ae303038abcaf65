/**
 * Minimal Markdown escaping: only characters that would change the meaning of the text
 * when rendered as CommonMark/GFM are escaped. `snake_case`, `2 * 3`, `a < b`, `AT&T`
 * stay as they are.
 */

/** Marks a hard line break inside inline content until the paragraph is finished. */
export const HARD_BREAK = '\u0001';

const ASCII_PUNCT = /[!-/:-@[-`{-~]/;

function isWordChar(c: string | undefined): boolean {
  return c !== undefined && /[\p{L}\p{N}]/u.test(c);
}

function isSpace(c: string | undefined): boolean {
  return c === undefined || c === ' ' || c === '\n' || c === '\t';
}

/** Escape a text node's content for use inside a paragraph (whitespace already collapsed). */
export function escapeText(s: string): string {
  if (!/[\\*_`<&~\]]/.test(s)) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    const prev = s[i - 1];
    const next = s[i + 1];
    switch (c) {
      case '\\':
        out += next !== undefined && ASCII_PUNCT.test(next) ? '\\\\' : '\\';
        break;
      case '*':
        out += isSpace(prev) && isSpace(next) ? '*' : '\\*';
        break;
      case '_':
        out += isWordChar(prev) && isWordChar(next) ? '_' : isSpace(prev) && isSpace(next) ? '_' : '\\_';
        break;
      case '`':
        out += '\\`';
        break;
      case '<':
        out += next !== undefined && /[A-Za-z/!?]/.test(next) ? '\\<' : '<';
        break;
      case '&':
        out += /^&(?:#\d+|#x[\da-f]+|\w+);/i.test(s.slice(i, i + 12)) ? '\\&' : '&';
        break;
      case '~':
        // GFM strikes through text between single or double tildes.
        out += isSpace(prev) && isSpace(next) ? '~' : '\\~';
        break;
      case ']':
        out += next === '(' || next === '[' || next === ':' ? '\\]' : ']';
        break;
      default:
        out += c;
    }
  }
  return out;
}

/** Escape what a line start would turn into a block construct (heading, list, quote, fence). */
export function escapeLineStart(line: string): string {
  const c = line[0];
  if (c === undefined) return line;
  if (c === '#' && /^#{1,6}(?:\s|$)/.test(line)) return `\\${line}`;
  if (c === '>') return `\\${line}`;
  if ((c === '-' || c === '+' || c === '*') && /^[-+*](?:\s|$)/.test(line)) return `\\${line}`;
  if ((c === '=' || c === '-') && /^(?:=+|-+)\s*$/.test(line)) return `\\${line}`;
  if ((c === '`' || c === '~') && /^(?:```|~~~)/.test(line)) return `\\${line}`;
  if (c >= '0' && c <= '9') {
    const m = /^(\d{1,9})([.)])(\s|$)/.exec(line);
    if (m) return `${m[1]}\\${line.slice((m[1] as string).length)}`;
  }
  if (c === '|' && line.length > 1 && /^\|[\s:-]*(?:\|\s*)?$/.test(line)) return `\\${line}`;
  return line;
}

/** Pipes and line breaks inside a GFM table cell. */
export function escapeTableCell(s: string): string {
  return (
    s
      .replace(/\|/g, '\\|')
      // Spaces around a break go with it; leading spaces are taken only from where their run
      // begins, so a long run is not rescanned from each of its spaces.
      .replace(/(?:(?<! ) +)?(?:\n|\u0001) */g, '<br>')
      .trim()
  );
}

/** Inline code with a fence longer than any backtick run inside (CommonMark code spans). */
export function inlineCode(text: string): string {
  const t = text.replace(/[\n\r\t]+/g, ' ');
  if (t.trim() === '') return '';
  let longest = 0;
  let run = 0;
  for (const ch of t) {
    run = ch === '`' ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  const fence = '`'.repeat(longest + 1);
  const pad = t.startsWith('`') || t.endsWith('`') || (t.startsWith(' ') && t.endsWith(' ')) ? ' ' : '';
  return `${fence}${pad}${t}${pad}${fence}`;
}

/**
 * Link and image destinations, written so that no CommonMark renderer can misread them:
 * spaces, angle brackets, quotes and backslashes percent-encoded, and parentheses too when
 * they are unbalanced (balanced ones are fine, and `/wiki/Foo_(bar)` stays readable).
 */
export function linkDestination(url: string): string {
  let out = url.replace(/[\s<>"'\\`]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  if (!balancedParens(out)) out = out.replace(/[()]/g, (c) => (c === '(' ? '%28' : '%29'));
  return out;
}

function balancedParens(s: string): boolean {
  let depth = 0;
  for (const c of s) {
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

/**
 * Joins two pieces of inline Markdown. Text is escaped node by node, so a `]` at the end of
 * one piece and a `(` at the start of the next — `[x]<span></span>(javascript:…)` in the
 * page — would join into a live link, and `<` + `img …` into raw HTML. The seam is escaped
 * here, where the pieces meet.
 */
export function joinEscaped(left: string, right: string): string {
  if (left === '' || right === '') return left + right;
  const last = left.length - 1;
  const next = right[0] as string;
  if (left[last] === ']' && (next === '(' || next === '[' || next === ':') && !escapedAt(left, last)) {
    return `${left.slice(0, last)}\\]${right}`;
  }
  if (left[last] === '<' && /[A-Za-z/!?]/.test(next) && !escapedAt(left, last)) return `${left.slice(0, last)}\\<${right}`;
  return left + right;
}

/** Whether the character at `at` is escaped by an odd run of backslashes before it. */
function escapedAt(s: string, at: number): boolean {
  let n = 0;
  for (let i = at - 1; i >= 0 && s[i] === '\\'; i--) n++;
  return n % 2 === 1;
}

/** Link text / alt text: brackets escaped so the link cannot break. */
export function escapeBrackets(s: string): string {
  return breakNestedLinks(s.replace(/([[\]])/g, '\\$1'));
}

/**
 * Inside link text, an escaped `\](` that came from the page's text gets its `(` escaped
 * too: some renderers (marked) build a link inside a link's text from `[x\](javascript:…)`
 * although CommonMark forbids it. Our own `![alt](src)` inside a link has an unescaped `](`
 * and is left alone.
 */
export function breakNestedLinks(linkText: string): string {
  return linkText.includes('\\](') ? linkText.replace(/\\\]\(/g, '\\]\\(') : linkText;
}
