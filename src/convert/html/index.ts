import { Element } from 'domhandler';
import type { Document } from 'domhandler';
import { ServiceError, isServiceError } from '../../errors.js';
import type { ConvertResult, DocumentMetadata, DocumentOptions } from '../types.js';
import { replaceInlineLinks, stripTagRuns } from '../inline-scan.js';
import { findFirst, parseHtml, rootOf } from './dom.js';
import { pageLanguage } from './language.js';
import { extractMainContent } from './main-content.js';
import { MarkdownWriter } from './markdown.js';
import { ReadSteering } from './read-steering.js';
import { buildMetadata } from './metadata.js';
import { collectPageSignals, measureStructure } from './page-signals.js';
import { classifyPage } from './page-type.js';
import { declaredDescription } from './product.js';
import type { PageType } from './page-type.js';
import type { Prepared } from './prepare.js';
import { prepareDocument } from './prepare.js';
import { computeStats } from './stats.js';
import { effectiveBase } from './urls.js';
import { injectionWarning } from './injection.js';
import { hiddenTextWarning, pageWarnings } from './warnings.js';

/**
 * The extraction engine: HTML in, main content out as GitHub-flavoured Markdown plus
 * metadata and warnings. A pure function (no I/O, no globals). Phases: parse → cap depth →
 * read metadata → prepare (drop non-content) → main content → Markdown → language, warnings.
 * See docs/extraction.md.
 */
export interface HtmlToMarkdownOptions extends DocumentOptions {
  /** Content-Language response header, a hint for metadata.language. */
  contentLanguage?: string | null;
  /** Skip the page-type classifier and use this type (benchmarks measure the rules apart from it). */
  pageType?: PageType;
}

/** A description made from the first paragraph is cut at about this many characters. */
const DESCRIPTION_MAX = 300;
/** The description fallback looks for a paragraph in this much Markdown. */
const DESCRIPTION_SCAN_CHARS = 20_000;
/** Language detection reads the start of the Markdown only. */
const LANGUAGE_SAMPLE_CHARS = 3000;
/** Share of control/replacement characters above which the input is binary, not HTML. */
const BINARY_SHARE = 0.1;
/** Page types whose `alt=""` pictures are backgrounds and illustrations, left out (lean output). */
const EMPTY_ALT_DECORATION_TYPES: ReadonlySet<PageType> = new Set(['service', 'product', 'collection', 'listing']);

export function htmlToMarkdown(html: string, baseUrl: string, options: HtmlToMarkdownOptions = {}): ConvertResult {
  try {
    return convert(html, baseUrl, options);
  } catch (err) {
    if (isServiceError(err)) throw err;
    throw new ServiceError('EXTRACTION_FAILED', 'the page could not be converted', {}, { cause: err });
  }
}

function convert(html: string, baseUrl: string, options: HtmlToMarkdownOptions): ConvertResult {
  if (looksBinary(html)) throw new ServiceError('EXTRACTION_FAILED', 'the document is binary, not HTML text');
  const doc = parseHtml(html);
  const steer = new ReadSteering(options);
  steer.removeSelected(doc);
  const prepared = prepareDocument(doc, { keepHidden: options.keepHidden === true });
  const { signals, raw } = prepared;
  const meta = buildMetadata(raw);
  const body = bodyOf(doc, prepared);
  const stats = computeStats(body);
  const evidence = collectPageSignals({ url: baseUrl, body, stats, meta, markup: prepared.hints });
  const pageType = options.pageType ?? classifyPage(evidence, () => measureStructure(evidence, body, stats)).type;
  const content = steer.chooseContent(body, stats, () => {
    const main = extractMainContent(body, {
      titles: meta.titleVariants,
      authorKnown: meta.author !== null,
      author: meta.author,
      dated: meta.publishedAt !== null,
      stats,
      pageType,
    });
    const declared = (main.pageType ?? pageType) === 'product' ? declaredDescription(meta.productDescription, main.roots, main.drop) : null;
    if (declared) main.roots.unshift(declared);
    return main;
  });
  const finalType = content.pageType ?? pageType;
  const writer = new MarkdownWriter({
    base: effectiveBase(baseUrl, meta.baseHref),
    page: effectiveBase(baseUrl, null),
    drop: content.drop,
    stats: content.stats,
    ...(content.cardImages ? { cardImages: content.cardImages } : {}),
    emptyAltIsDecoration: EMPTY_ALT_DECORATION_TYPES.has(finalType),
    thread: finalType === 'forum',
    ...steer.modes,
  });
  const markdown = sanitize(writer.render(content.roots));
  const plain = (): string => markdownToPlain(markdown.slice(0, LANGUAGE_SAMPLE_CHARS));
  const metadata: DocumentMetadata = {
    title: sanitizeOrNull(meta.title),
    description: sanitizeOrNull(meta.description ?? firstParagraph(markdown)),
    language: pageLanguage(meta.htmlLang, options.contentLanguage, plain),
    pageType: finalType,
  };
  if (meta.siteName) metadata.siteName = sanitize(meta.siteName);
  if (meta.author) metadata.author = sanitize(meta.author);
  if (meta.publishedAt) metadata.publishedAt = sanitize(meta.publishedAt);
  const warnings = [...steer.warnings, ...pageWarnings(signals, content.stats.get(body)?.textLen ?? 0, steer.lowContentLength(content))];
  const hidden = hiddenTextWarning(prepared.hidden, options.keepHidden === true);
  if (hidden) warnings.push(hidden);
  const injection = injectionWarning(markdown, 'the main content') ?? injectionWarning(prepared.hidden.sample, 'hidden text of the page');
  if (injection) warnings.push(injection);
  return { markdown, metadata, warnings, ...steer.outputs(content, writer, body, sanitize) };
}

