/**
 * XML → Markdown. RSS (0.9x/1.0/2.0) and Atom feeds → a list of entries (title as link,
 * date, summary); sitemaps and sitemap indexes → a list of URLs; XHTML → the HTML
 * converter's job (the caller checks `isXhtml`); any other XML → an indented outline.
 *
 * Safety: htmlparser2 in xmlMode never reads a DTD, so no entity is ever expanded (no
 * XXE, no billion laughs): `&name;` references to DTD entities stay literal text. The
 * internal subset is cut out before parsing and flagged with XML_ENTITIES_IGNORED.
 */
import { parseDocument } from 'htmlparser2';
import type { ChildNode, Document, Element } from 'domhandler';
import { MAX_MARKDOWN_CHARS, clip, escapeInline, squash, truncatedWarning } from '../markdown.js';
import type { Warning } from '../types.js';

/** Entries listed from a feed, URLs from a sitemap, and elements in an outline. */
const MAX_FEED_ENTRIES = 1_000;
const MAX_SITEMAP_URLS = 50_000;
const MAX_OUTLINE_NODES = 20_000;
const SUMMARY_CHARS = 500;
/**
 * Elements parsed at most. The DOM costs ~250 bytes per element: 10 MB of `<a/>` would be
 * 2.5 M elements and over 600 MB; 300 k tags keep it near 80 MB and fit any sitemap
 * (50,000 URLs × up to 5 elements each).
 */
const MAX_XML_ELEMENTS = 300_000;
/** Deeper outline levels are folded into their parent's text. */
const MAX_OUTLINE_DEPTH = 32;

export interface XmlConversion {
  markdown: string;
  title: string | null;
  description: string | null;
  language: string | null;
  /** Refined media type: application/rss+xml, application/atom+xml, … */
  mediaType: string;
  warnings: Warning[];
}

const SKIP_TEXT = new Set(['script', 'style']);
const DOCTYPE = /<!DOCTYPE/gi;
const SUBSET_OR_END = /[[>]/g;
const SUBSET_END = /\]\s*>/g;

/**
 * The first document type declaration with an internal subset (`<!DOCTYPE d [ … ]>`), as
 * `/<!DOCTYPE[^[>]*\[[\s\S]*?\]\s*>/i` finds it, or null. A scanner, because that regex
 * restarts at every `<!DOCTYPE` and scans to the end when nothing closes it: quadratic.
 */
export function findDtdSubset(text: string): { index: number; text: string } | null {
  let from = 0;
  for (;;) {
    DOCTYPE.lastIndex = from;
    const start = DOCTYPE.exec(text);
    if (!start) return null;
    SUBSET_OR_END.lastIndex = start.index + start[0].length;
    const open = SUBSET_OR_END.exec(text);
    if (!open) return null;
    // `>` first: this declaration has no subset, nor has any other that starts before it.
    if (open[0] === '>') {
      from = open.index + 1;
      continue;
    }
    SUBSET_END.lastIndex = open.index + 1;
    const close = SUBSET_END.exec(text);
    if (!close) return null;
    return { index: start.index, text: text.slice(start.index, close.index + close[0].length) };
  }
}

export function parseXml(text: string): { doc: Document; warnings: Warning[] } {
  const warnings: Warning[] = [];
  let source = text.replace(/^\uFEFF/, '');
  const subset = findDtdSubset(source.slice(0, 1024 * 1024));
  if (subset) {
    source = source.slice(0, subset.index) + source.slice(subset.index + subset.text.length);
    if (/<!ENTITY/i.test(subset.text))
      warnings.push({ code: 'XML_ENTITIES_IGNORED', message: 'the document type declaration defines entities; they were not expanded' });
  }
  const cut = nthStartTag(source, MAX_XML_ELEMENTS);
  if (cut >= 0) {
    warnings.push(truncatedWarning(`XML cut after ${MAX_XML_ELEMENTS} elements (${cut} of ${source.length} characters read)`));
    source = source.slice(0, cut);
  }
  return { doc: parseDocument(source, { xmlMode: true, decodeEntities: true }), warnings };
}

/** Offset of the (n+1)-th start tag (`<` not followed by `/`), or -1 when there are at most n. */
function nthStartTag(text: string, n: number): number {
  let at = -1;
  let count = 0;
  for (;;) {
    at = text.indexOf('<', at + 1);
    if (at < 0) return -1;
    if (text.charCodeAt(at + 1) !== 0x2f && ++count > n) return at;
  }
}

/** The root element's local name (lower-case), e.g. `rss`, `feed`, `urlset`, `html`. */
export function rootName(doc: Document): string | null {
  const root = doc.children.find(isElement);
  return root ? localName(root) : null;
}

