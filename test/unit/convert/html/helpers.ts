import type { Element } from 'domhandler';
import { findFirst, parseHtml } from '../../../../src/convert/html/dom.js';
import { MarkdownWriter } from '../../../../src/convert/html/markdown.js';
import { prepareDocument } from '../../../../src/convert/html/prepare.js';

/** Render a fragment with the writer alone (no main-content detection). */
export function md(html: string, base: string | null = 'https://example.com/docs/page.html'): string {
  const doc = parseHtml(html);
  prepareDocument(doc);
  const root = (findFirst(doc, 'body') as Element | null) ?? doc;
  return new MarkdownWriter({ base }).render(root.children);
}