/** The first `<body>` (else `<html>`) still in the document; else a synthetic body over everything. */
function bodyOf(doc: Document, prepared: Prepared): Element {
  for (const seen of [prepared.firstBody, prepared.firstHtml]) {
    if (seen === null) continue;
    if (rootOf(seen) === doc) return seen;
    // prepare dropped it with a hidden ancestor: search what is left (a rare, small cost)
    const other = findFirst(doc, seen.name);
    if (other) return other;
  }
  const synthetic = new Element('body', {}, doc.children);
  for (const c of doc.children) c.parent = synthetic;
  doc.children = [synthetic];
  synthetic.parent = doc;
  return synthetic;
}

const BINARY_CHARS = /[\u0000-\u0008\u000e-\u001f\ufffd]/g;

function looksBinary(html: string): boolean {
  const sample = html.slice(0, 8192);
  if (sample.length === 0) return false;
  let bad = 0;
  BINARY_CHARS.lastIndex = 0;
  while (BINARY_CHARS.exec(sample) !== null) bad++;
  return bad / sample.length > BINARY_SHARE;
}

const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const HAS_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const HAS_LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** String.prototype.isWellFormed (native since Node 20, not yet in TypeScript's ES2023 lib). */
function isWellFormed(s: string): boolean {
  const native = (s as unknown as { isWellFormed?: () => boolean }).isWellFormed;
  return typeof native === 'function' ? native.call(s) : !HAS_LONE_SURROGATE.test(s);
}

/** Valid UTF-8 out: no lone surrogates, no control characters. */
function sanitize(s: string): string {
  const a = HAS_CONTROL.test(s) ? s.replace(CONTROL, '') : s;
  return isWellFormed(a) ? a : a.replace(LONE_SURROGATE, '\ufffd');
}

function sanitizeOrNull(s: string | null): string | null {
  if (s === null) return null;
  const t = sanitize(s).trim();
  return t === '' ? null : t;
}

/** `[text][n]` of `link_mode: references` (our own output: link text has no raw brackets). */
const REFERENCE_LINK = /\[([^[\]\n]{0,500})\]\[\d{1,6}\]/g;

/** Visible text of our own Markdown (for language detection and LOW_CONTENT). */
function markdownToPlain(md: string): string {
  const withoutFences = md.replace(/^```.*$/gm, '').replace(REFERENCE_LINK, '$1');
  const plainLinks = replaceInlineLinks(stripTagRuns(replaceInlineLinks(withoutFences, () => '', '![')), (label) => label);
  return plainLinks
    .replace(/^[#>\-*|: ]+/gm, '')
    .replace(/[*_`|]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function firstParagraph(md: string): string | null {
  for (const block of md.slice(0, DESCRIPTION_SCAN_CHARS).split(/\n{2,}/)) {
    if (/^(?:#|```|\||>|- |\d+\. |!\[|\$\$|---)/.test(block)) continue;
    const text = markdownToPlain(block);
    if (text.length < 40) continue;
    if (text.length <= DESCRIPTION_MAX) return text;
    const cut = text.slice(0, DESCRIPTION_MAX);
    return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), DESCRIPTION_MAX / 2))}…`;
  }
  return null;
}
