import type { ExtractData } from '../../ops/extract-data.js';
import type { ExtractResult } from '../../ops/extract.js';
import type { extractDataSchema, extractResponseSchema } from '../schemas.js';
import type { WireOf } from './check.js';
import { onWire } from './check.js';
import { renamed, wireNames } from './names.js';

/** Extract's answer on the wire (also what `pith extract` prints). */

type WireData = WireOf<typeof extractDataSchema>;

/** The page's own keys (JSON-LD properties, meta names, `fields` names) are values here, never renamed. */
const DATA_NAMES = wireNames<ExtractData, WireData>()({
  jsonLd: 'json_ld',
  openGraph: 'open_graph',
  meta: 'meta',
  headings: 'headings',
  links: 'links',
  images: 'images',
  tables: 'tables',
  fields: 'fields',
});

/** `data` of an extract. */
export function extractDataOnWire(data: ExtractData): WireData {
  return renamed(data, DATA_NAMES);
}

/** The JSON body of an extract (also what `pith extract --json` prints). */
export function extractResponseBody(result: ExtractResult): WireOf<typeof extractResponseSchema> {
  return onWire<WireOf<typeof extractResponseSchema>>()({
    status: 'success',
    url: result.url,
    data: extractDataOnWire(result.data),
    stats: { rendered: result.rendered },
    ...(result.warnings.length > 0 ? { warnings: result.warnings } : {}),
  });
}