export function xmlToMarkdown(text: string): XmlConversion {
  const { doc, warnings } = parseXml(text);
  const root = doc.children.find(isElement);
  if (!root) return { markdown: '', title: null, description: null, language: null, mediaType: 'application/xml', warnings };
  const name = localName(root);
  let result: Omit<XmlConversion, 'warnings'>;
  if (name === 'rss' || name === 'rdf') result = rssToMarkdown(root, warnings);
  else if (name === 'feed') result = atomToMarkdown(root, warnings);
  else if (name === 'urlset' || name === 'sitemapindex') result = sitemapToMarkdown(root, name, warnings);
  else result = outlineToMarkdown(root, warnings);
  return { ...result, warnings };
}

function rssToMarkdown(root: Element, warnings: Warning[]): Omit<XmlConversion, 'warnings'> {
  const channel = child(root, 'channel') ?? root;
  const items = [...children(channel, 'item'), ...(channel === root ? [] : children(root, 'item'))];
  const title = textOf(child(channel, 'title'));
  const description = textOf(child(channel, 'description'));
  const entries = items.map((item) => ({
    title: textOf(child(item, 'title')),
    link: textOf(child(item, 'link')) ?? permalink(item),
    date: textOf(child(item, 'pubDate')) ?? textOf(child(item, 'date')),
    summary: textOf(child(item, 'description')) ?? textOf(child(item, 'encoded')),
  }));
  const markdown = renderFeed(title, textOf(child(channel, 'link')), description, entries, warnings);
  return {
    markdown,
    title: title ? plain(title) : null,
    description: description ? clip(plain(description), 300) : null,
    language: textOf(child(channel, 'language')),
    mediaType: 'application/rss+xml',
  };
}

function permalink(item: Element): string | null {
  const guid = child(item, 'guid');
  const value = textOf(guid);
  return value && guid?.attribs.isPermaLink !== 'false' && /^https?:\/\//.test(value) ? value : null;
}

function atomToMarkdown(root: Element, warnings: Warning[]): Omit<XmlConversion, 'warnings'> {
  const title = textOf(child(root, 'title'));
  const subtitle = textOf(child(root, 'subtitle'));
  const entries = children(root, 'entry').map((entry) => ({
    title: textOf(child(entry, 'title')),
    link: atomLink(entry),
    date: textOf(child(entry, 'published')) ?? textOf(child(entry, 'updated')),
    summary: textOf(child(entry, 'summary')) ?? textOf(child(entry, 'content')),
  }));
  const markdown = renderFeed(title, atomLink(root), subtitle, entries, warnings);
  const language = root.attribs['xml:lang'] ?? null;
  return {
    markdown,
    title: title ? plain(title) : null,
    description: subtitle ? clip(plain(subtitle), 300) : null,
    language,
    mediaType: 'application/atom+xml',
  };
}

function atomLink(el: Element): string | null {
  const links = children(el, 'link');
  const alternate = links.find((l) => (l.attribs.rel ?? 'alternate') === 'alternate') ?? links[0];
  return alternate?.attribs.href ?? null;
}

interface FeedEntry {
  title: string | null;
  link: string | null;
  date: string | null;
  summary: string | null;
}

function renderFeed(
  title: string | null,
  link: string | null,
  description: string | null,
  entries: FeedEntry[],
  warnings: Warning[],
): string {
  const out: string[] = [];
  if (title) out.push(`# ${link ? `[${escapeInline(plain(title))}](${linkTarget(link)})` : escapeInline(plain(title))}`, '');
  if (description) out.push(escapeInline(clip(plain(description), SUMMARY_CHARS)), '');
  if (entries.length > MAX_FEED_ENTRIES) warnings.push(truncatedWarning(`feed cut at ${MAX_FEED_ENTRIES} of ${entries.length} entries`));
  for (const entry of entries.slice(0, MAX_FEED_ENTRIES)) {
    const label = escapeInline(entry.title ? plain(entry.title) : (entry.link ?? '(untitled)'));
    const head = entry.link ? `[${label}](${linkTarget(entry.link)})` : label;
    const date = entry.date ? ` — ${isoDate(entry.date)}` : '';
    out.push(`- ${head}${date}`);
    const summary = entry.summary ? clip(plain(entry.summary), SUMMARY_CHARS) : '';
    if (summary) out.push(`  ${escapeInline(summary)}`);
  }
  return `${out.join('\n').trimEnd()}\n`;
}

