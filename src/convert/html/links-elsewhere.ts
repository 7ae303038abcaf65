import type { Element } from 'domhandler';
import type { PageLink } from '../types.js';
import { walkElements } from './dom.js';
import { outputUrl } from './urls.js';

/**
 * `links_elsewhere`: distinct link URLs of the page (after cleaning) that are not in the
 * content's `links` list — navigation, footer, related articles — counted, not listed.
 * Same-page fragments are not counted, as they are not listed.
 */
export function linksElsewhere(body: Element, base: string | null, content: ReadonlyMap<string, PageLink>, clean = true): number {
  const elsewhere = new Set<string>();
  walkElements(body, (el) => {
    if (el.name !== 'a') return;
    const href = el.attribs.href;
    if (href === undefined || href.trim() === '' || href.trim().startsWith('#')) return;
    const url = outputUrl(href, base, clean);
    if (url !== null && !content.has(url)) elsewhere.add(url);
  });
  return elsewhere.size;
}
