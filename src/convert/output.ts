import type { Element, ParentNode } from 'domhandler';
import { collapseWhitespace, parseHtml, textOf, walkElements } from './html/dom.js';
import { writeHtml } from './html/html-output.js';
import { MAX_LISTED } from './html/markdown.js';
import { writeText } from './html/text-output.js';
import { imageSource, outputUrl } from './html/urls.js';
import { countTokens } from './tokens.js';
import type { ConvertResult, DocumentOptions, OutputFormat, PageImage, PageLink, Warning } from './types.js';
import type { Job } from './workers/jobs.js';

/**
 * The last step of every conversion, in the worker that converted: the outputs the read
 * options ask for that the format's converter did not make itself, and the token count of
 * the answer's content. The HTML engine makes html, text, links and images from the page's
 * DOM; for the other formats (PDF, CSV, JSON, XML, text) they are made from our Markdown,
 * rendered by `marked` and written through the same allow-list writers, so `format: html`
 * of a PDF is as sanitised as that of a page.
 */
export async function finishOutput(result: ConvertResult, options: DocumentOptions, url: string): Promise<ConvertResult> {
  const format = options.format ?? 'markdown';
  const needsDom =
    (format === 'html' && result.html === undefined) ||
    (format === 'text' && result.text === undefined) ||
    (options.links === true && result.links === undefined) ||
    (options.images === true && result.images === undefined);
  const out: ConvertResult = needsDom ? { ...result, ...(await fromMarkdown(result, options, url)) } : { ...result };
  out.tokens = await countTokens(contentOf(out, format));
  return out;
}

/** finishOutput in a worker, for a PDF (converted by the pdf.js workers, finished here). */
export const FINISH_OUTPUT_JOB: Job<{ result: ConvertResult; options: DocumentOptions; url: string }, ConvertResult> = {
  name: 'finish-output',
  label: 'formatting the answer',
  run: ({ result, options, url }) => finishOutput(result, options, url),
  weight: ({ result }) => result.markdown.length,
  inline: ({ result, options }) => result.markdown.length <= 16 * 1024 && (options.format ?? 'markdown') === 'markdown',
};

/** Options that only an HTML page can follow, named when the document is something else. */
export function ignoredOptionsWarning(options: DocumentOptions, mediaType: string): Warning | null {
  const names = [
    ...((options.targetSelectors?.length ?? 0) > 0 ? ['target_selector'] : []),
    ...((options.removeSelectors?.length ?? 0) > 0 ? ['remove_selector'] : []),
    ...(options.mainContent === false ? ['main_content'] : []),
  ];
  if (names.length === 0) return null;
  return { code: 'OPTIONS_IGNORED', message: `${names.join(', ')} apply to HTML pages only; this document is ${mediaType}` };
}

/** The answer's content in `format` (the Markdown when that format was not made). */
export function contentOf(result: ConvertResult, format: OutputFormat): string {
  if (format === 'html') return result.html ?? result.markdown;
  if (format === 'text') return result.text ?? result.markdown;
  return result.markdown;
}

async function fromMarkdown(result: ConvertResult, options: DocumentOptions, url: string): Promise<Partial<ConvertResult>> {
  // loaded only for the documents that need it
  const { marked } = await import('marked');
  const doc = parseHtml(marked.parse(result.markdown, { gfm: true, headerIds: false, mangle: false }));
  const roots = doc.children;
  const modes = {
    ...(options.imageMode ? { imageMode: options.imageMode } : {}),
    ...(options.linkMode ? { linkMode: options.linkMode } : {}),
    ...(options.cleanUrls === false ? { cleanUrls: false } : {}),
  };
  const out: Partial<ConvertResult> = {};
  if (options.format === 'html') out.html = writeHtml(roots, { base: url, ...modes });
  if (options.format === 'text') out.text = writeText(roots, modes);
  if (options.links) {
    out.links = listed(doc, 'a', (a) => {
      const href = a.attribs.href;
      const target = href && !href.trim().startsWith('#') ? outputUrl(href, url, options.cleanUrls !== false) : null;
      return target ? { url: target, text: collapseWhitespace(textOf(a)) } : null;
    });
    // no page around the document: every link of it is content
    out.linksElsewhere = 0;
  }
  if (options.images) {
    out.images = listed(doc, 'img', (img) => {
      const src = imageSource(img);
      const target = src ? outputUrl(src, url, options.cleanUrls !== false) : null;
      return target ? { url: target, alt: collapseWhitespace(img.attribs.alt ?? '') } : null;
    });
  }
  return out;
}

/** Entries of the `name` elements, deduplicated by URL, in document order. */
function listed<T extends PageLink | PageImage>(root: ParentNode, name: string, entry: (el: Element) => T | null): T[] {
  const seen = new Map<string, T>();
  walkElements(root, (el) => {
    if (el.name !== name || seen.size >= MAX_LISTED) return;
    const e = entry(el);
    if (e && !seen.has(e.url)) seen.set(e.url, e);
  });
  return [...seen.values()];
}
