import type { ChildNode, Element } from 'domhandler';
import { isElement, isText } from './dom.js';

/**
 * Code blocks. Highlighters wrap every token in a span (Prism, highlight.js, Pygments,
 * Rouge, Shiki), put one element per line (GitLab `span.line`, CodeMirror `div.cm-line`),
 * or use `<br>`; line-number gutters are skipped. The language comes from `language-x`,
 * `lang-x`, `highlight-x` / `highlight-source-x`, `brush: x`, pandoc's `sourceCode x`, or
 * `data-lang` / `data-language` on the block, its code element or its wrapper.
 */

const LANG_CLASS = /(?:^|\s)(?:(?:language|lang|highlight(?:-source)?)-|brush:\s*)([A-Za-z0-9_+#.-]+)/;
const SOURCE_CODE_CLASS = /(?:^|\s)sourceCode\s+([A-Za-z0-9_+#-]+)/;
const NOT_A_LANGUAGE = new Set(['none', 'plaintext', 'text', 'plain', 'nohighlight', 'highlight', 'source', 'notranslate', 'default']);
export const GUTTER =
  /(?:^|\s)(?:line-?numbers?(?:-rows)?|linenos|lineno|linenodiv|gutter|ln-num|hljs-ln-numbers|line-number|lnt|react-syntax-highlighter-line-number)(?:\s|$)/;
/**
 * GitLab puts the code language in `lang` (`<pre lang="go">`), which elsewhere names a human
 * language; only names that are no ISO 639 code are taken from it.
 */
const CODE_LANG_ATTR = new Set([
  'go',
  'golang',
  'rust',
  'python',
  'ruby',
  'javascript',
  'typescript',
  'js',
  'ts',
  'java',
  'kotlin',
  'swift',
  'cpp',
  'csharp',
  'php',
  'bash',
  'shell',
  'sql',
  'json',
  'yaml',
  'toml',
  'html',
  'css',
  'scss',
  'xml',
  'dockerfile',
  'makefile',
  'diff',
  'jsx',
  'tsx',
  'haskell',
  'elixir',
  'erlang',
  'scala',
  'lua',
  'perl',
  'powershell',
  'graphql',
  'markdown',
]);
const LINE_BLOCKS = new Set(['div', 'p', 'li', 'tr', 'table', 'tbody', 'ol', 'ul']);

export function codeLanguage(pre: Element, code: Element | null): string {
  const holders: Element[] = [];
  if (code) holders.push(code);
  holders.push(pre);
  let p = pre.parent;
  for (let i = 0; i < 5 && isElement(p); i++, p = p.parent) holders.push(p);
  for (const el of holders) {
    const lang = el.attribs.lang?.toLowerCase();
    if (lang !== undefined && CODE_LANG_ATTR.has(lang)) return lang;
    const dl = el.attribs['data-lang'] ?? el.attribs['data-language'];
    if (dl && !NOT_A_LANGUAGE.has(dl.toLowerCase())) return clean(dl);
    const cls = el.attribs.class;
    if (!cls) continue;
    const m = LANG_CLASS.exec(cls) ?? SOURCE_CODE_CLASS.exec(cls);
    if (m?.[1]) {
      const lang = m[1].toLowerCase();
      if (!NOT_A_LANGUAGE.has(lang)) return clean(lang);
    }
  }
  return '';
}

function clean(lang: string): string {
  return lang
    .toLowerCase()
    .replace(/^source-/, '')
    .replace(/[^a-z0-9_+#.-]/g, '');
}

/** The text of a code block with its line structure, gutters removed. */
export function codeText(pre: Element): string {
  const parts: string[] = [];
  const atLineStart = (): boolean => {
    const last = parts[parts.length - 1];
    return last === undefined || last.endsWith('\n');
  };
  const visit = (node: ChildNode, depth: number): void => {
    if (isText(node)) {
      parts.push(node.data);
      return;
    }
    if (!isElement(node)) return;
    if (node.name === 'br') {
      parts.push('\n');
      return;
    }
    const cls = node.attribs.class;
    if (cls && GUTTER.test(cls)) return;
    if (node.attribs['aria-hidden'] === 'true' || node.name === 'button') return;
    const lineBlock =
      LINE_BLOCKS.has(node.name) || (cls !== undefined && /(?:^|\s)(?:line|cm-line|code-line)(?:\s|$)/.test(cls) && node.name !== 'span');
    if (lineBlock && !atLineStart()) parts.push('\n');
    if (depth < 200) for (const c of node.children) visit(c, depth + 1);
    if (lineBlock && !atLineStart()) parts.push('\n');
  };
  for (const c of pre.children) visit(c, 0);
  let text = parts
    .join('')
    .replace(/\r\n?/g, '\n')
    .replace(/\u00a0/g, ' ');
  if (text.startsWith('\n')) text = text.slice(1);
  return text.trimEnd();
}

export function fencedCode(text: string, lang: string): string {
  if (text.trim() === '') return '';
  let longest = 0;
  const runs = text.match(/`{3,}|~{3,}/g);
  if (runs) for (const r of runs) if (r[0] === '`') longest = Math.max(longest, r.length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${text}\n${fence}`;
}
