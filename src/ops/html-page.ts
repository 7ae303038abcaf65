import type { AnyNode, Document, Element } from 'domhandler';
import { collapseWhitespace, isElement, isText, parseHtml, walkElements } from '../convert/html/dom.js';
import { effectiveBase } from '../convert/html/urls.js';
import { decodeBody } from '../convert/decode.js';

/**
 * A fetched HTML page, decoded and parsed once, shared by score, extract and map.
 * Pure: no I/O.
 */
export interface HtmlPage {
  url: string;
  /** Base for relative links: `<base href>` resolved against the page URL. */
  base: string;
  html: string;
  doc: Document;
}

/** Media types treated as HTML by the sibling operations. */
export function isHtmlType(contentType: string | null, body: Buffer): boolean {
  if (contentType === 'text/html' || contentType === 'application/xhtml+xml') return true;
  if (contentType !== null && contentType !== 'application/octet-stream' && contentType !== 'text/plain') return false;
  const head = body.subarray(0, 1024).toString('latin1').trimStart().toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html');
}

export function parsePage(url: string, body: Buffer, contentTypeHeader: string | null): HtmlPage {
  const html = decodeBody(body, contentTypeHeader).text;
  return parseHtmlString(url, html);
}

export function parseHtmlString(url: string, html: string): HtmlPage {
  const doc = parseHtml(html);
  let baseHref: string | null = null;
  walkElements(doc, (el) => {
    if (baseHref !== null) return false;
    if (el.name === 'base' && el.attribs.href) baseHref = el.attribs.href;
    return true;
  });
  return { url, base: effectiveBase(url, baseHref) ?? url, html, doc };
}

/** Elements whose text a reader never sees. */
const INVISIBLE = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg', 'iframe', 'object']);

/** Visible text of the page (script, style, noscript, template and head skipped), whitespace collapsed. */
export function visibleText(root: AnyNode): string {
  const parts: string[] = [];
  const stack: AnyNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as AnyNode;
    if (isText(node)) {
      parts.push(node.data);
      continue;
    }
    if (isElement(node) && INVISIBLE.has(node.name)) continue;
    if ('children' in node) {
      const kids = node.children;
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i] as AnyNode);
    }
  }
  return collapseWhitespace(parts.join(' '));
}

/** All elements, document order, filtered. */
export function elements(root: Document | Element, keep: (el: Element) => boolean): Element[] {
  const out: Element[] = [];
  walkElements(root, (el) => {
    if (keep(el)) out.push(el);
  });
  return out;
}

/** Absolute http(s) URL of `href` against `base`, without fragment; null for anything else. */
export function absoluteHttpUrl(href: string | undefined, base: string): string | null {
  if (href === undefined) return null;
  const raw = href.trim();
  if (raw === '') return null;
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  return url.href;
}
