import { validateSelectors } from '../../convert/html/selectors.js';
import type { OutputFormat } from '../../convert/types.js';
import type { ReadOptions } from '../../ops/read-options.js';
import type { readOptionProperties } from '../schemas.js';
import type { WireOf } from './check.js';

/**
 * The read options of a request body (read, read-and-score, every item of batch; the CLI
 * builds the same body from its flags), typed from their schema: snake_case, as the wire
 * names them; all optional (the schema fills defaults in a request, the CLI leaves them out).
 */
export type ReadOptionsBody = Partial<WireOf<{ type: 'object'; properties: typeof readOptionProperties }>>;

/**
 * The domain options of a request body. Selectors are compiled here once, so a bad one is
 * BAD_REQUEST naming its field before anything is charged. `format` overrides the body's
 * (the representation an `Accept` header asked for).
 */
export function readOptionsOf(body: ReadOptionsBody, format?: OutputFormat): ReadOptions {
  const targetSelectors = selectorList(body.target_selector);
  const removeSelectors = selectorList(body.remove_selector);
  validateSelectors(targetSelectors, 'target_selector');
  validateSelectors(removeSelectors, 'remove_selector');
  return {
    keepHidden: body.keep_hidden === true,
    targetSelectors,
    removeSelectors,
    mainContent: body.main_content !== false,
    format: format ?? body.format ?? 'markdown',
    links: body.links === true,
    images: body.images === true,
    imageMode: body.image_mode ?? 'keep',
    linkMode: body.link_mode ?? 'inline',
    cleanUrls: body.clean_urls !== false,
  };
}

/** One selector or a list; trimmed, duplicates dropped. Order does not matter: matches come in document order. */
function selectorList(value: string | readonly string[] | undefined): string[] {
  const list = value === undefined ? [] : typeof value === 'string' ? [value] : [...value];
  return [...new Set(list.map((s) => s.trim()))];
}
