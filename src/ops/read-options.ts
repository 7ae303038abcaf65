import { createHash } from 'node:crypto';
import type { DocumentOptions, ImageMode, LinkMode, OutputFormat } from '../convert/types.js';

/**
 * How the caller wants a page read, beyond the URL: options of read, read-and-score and
 * batch that change the answer, so they are part of the cache key. Defaults leave the key
 * as it was, so a plain read shares its cache entry with every other plain read.
 */
export interface ReadOptions {
  /** Keep text styled to be invisible (still counted in HIDDEN_TEXT and checked for PROMPT_INJECTION). */
  keepHidden: boolean;
  /** `target_selector`: the content is what these match, in document order. */
  targetSelectors: readonly string[];
  /** `remove_selector`: removed before anything else. */
  removeSelectors: readonly string[];
  /** `main_content: false`: the whole body instead of the main content. */
  mainContent: boolean;
  format: OutputFormat;
  links: boolean;
  images: boolean;
  imageMode: ImageMode;
  linkMode: LinkMode;
  /** `clean_urls`: tracking parameters removed and redirect wrappers unwrapped (default). */
  cleanUrls: boolean;
}

export const DEFAULT_READ_OPTIONS: ReadOptions = {
  keepHidden: false,
  targetSelectors: [],
  removeSelectors: [],
  mainContent: true,
  format: 'markdown',
  links: false,
  images: false,
  imageMode: 'keep',
  linkMode: 'inline',
  cleanUrls: true,
};

/** The options that differ from the defaults, in a fixed key order, selectors sorted. */
function normalised(options: ReadOptions): Partial<Record<keyof ReadOptions, unknown>> {
  const out: Partial<Record<keyof ReadOptions, unknown>> = {};
  for (const key of Object.keys(DEFAULT_READ_OPTIONS).sort() as (keyof ReadOptions)[]) {
    const value = options[key];
    if (Array.isArray(value)) {
      if (value.length > 0) out[key] = [...value].sort();
    } else if (value !== DEFAULT_READ_OPTIONS[key]) out[key] = value;
  }
  return out;
}

/**
 * Cache-key suffix of non-default options: a digest of their normalised form, or ''. The
 * same options in another order (JSON fields, selectors) give the same key.
 */
export function readOptionsKey(options: ReadOptions): string {
  const normal = normalised(options);
  if (Object.keys(normal).length === 0) return '';
  return `#o:${createHash('sha256').update(JSON.stringify(normal)).digest('hex').slice(0, 16)}`;
}

/** The options as the converter takes them: plain data, defaults left out. */
export function documentOptionsOf(options: ReadOptions): DocumentOptions {
  const out: DocumentOptions = {};
  if (options.keepHidden) out.keepHidden = true;
  if (options.targetSelectors.length > 0) out.targetSelectors = options.targetSelectors;
  if (options.removeSelectors.length > 0) out.removeSelectors = options.removeSelectors;
  if (!options.mainContent) out.mainContent = false;
  if (options.format !== 'markdown') out.format = options.format;
  if (options.links) out.links = true;
  if (options.images) out.images = true;
  if (options.imageMode !== 'keep') out.imageMode = options.imageMode;
  if (options.linkMode !== 'inline') out.linkMode = options.linkMode;
  if (!options.cleanUrls) out.cleanUrls = false;
  return out;
}
