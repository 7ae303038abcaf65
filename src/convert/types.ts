import type { PageType } from './html/page-type.js';

/** A flag the client should know about; `code` is stable, `message` human. */
export interface Warning {
  code: string;
  message: string;
}

/** Metadata of a converted document. title/description/language are always present (null when unknown). */
export interface DocumentMetadata {
  title: string | null;
  description: string | null;
  language: string | null;
  site_name?: string | null;
  author?: string | null;
  published_at?: string | null;
  content_type?: string | null;
  page_count?: number | null;
  /** HTML pages: what kind of page it is (html/page-type.ts). */
  page_type?: PageType;
}

export interface ConvertResult {
  markdown: string;
  metadata: DocumentMetadata;
  warnings: Warning[];
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
  /** Options of the HTML engine the caller chose (e.g. keep_hidden). */
  html?: { keepHidden?: boolean };
}
