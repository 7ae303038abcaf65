/**
 * Linear scanners for inline Markdown links and tag-like runs. They find exactly what the
 * regexes they replace found (`/\[([^\]]*)\]\(([^)]*)\)/g`, `/<\/?[a-z][^>]*>/g`), but
 * those regexes restart at every `[` or `<` and scan to the end of the text when nothing
 * closes it: quadratic on `[[[[…` or `<a<a<a…`. Here each character is looked at a bounded
 * number of times.
 */

/**
 * Replaces every inline link `[label](url)` (`![label](url)` with `opener` `![`), found as
 * `/\[([^\]]*)\]\(([^)]*)\)/g` finds them: leftmost opener, the label runs to the first `]`,
 * which must be followed by `(`, and the URL runs to the first `)` after it.
 */
export function replaceInlineLinks(text: string, replace: (label: string, url: string) => string, opener: '[' | '![' = '['): string {
  let out = '';
  let copied = 0;
  let from = 0;
  for (;;) {
    const start = text.indexOf(opener, from);
    if (start < 0) break;
    const labelStart = start + opener.length;
    const close = text.indexOf(']', labelStart);
    if (close < 0) break;
    // Every opener before `close` shares this `]`: when no `(` follows it, none of them is a link.
    if (text.charCodeAt(close + 1) !== OPEN_PAREN) {
      from = close + 1;
      continue;
    }
    const end = text.indexOf(')', close + 2);
    // No `)` left: no later opener can close either.
    if (end < 0) break;
    out += text.slice(copied, start) + replace(text.slice(labelStart, close), text.slice(close + 2, end));
    copied = end + 1;
    from = end + 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * Whether the text holds a link with a label and a URL that starts with a non-space, as
 * `/\[[^\]]+\]\([^)\s]+[^)]*\)/` tests it.
 */
export function hasInlineLink(text: string): boolean {
  let from = 0;
  // The first `)` at or after some position, remembered so that rejected candidates that
  // share it do not scan for it again.
  let paren = -1;
  for (;;) {
    const start = text.indexOf('[', from);
    if (start < 0) return false;
    const close = text.indexOf(']', start + 1);
    if (close < 0) return false;
    from = close + 1;
    // The leftmost opener before `close` has the longest label; later ones share the URL.
    if (close === start + 1 || text.charCodeAt(close + 1) !== OPEN_PAREN) continue;
    if (paren < close + 2) paren = text.indexOf(')', close + 2);
    if (paren < 0) return false;
    if (paren > close + 2 && !/\s/.test(text[close + 2]!)) return true;
  }
}

/**
 * Removes tag-like runs `<a …>`, `</a>` as `text.replace(/<\/?[a-z][^>]*>/g, '')` does: a run
 * starts at `<`, an optional `/` and a letter a-z, and ends at the first `>`.
 */
export function stripTagRuns(text: string): string {
  let out = '';
  let copied = 0;
  let from = 0;
  for (;;) {
    const start = text.indexOf('<', from);
    if (start < 0) break;
    const name = text.charCodeAt(start + 1) === SLASH ? start + 2 : start + 1;
    if (!isLowerAsciiLetter(text.charCodeAt(name))) {
      from = start + 1;
      continue;
    }
    const end = text.indexOf('>', name + 1);
    // No `>` left: no later `<` can close either.
    if (end < 0) break;
    out += text.slice(copied, start);
    copied = end + 1;
    from = end + 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

const OPEN_PAREN = 0x28;
const SLASH = 0x2f;

function isLowerAsciiLetter(code: number): boolean {
  return code >= 0x61 && code <= 0x7a;
}
