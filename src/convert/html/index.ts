import { parseDocument } from 'htmlparser2';
import type { ChildNode, Element } from 'domhandler';
import type { ConvertResult } from '../types.js';

/**
 * INTERIM converter (replaced by the extraction engine, issue 5): visible text of <body>,
 * one paragraph per block element, title from <title>.
 */
export interface HtmlToMarkdownOptions {
  /** Content-Language response header, a hint for metadata.language. */
  contentLanguage?: string | null;
}

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head', 'iframe']);
const BLOCK = new Set(['p', 'div', 'section', 'article', 'main', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'tr', 'br', 'pre', 'blockquote']);

export function htmlToMarkdown(html: string, _baseUrl: string, options: HtmlToMarkdownOptions = {}): ConvertResult {
  const doc = parseDocument(html);
  const parts: string[] = [];
  let title: string | null = null;
  let lang: string | null = null;
  const walk = (nodes: ChildNode[]): void => {
    for (const node of nodes) {
      if (node.type === 'text') {
        parts.push(node.data);
      } else if (node.type === 'tag' || node.type === 'script' || node.type === 'style') {
        const el = node as Element;
        if (el.name === 'title' && title === null) title = textOf(el).trim() || null;
        if (el.name === 'html' && el.attribs.lang) lang = el.attribs.lang;
        if (SKIP.has(el.name)) continue;
        if (BLOCK.has(el.name)) parts.push('\n\n');
        walk(el.children);
        if (BLOCK.has(el.name)) parts.push('\n\n');
      }
    }
  };
  walk(doc.children);
  const markdown = parts
    .join('')
    .split(/\n{2,}/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n\n');
  return {
    markdown: markdown ? `${markdown}\n` : '',
    metadata: { title, description: null, language: lang ?? options.contentLanguage ?? null },
    warnings: [],
  };
}

function textOf(el: Element): string {
  return el.children.map((c) => (c.type === 'text' ? c.data : c.type === 'tag' ? textOf(c as Element) : '')).join('');
}
