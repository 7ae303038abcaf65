/**
 * The top-level style rules of a stylesheet, read by one forward scan: what the hidden-text
 * check needs (issue 21) is each rule's selector text and its declarations, and only for the
 * few rules that hide something. Parsing every sheet into a full CSS tree cost a third of the
 * engine's time on ordinary pages (framework sheets of 100 KB and more), for rules that are
 * almost all about colours and margins.
 *
 * Rules inside at-rules (`@media`, `@supports`, `@font-face`…) are skipped whole, as are
 * nested rules inside a rule's block: the check does not guess which media apply. Comments,
 * strings and escapes are read as CSS reads them, so a brace or a semicolon inside them
 * never ends a block or a declaration. Every character is read once.
 */

export interface CssRule {
  /** The selector list as written, comments removed. */
  selectors: string;
  /** The rule's own declarations, by lower-case property name; values lower-cased and trimmed. */
  declarations: Map<string, string>;
}

const OPEN = 123; // {
const CLOSE = 125; // }
const SEMI = 59; // ;
const SLASH = 47; // /
const STAR = 42; // *
const BACKSLASH = 92; // \
const DQUOTE = 34;
const SQUOTE = 39;
const AT = 64; // @
const LPAREN = 40;
const RPAREN = 41;

/**
 * The style rules at the top level of `css`, in order. With `wanted`, a rule whose block text
 * it rejects is skipped without reading its declarations (most rules of a sheet are about
 * colours and margins; parsing them all cost more than the rest of the check).
 */
export function topLevelRules(css: string, wanted?: (block: string) => boolean): CssRule[] {
  const rules: CssRule[] = [];
  const n = css.length;
  let i = 0;
  // the prelude is css[from, i) plus what came before a comment inside it
  let before = '';
  let from = 0;
  let atRule = false;
  let blank = true;
  const reset = (next: number): void => {
    before = '';
    from = next;
    atRule = false;
    blank = true;
  };
  while (i < n) {
    const c = css.charCodeAt(i);
    if (c === SLASH && css.charCodeAt(i + 1) === STAR) {
      before += css.slice(from, i);
      i = skipComment(css, i);
      from = i;
      continue;
    }
    if (c === DQUOTE || c === SQUOTE) i = skipString(css, i);
    else if (c === BACKSLASH) i += 2;
    else if (c === OPEN) {
      const end = skipBlock(css, i);
      const selectors = atRule ? '' : (before + css.slice(from, i)).trim();
      if (selectors !== '' && (wanted === undefined || wanted(css.slice(i + 1, end)))) {
        rules.push({ selectors, declarations: readDeclarations(css, i) });
      }
      i = end;
      reset(i);
      continue;
    } else if (c === SEMI && atRule) {
      // a statement at-rule (`@import …;`, `@charset …;`)
      i++;
      reset(i);
      continue;
    } else if (c === CLOSE) {
      // a stray closing brace: CSS drops it with what came before
      i++;
      reset(i);
      continue;
    } else {
      if (blank && c === AT) atRule = true;
      i++;
    }
    if (c > 32) blank = false;
  }
  return rules;
}

/** The declarations of the block opening at `open`, its own (not those of nested rules). */
function readDeclarations(css: string, open: number): Map<string, string> {
  const declarations = new Map<string, string>();
  const n = css.length;
  let i = open + 1;
  // the declaration being read is css[from, i) plus what came before a comment inside it
  let before = '';
  let from = i;
  let parens = 0;
  const take = (to: number): void => {
    const piece = before + css.slice(from, to);
    const colon = piece.indexOf(':');
    if (colon > 0) {
      const name = piece.slice(0, colon).trim().toLowerCase();
      const value = piece
        .slice(colon + 1)
        .trim()
        .toLowerCase();
      if (name !== '' && !/\s/.test(name)) declarations.set(name, stripImportant(value));
    }
    before = '';
  };
  while (i < n) {
    const c = css.charCodeAt(i);
    if (c === SLASH && css.charCodeAt(i + 1) === STAR) {
      before += css.slice(from, i);
      i = skipComment(css, i);
      from = i;
    } else if (c === DQUOTE || c === SQUOTE) i = skipString(css, i);
    else if (c === BACKSLASH) i += 2;
    else if (c === LPAREN) {
      parens++;
      i++;
    } else if (c === RPAREN) {
      if (parens > 0) parens--;
      i++;
    } else if (c === SEMI && parens === 0) {
      take(i);
      i++;
      from = i;
    } else if (c === OPEN) {
      // a nested rule or at-rule: not this element's declarations; skip it and its prelude
      i = skipBlock(css, i);
      before = '';
      from = i;
      parens = 0;
    } else if (c === CLOSE) {
      take(i);
      return declarations;
    } else i++;
  }
  take(n); // an unclosed block ends with the sheet, as in CSS
  return declarations;
}

/** The index after the block opening at `open` (nested blocks, strings and comments included). */
function skipBlock(css: string, open: number): number {
  const n = css.length;
  let depth = 0;
  let i = open;
  while (i < n) {
    const c = css.charCodeAt(i);
    if (c === SLASH && css.charCodeAt(i + 1) === STAR) i = skipComment(css, i);
    else if (c === DQUOTE || c === SQUOTE) i = skipString(css, i);
    else if (c === BACKSLASH) i += 2;
    else {
      if (c === OPEN) depth++;
      else if (c === CLOSE && --depth === 0) return i + 1;
      i++;
    }
  }
  return n;
}

function skipComment(css: string, start: number): number {
  const end = css.indexOf('*/', start + 2);
  return end < 0 ? css.length : end + 2;
}

/** The index after the string opening at `start`; an unescaped newline ends a bad string, as in CSS. */
function skipString(css: string, start: number): number {
  const quote = css.charCodeAt(start);
  const n = css.length;
  let i = start + 1;
  while (i < n) {
    const c = css.charCodeAt(i);
    if (c === BACKSLASH) i += 2;
    else if (c === quote) return i + 1;
    else if (c === 10) return i;
    else i++;
  }
  return n;
}

function stripImportant(value: string): string {
  const bang = value.lastIndexOf('!');
  if (bang < 0) return value;
  return value.slice(bang + 1).trim() === 'important' ? value.slice(0, bang).trimEnd() : value;
}
