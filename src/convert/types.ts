import type { PageType } from './html/page-type.js';

/**
 * Every warning code an answer can carry. The OpenAPI description of `warnings[].code` is made
 * from this list, and test/unit/http/warning-codes.test.ts checks it against docs/errors.md
 * and the codes raised in src/.
 */
export const WARNING_CODES = [
  'JS_SHELL',
  'LOW_CONTENT',
  'HIDDEN_TEXT',
  'PROMPT_INJECTION',
  'SELECTOR_SKIPPED',
  'OPTIONS_IGNORED',
  'TRUNCATED',
  'CONTENT_TYPE_MISMATCH',
  'CHARSET_GUESSED',
  'INVALID_JSON',
  'JSON_TOO_DEEP',
  'XML_ENTITIES_IGNORED',
  'PDF_PAGES_WITHOUT_TEXT',
  'RENDER_SKIPPED',
  'RENDER_INCOMPLETE',
] as const;
export type WarningCode = (typeof WARNING_CODES)[number];

/** A flag the client should know about; `code` is stable, `message` human. */
export interface Warning {
  code: WarningCode;
  message: string;
}

/**
 * Metadata of a converted document. title/description/language are always present (null when
 * unknown). A domain object: the wire names its fields in http/wire/read.ts.
 */
export interface DocumentMetadata {
  title: string | null;
  description: string | null;
  language: string | null;
  siteName?: string | null;
  author?: string | null;
  publishedAt?: string | null;
  contentType?: string | null;
  pageCount?: number | null;
  /** HTML pages: what kind of page it is (html/page-type.ts). */
  pageType?: PageType;
}

/** `format` of a read: what the answer's content is. */
export type OutputFormat = 'markdown' | 'html' | 'text';
/** `image_mode`: images kept, replaced by their alt text, or left out. */
export type ImageMode = 'keep' | 'alt' | 'drop';
/** `link_mode`: inline links, numbered references listed at the end, or link text only. */
export type LinkMode = 'inline' | 'references' | 'text';

/** A link of the main content (`links: true`): absolute URL under the URL policy, and its text. */
export interface PageLink {
  url: string;
  text: string;
}

/** An image of the main content (`images: true`). */
export interface PageImage {
  url: string;
  alt: string;
}

/**
 * The read options as the converter takes them: plain data (they cross into worker
 * threads; selectors are compiled again there). Absent fields are the defaults.
 */
export interface DocumentOptions {
  /** Keep text styled to be invisible (`keep_hidden`); it is still counted and checked. */
  keepHidden?: boolean;
  /** `target_selector`: the content is what these match (HTML pages). */
  targetSelectors?: readonly string[];
  /** `remove_selector`: removed before anything else (HTML pages). */
  removeSelectors?: readonly string[];
  /** `main_content: false`: the whole body instead of the main content (HTML pages). */
  mainContent?: boolean;
  format?: OutputFormat;
  /** Return the `links` list (and `links_elsewhere`). */
  links?: boolean;
  /** Return the `images` list. */
  images?: boolean;
  imageMode?: ImageMode;
  linkMode?: LinkMode;
  /** `clean_urls: false`: URLs exactly as found (no tracking parameters removed, no redirect unwrapped). */
  cleanUrls?: boolean;
}

export interface ConvertResult {
  /** The content as Markdown (always made: metadata and warnings read it). */
  markdown: string;
  metadata: DocumentMetadata;
  warnings: Warning[];
  /** `format: html`: the cleaned content as sanitised HTML. */
  html?: string;
  /** `format: text`: the content as plain text. */
  text?: string;
  /** `links: true`: links of the content, and how many other distinct links the page has. */
  links?: PageLink[];
  linksElsewhere?: number;
  /** `images: true`: images of the content. */
  images?: PageImage[];
  /** o200k_base tokens of the content in the asked format (tokens.ts). */
  tokens?: number;
}

/** Input of the format dispatcher: the fetched bytes and what the server said about them. */
export interface ConvertInput {
  body: Buffer;
  /** Media type from Content-Type (no parameters), null when absent. */
  contentType: string | null;
  /** Response headers, lower-case names (charset, Content-Language…). */
  headers: Record<string, string>;
  /** Final URL, the base for relative links. */
  url: string;
  /** The request's signal: a page still waiting for a converter is dropped when it aborts. */
  signal?: AbortSignal;
  /** The read options the caller chose. */
  options?: DocumentOptions;
}
