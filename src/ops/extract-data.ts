import { compile } from 'css-select';
import type { Element } from 'domhandler';
import { collapseWhitespace, textOf } from '../convert/html/dom.js';
import { imageSource, resolveUrl, splitSrcset } from '../convert/html/urls.js';
import { ServiceError } from '../errors.js';
import type { HtmlPage } from './html-page.js';
import { absoluteHttpUrl, elements } from './html-page.js';

/**
 * Deterministic structured data of an HTML page (no LLM): JSON-LD, OpenGraph/Twitter,
 * meta tags, headings, links, images, tables and caller-defined CSS `fields`. Pure.
 */
export interface FieldSpec {
  selector: string;
  attr?: string;
  all?: boolean;
}

export type FieldValue = string | string[] | null;

export interface ExtractData {
  /** JSON-LD blocks as the page has them (their own keys are the page's). */
  jsonLd: Array<Record<string, unknown>>;
  openGraph: Record<string, string | string[]>;
  meta: Record<string, string | string[]>;
  headings: Array<{ level: number; text: string; id: string | null }>;
  links: Array<{ url: string; text: string; rel: string | null }>;
  images: Array<{ url: string; alt: string | null; width: number | null; height: number | null }>;
  tables: Array<Array<Record<string, string>>>;
  fields: Record<string, FieldValue>;
}

/** Bounds on what one page yields (documented in docs/operations.md). */
export const EXTRACT_LIMITS = {
  jsonLd: 100,
  headings: 1000,
  links: 5000,
  images: 1000,
  tables: 100,
  tableRows: 1000,
  fieldValues: 1000,
} as const;
export const MAX_FIELDS = 50;

/** Attributes holding URLs: their `fields` values are made absolute against the page. */
const URL_ATTRS = new Set(['href', 'src', 'action', 'poster', 'cite', 'data-src', 'srcset']);
/** Property prefixes that belong to OpenGraph / Twitter cards rather than plain meta. */
const OPEN_GRAPH_PREFIX = /^(?:og|article|book|profile|music|video|fb|twitter):/i;

type Query = (el: Element) => boolean;
export interface CompiledField {
  name: string;
  spec: FieldSpec;
  query: Query;
}

/** Compiles `fields` selectors; a selector css-select cannot parse is BAD_REQUEST (checked before any charge). */
export function compileFields(fields: Record<string, FieldSpec> | undefined): CompiledField[] {
  const out: CompiledField[] = [];
  for (const [name, spec] of Object.entries(fields ?? {})) {
    let query: Query;
    try {
      query = compile<import('domhandler').AnyNode, Element>(spec.selector) as Query;
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new ServiceError('BAD_REQUEST', `fields.${name}.selector is not a valid CSS selector: ${reason.slice(0, 200)}`);
    }
    out.push({ name, spec, query });
  }
  return out;
}

export function extractData(page: HtmlPage, fields: CompiledField[]): ExtractData {
  const all = elements(page.doc, () => true);
  const named = (...names: string[]): Element[] => all.filter((el) => names.includes(el.name));
  return {
    jsonLd: jsonLd(named('script')),
    ...metaTags(named('meta')),
    headings: named('h1', 'h2', 'h3', 'h4', 'h5', 'h6')
      .slice(0, EXTRACT_LIMITS.headings)
      .map((h) => ({ level: Number(h.name.slice(1)), text: collapseWhitespace(textOf(h)), id: h.attribs.id ?? null })),
    links: links(named('a', 'area'), page.base),
    images: images(named('img'), page.base),
    tables: named('table').slice(0, EXTRACT_LIMITS.tables).map(tableRows),
    fields: Object.fromEntries(fields.map((f) => [f.name, fieldValue(all, f, page.base)])),
  };
}

function jsonLd(scripts: Element[]): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const script of scripts) {
    if ((script.attribs.type ?? '').trim().toLowerCase() !== 'application/ld+json') continue;
    let data: unknown;
    try {
      data = JSON.parse(textOfRaw(script));
    } catch {
      continue; // invalid blocks are skipped; score reports them
    }
    for (const item of Array.isArray(data) ? data : [data]) {
      if (!isRecord(item)) continue;
      const graph = item['@graph'];
      if (Array.isArray(graph)) {
        const context = item['@context'];
        for (const node of graph) {
          if (isRecord(node)) out.push(context !== undefined && !('@context' in node) ? { '@context': context, ...node } : node);
        }
      } else {
        out.push(item);
      }
    }
  }
  return out.slice(0, EXTRACT_LIMITS.jsonLd);
}