function sitemapToMarkdown(root: Element, name: string, warnings: Warning[]): Omit<XmlConversion, 'warnings'> {
  const entries = children(root, name === 'urlset' ? 'url' : 'sitemap');
  const title = name === 'urlset' ? 'Sitemap' : 'Sitemap index';
  const out = [`# ${title}`, ''];
  if (entries.length > MAX_SITEMAP_URLS) warnings.push(truncatedWarning(`sitemap cut at ${MAX_SITEMAP_URLS} of ${entries.length} URLs`));
  for (const entry of entries.slice(0, MAX_SITEMAP_URLS)) {
    const loc = textOf(child(entry, 'loc'));
    if (!loc) continue;
    const lastmod = textOf(child(entry, 'lastmod'));
    out.push(`- <${loc.replace(/[<>\s]/g, encodeURIComponent)}>${lastmod ? ` — ${isoDate(lastmod)}` : ''}`);
  }
  const count = out.length - 2;
  return {
    markdown: `${out.join('\n')}\n`,
    title,
    description: `${count} ${name === 'urlset' ? 'URLs' : 'sitemaps'}`,
    language: null,
    mediaType: 'application/xml',
  };
}

/** Any other XML: one list item per element, attributes in parentheses, text after a colon. */
function outlineToMarkdown(root: Element, warnings: Warning[]): Omit<XmlConversion, 'warnings'> {
  const out: string[] = [];
  let size = 0;
  let nodes = 0;
  let cut = false;
  const visit = (el: Element, depth: number): void => {
    if (cut) return;
    if (++nodes > MAX_OUTLINE_NODES || size > MAX_MARKDOWN_CHARS) {
      cut = true;
      return;
    }
    const kids = el.children.filter(isElement);
    const attrs = Object.entries(el.attribs).filter(([k]) => !k.startsWith('xmlns'));
    const attrText = attrs.length ? ` (${attrs.map(([k, v]) => `${k}="${clip(v, 200)}"`).join(', ')})` : '';
    const ownText = squash(
      el.children
        .filter((c) => c.type === 'text' || c.type === 'cdata')
        .map((c) => textContent(c))
        .join(' '),
    );
    const deep = depth >= MAX_OUTLINE_DEPTH && kids.length > 0;
    const text = deep ? squash(textContent(el)) : ownText;
    const line = `${'  '.repeat(depth)}- **${escapeInline(el.name)}**${escapeInline(attrText)}${text ? `: ${escapeInline(clip(text, 2000))}` : ''}`;
    out.push(line);
    size += line.length + 1;
    if (!deep) for (const kid of kids) visit(kid, depth + 1);
  };
  visit(root, 0);
  if (cut) warnings.push(truncatedWarning(`outline cut at ${Math.min(nodes, MAX_OUTLINE_NODES)} elements`));
  const title = textOf(child(root, 'title')) ?? textOf(child(root, 'name'));
  return {
    markdown: `${out.join('\n')}\n`,
    title,
    description: null,
    language: root.attribs['xml:lang'] ?? null,
    mediaType: 'application/xml',
  };
}

function isElement(node: ChildNode): node is Element {
  return node.type === 'tag';
}

function localName(el: Element): string {
  const name = el.name.toLowerCase();
  const colon = name.indexOf(':');
  return colon >= 0 ? name.slice(colon + 1) : name;
}

function children(el: Element, name: string): Element[] {
  const lower = name.toLowerCase();
  return el.children.filter((c): c is Element => isElement(c) && localName(c) === lower);
}

function child(el: Element, name: string): Element | undefined {
  return children(el, name)[0];
}

/** Text of a node and its descendants; iterative, so deep nesting cannot overflow the stack. */
function textContent(node: ChildNode): string {
  const parts: string[] = [];
  const stack: ChildNode[] = [node];
  while (stack.length > 0) {
    const current = stack.pop() as ChildNode;
    if (current.type === 'text') parts.push(current.data);
    else if ((current.type === 'cdata' || current.type === 'tag') && !(current.type === 'tag' && SKIP_TEXT.has(current.name))) {
      for (let i = current.children.length - 1; i >= 0; i--) stack.push(current.children[i] as ChildNode);
      if (current.type === 'tag') parts.push(' ');
    }
  }
  return parts.join('');
}

function textOf(el: Element | undefined): string | null {
  if (!el) return null;
  const text = textContent(el).trim();
  return text || null;
}

/** Feed summaries are often escaped HTML: drop tags and decode entities, keep the words. */
function plain(html: string): string {
  if (!/[<&]/.test(html)) return squash(html);
  const doc = parseDocument(html, { decodeEntities: true });
  return squash(doc.children.map(textContent).join(' '));
}

function linkTarget(url: string): string {
  const trimmed = url.trim();
  return /[\s()<>]/.test(trimmed) ? `<${trimmed.replace(/[<>]/g, encodeURIComponent).replace(/\s/g, '%20')}>` : trimmed;
}

/** RFC 822 / ISO dates → YYYY-MM-DD; anything unparseable is shown as sent. */
function isoDate(value: string): string {
  const ms = Date.parse(value.trim());
  return Number.isNaN(ms) ? squash(value) : new Date(ms).toISOString().slice(0, 10);
}
