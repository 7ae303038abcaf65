/**
 * Markdown writing shared by the non-HTML converters: fences, inline escaping, the
 * description taken from the first paragraph, a title from the URL's file name, and the
 * output bound every converter honours.
 */
import { replaceInlineLinks } from './inline-scan.js';
import type { Warning } from './types.js';

/**
 * Most Markdown any non-HTML converter returns, in UTF-16 code units. Input is capped at
 * 10 MB by the fetcher; 5 Mi chars keeps a 10 MB JSON or CSV useful without letting its
 * pretty-printed form (indentation, table padding) grow without bound.
 */
export const MAX_MARKDOWN_CHARS = 5 * 1024 * 1024;

/** Longest description taken from the first paragraph. */
const DESCRIPTION_CHARS = 300;

/** A fenced code block whose fence is longer than any backtick run inside `text`. */
export function fence(text: string, language = ''): string {
  let longest = 0;
  for (const run of text.matchAll(/`{3,}/g)) longest = Math.max(longest, run[0].length);
  const marks = '`'.repeat(Math.max(3, longest + 1));
  const body = text.endsWith('\n') ? text : `${text}\n`;
  return `${marks}${language}\n${body}${marks}\n`;
}

/** Escapes text placed inline (link text, list items) so it cannot start Markdown syntax. */
export function escapeInline(text: string): string {
  const escaped = text.replace(/([\\`*_[\]<>|])/g, '\\$1');
  return escaped.replace(/^(#|[+-](?=\s)|\d+(?=[.)]\s))/, (m) => (/^\d/.test(m) ? `${m}\\` : `\\${m}`));
}

/** Collapses whitespace and trims; used for feed titles and summaries. */
export function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Cuts text to `max` chars at a word boundary, adding an ellipsis when cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * The first prose paragraph of a Markdown document as plain text: skips headings, fences,
 * tables, HTML comments, front matter and thematic breaks; null when there is none.
 */
export function firstParagraph(markdown: string): string | null {
  const blocks = markdown.replace(/^---\n[\s\S]*?\n---\n/, '').split(/\n\s*\n/);
  let inFence = false;
  for (const raw of blocks) {
    const block = raw.trim();
    if (!block) continue;
    const fences = (block.match(/^(`{3,}|~{3,})/gm) ?? []).length;
    if (inFence || fences > 0) {
      if (fences % 2 === 1) inFence = !inFence;
      continue;
    }
    if (/^(#{1,6}\s|<!--|\||[-*_]{3,}\s*$|!\[)/.test(block)) continue;
    if (block.split('\n').every((l) => /^\s*([-*+]|\d+[.)])\s/.test(l) || /^\s{2,}\S/.test(l))) continue;
    // Blocks hold no blank lines, so list markers sit after horizontal space only.
    const unlisted = block.replace(/^[^\S\n\r\u2028\u2029]*(?:[-*+]|\d+[.)])\s+/gm, '');
    const text = squash(
      replaceInlineLinks(unlisted, (label) => label)
        .replace(/[*_`]/g, '')
        .replace(/\\(.)/g, '$1'),
    );
    if (text.length < 2) continue;
    return clip(text, DESCRIPTION_CHARS);
  }
  return null;
}

/** The last path segment of the URL when it looks like a file name (`report.pdf`), else null. */
export function fileNameFromUrl(url: string): string | null {
  try {
    const segment = new URL(url).pathname.split('/').pop() ?? '';
    const name = decodeURIComponent(segment);
    return /\.[a-z0-9]{1,8}$/i.test(name) ? name : null;
  } catch {
    return null;
  }
}

/** The lower-case extension of the URL's path (`csv`), or '' when none. */
export function urlExtension(url: string): string {
  try {
    const match = /\.([a-z0-9]{1,10})$/i.exec(new URL(url).pathname);
    return match?.[1]?.toLowerCase() ?? '';
  } catch {
    return '';
  }
}

/** Appends a TRUNCATED warning. */
export function truncatedWarning(what: string): Warning {
  return { code: 'TRUNCATED', message: what };
}
