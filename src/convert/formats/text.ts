/**
 * Plain text and Markdown. `text/markdown` passes through (title from front matter or the
 * first heading); plain text is returned as is, fenced only when it looks like source code
 * (by media type, URL extension, or the shape of its lines).
 */
import { MAX_MARKDOWN_CHARS, fence, truncatedWarning } from '../markdown.js';
import type { Warning } from '../types.js';

export interface TextConversion {
  markdown: string;
  title: string | null;
  warnings: Warning[];
}

/** Media types that are source code, with their fence language. */
const CODE_TYPES: Record<string, string> = {
  'application/javascript': 'javascript',
  'text/javascript': 'javascript',
  'application/ecmascript': 'javascript',
  'application/typescript': 'typescript',
  'text/css': 'css',
  'application/x-sh': 'sh',
  'application/x-shellscript': 'sh',
  'text/x-python': 'python',
  'text/x-c': 'c',
  'text/x-java-source': 'java',
  'application/yaml': 'yaml',
  'application/x-yaml': 'yaml',
  'text/yaml': 'yaml',
  'application/toml': 'toml',
  'application/sql': 'sql',
  'application/graphql': 'graphql',
};

/** URL extensions that are source code, with their fence language. */
const CODE_EXTENSIONS: Record<string, string> = {
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  ts: 'typescript',
  tsx: 'tsx',
  jsx: 'jsx',
  py: 'python',
  rb: 'ruby',
  go: 'go',
  rs: 'rust',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  hpp: 'cpp',
  java: 'java',
  kt: 'kotlin',
  swift: 'swift',
  cs: 'csharp',
  php: 'php',
  sh: 'sh',
  bash: 'bash',
  zsh: 'sh',
  ps1: 'powershell',
  css: 'css',
  scss: 'scss',
  sql: 'sql',
  yaml: 'yaml',
  yml: 'yaml',
  toml: 'toml',
  ini: 'ini',
  lua: 'lua',
  pl: 'perl',
  r: 'r',
  scala: 'scala',
  hs: 'haskell',
  ex: 'elixir',
  exs: 'elixir',
  erl: 'erlang',
  clj: 'clojure',
  dart: 'dart',
  vue: 'vue',
  svelte: 'svelte',
  dockerfile: 'dockerfile',
  mk: 'makefile',
  gradle: 'groovy',
  proto: 'protobuf',
};

export function markdownPassthrough(text: string): TextConversion {
  const { body, warnings } = bound(normaliseNewlines(text));
  return { markdown: ensureTrailingNewline(body), title: markdownTitle(body), warnings };
}

export function plainTextToMarkdown(text: string, mediaType: string, extension: string): TextConversion {
  const { body, warnings } = bound(normaliseNewlines(text));
  const language = CODE_TYPES[mediaType] ?? CODE_EXTENSIONS[extension] ?? (mediaType.startsWith('text/x-') ? mediaType.slice(7) : null);
  if (language !== null) return { markdown: fence(body, language), title: null, warnings };
  if (looksLikeCode(body)) return { markdown: fence(body), title: null, warnings };
  return { markdown: ensureTrailingNewline(body.replace(/^\n+/, '')), title: null, warnings };
}

function normaliseNewlines(text: string): string {
  return text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}

function ensureTrailingNewline(text: string): string {
  const trimmed = text.trimEnd();
  return trimmed ? `${trimmed}\n` : '';
}

function bound(text: string): { body: string; warnings: Warning[] } {
  if (text.length <= MAX_MARKDOWN_CHARS) return { body: text, warnings: [] };
  const cut = text.slice(0, MAX_MARKDOWN_CHARS);
  const nl = cut.lastIndexOf('\n');
  return {
    body: nl > 0 ? cut.slice(0, nl + 1) : cut,
    warnings: [truncatedWarning(`text cut at ${MAX_MARKDOWN_CHARS} characters of ${text.length}`)],
  };
}