function textOfRaw(el: Element): string {
  return el.children.map((c) => ('data' in c ? String(c.data) : '')).join('');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function addValue(target: Record<string, string | string[]>, key: string, value: string): void {
  const prev = target[key];
  if (prev === undefined) target[key] = value;
  else if (Array.isArray(prev)) prev.push(value);
  else target[key] = [prev, value];
}

function metaTags(metas: Element[]): { openGraph: Record<string, string | string[]>; meta: Record<string, string | string[]> } {
  const openGraph: Record<string, string | string[]> = {};
  const meta: Record<string, string | string[]> = {};
  for (const el of metas) {
    const key = (el.attribs.property ?? el.attribs.name ?? '').trim().toLowerCase();
    const content = el.attribs.content;
    if (!key || content === undefined) continue;
    addValue(OPEN_GRAPH_PREFIX.test(key) ? openGraph : meta, key, content.trim());
  }
  return { openGraph, meta };
}

function links(anchors: Element[], base: string): ExtractData['links'] {
  const out: ExtractData['links'] = [];
  for (const a of anchors) {
    if (out.length >= EXTRACT_LIMITS.links) break;
    const url = absoluteHttpUrl(a.attribs.href, base);
    if (url === null) continue;
    const rel = (a.attribs.rel ?? '').trim();
    out.push({ url, text: collapseWhitespace(textOf(a)) || (a.attribs.title ?? a.attribs.alt ?? '').trim(), rel: rel === '' ? null : rel });
  }
  return out;
}

function dimension(value: string | undefined): number | null {
  if (value === undefined) return null;
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) && n > 0 ? n : null;
}

function images(imgs: Element[], base: string): ExtractData['images'] {
  const out: ExtractData['images'] = [];
  for (const img of imgs) {
    if (out.length >= EXTRACT_LIMITS.images) break;
    const src = imageSource(img);
    const url = src === null ? null : absoluteHttpUrl(src, base);
    if (url === null) continue;
    out.push({ url, alt: img.attribs.alt ?? null, width: dimension(img.attribs.width), height: dimension(img.attribs.height) });
  }
  return out;
}

/** Rows of this table only (not of tables nested in its cells). */
function ownRows(table: Element): Element[] {
  const rows: Element[] = [];
  for (const child of table.children) {
    if (child.type !== 'tag') continue;
    if (child.name === 'tr') rows.push(child);
    else if (['thead', 'tbody', 'tfoot'].includes(child.name)) {
      for (const row of child.children) if (row.type === 'tag' && row.name === 'tr') rows.push(row);
    }
  }
  return rows;
}

function cellsOf(row: Element): Element[] {
  return row.children.filter((c): c is Element => c.type === 'tag' && (c.name === 'td' || c.name === 'th'));
}

/** A table as row objects keyed by its header cells (`column_N` where there is none). */
export function tableRows(table: Element): Array<Record<string, string>> {
  const rows = ownRows(table).filter((r) => cellsOf(r).length > 0);
  const first = rows[0];
  const headerIsFirst =
    first !== undefined &&
    ((first.parent?.type === 'tag' && (first.parent as Element).name === 'thead') || cellsOf(first).every((c) => c.name === 'th'));
  const keys: string[] = [];
  if (headerIsFirst && first) {
    const seen = new Map<string, number>();
    for (const [i, cell] of cellsOf(first).entries()) {
      let key = collapseWhitespace(textOf(cell)) || `column_${i + 1}`;
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      if (n > 1) key = `${key}_${n}`;
      keys.push(key);
    }
  }
  const body = headerIsFirst ? rows.slice(1) : rows;
  return body.slice(0, EXTRACT_LIMITS.tableRows).map((row) => {
    const obj: Record<string, string> = {};
    for (const [i, cell] of cellsOf(row).entries()) obj[keys[i] ?? `column_${i + 1}`] = collapseWhitespace(textOf(cell));
    return obj;
  });
}

function fieldValue(all: Element[], field: CompiledField, base: string): FieldValue {
  const values: string[] = [];
  for (const el of all) {
    if (!field.query(el)) continue;
    const value = fieldValueOf(el, field.spec.attr, base);
    if (value === null) continue;
    values.push(value);
    if (!field.spec.all || values.length >= EXTRACT_LIMITS.fieldValues) break;
  }
  return field.spec.all ? values : (values[0] ?? null);
}

function fieldValueOf(el: Element, attr: string | undefined, base: string): string | null {
  if (attr === undefined) return collapseWhitespace(textOf(el));
  const name = attr.toLowerCase();
  const raw = el.attribs[name];
  if (raw === undefined) return null;
  if (name === 'srcset') return srcsetValue(raw, base);
  // The one URL policy (docs/safety.md): http(s) absolute without fragment, mailto: and tel:
  // as they are; any other scheme (javascript:, data:, …) is no value at all.
  if (URL_ATTRS.has(name)) return absoluteHttpUrl(raw, base) ?? resolveUrl(raw.trim(), base);
  return raw.trim();
}

/** A srcset with every candidate's URL made absolute http(s); refused candidates left out. */
function srcsetValue(raw: string, base: string): string | null {
  const candidates: string[] = [];
  for (const part of splitSrcset(raw)) {
    const [url, ...descriptor] = part.trim().split(/\s+/);
    const absolute = url ? absoluteHttpUrl(url, base) : null;
    if (absolute) candidates.push([absolute, ...descriptor].join(' '));
  }
  return candidates.length > 0 ? candidates.join(', ') : null;
}