/**
 * Title from YAML front matter (`title:`) or the first ATX / setext level-1 heading.
 * Line by line, each line looked at a bounded number of times: the single regexes this
 * replaces backtracked cubically on `# a` + spaces + `b`.
 */
export function markdownTitle(text: string): string | null {
  const front = /^---\n([\s\S]*?)\n---\n/.exec(text);
  const fmTitle = front?.[1] ? frontMatterTitle(front[1]) : null;
  if (fmTitle) return fmTitle;
  const atx = atxTitle(text);
  const setext = setextTitle(text);
  if (atx && (!setext || atx.index < setext.index)) return atx.title;
  return setext?.title.trim() ?? null;
}

interface FoundTitle {
  title: string;
  /** Where the heading starts in the text. */
  index: number;
}

/** `title: value` (quotes dropped); a blank value continues on the next non-blank line, as YAML does. */
function frontMatterTitle(front: string): string | null {
  const lines = front.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.startsWith('title:')) continue;
    let value = line.slice(6).trim();
    for (let next = i + 1; value === '' && next < lines.length; next++) value = lines[next]!.trim();
    if (value !== '') return stripOneQuote(value);
  }
  return null;
}

/** Drops one leading and one trailing `"` or `'`, each only when something is left. */
function stripOneQuote(value: string): string {
  const opened = isQuote(value[0]) && value.length > 1 ? value.slice(1) : value;
  return isQuote(opened.at(-1)) && opened.length > 1 ? opened.slice(0, -1) : opened;
}

function isQuote(char: string | undefined): boolean {
  return char === '"' || char === "'";
}

const WHITESPACE = /\s/;

/** The first `# Title` line (closing `#`s dropped); the title may sit on the next non-blank line. */
function atxTitle(text: string): FoundTitle | null {
  for (let start = 0; start < text.length; start = nextLineStart(text, start)) {
    if (text[start] !== '#' || !WHITESPACE.test(text[start + 1] ?? '')) continue;
    let content = start + 1;
    while (content < text.length && WHITESPACE.test(text[content]!)) content++;
    if (content === text.length) return null;
    const end = text.indexOf('\n', content);
    const line = text.slice(content, end < 0 ? text.length : end);
    const title = withoutClosingHashes(line.trimEnd()).trimEnd();
    return { title: title === '' ? line[0]! : title, index: start };
  }
  return null;
}

function withoutClosingHashes(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === '#') end--;
  return line.slice(0, end);
}

/** The first line followed by a line of `=` (and spaces only). */
function setextTitle(text: string): FoundTitle | null {
  for (let start = 0; start < text.length; start = nextLineStart(text, start)) {
    const end = text.indexOf('\n', start);
    if (end < 0) return null;
    if (end === start || '#>`-'.includes(text[start]!)) continue;
    const underlineEnd = text.indexOf('\n', end + 1);
    if (/^=+\s*$/.test(text.slice(end + 1, underlineEnd < 0 ? text.length : underlineEnd))) {
      return { title: text.slice(start, end), index: start };
    }
  }
  return null;
}

function nextLineStart(text: string, from: number): number {
  const end = text.indexOf('\n', from);
  return end < 0 ? text.length : end + 1;
}

/**
 * Heuristic: most non-blank lines end in `;`, `{`, `}` or `)`, or start with a keyword
 * common to programming languages, or sit under consistent indentation with braces.
 */
export function looksLikeCode(text: string): boolean {
  const lines = text.split('\n', 400).filter((l) => l.trim().length > 0);
  if (lines.length < 3) return false;
  let score = 0;
  for (const line of lines) {
    const t = line.trim();
    if (/[;{}]$|^[})\]]/.test(t)) score++;
    else if (
      /^(import|export|from|def|class|function|const|let|var|return|if|for|while|#include|package|public|private|fn|func|use|module|require)\b/.test(
        t,
      )
    )
      score++;
    else if (/^(\/\/|#!|\/\*|\*\/)/.test(t)) score++;
    else if (/=\s*(function|\(|\[|\{|new\s)|=>|::|->/.test(t)) score += 0.5;
  }
  return score / lines.length >= 0.4;
}
