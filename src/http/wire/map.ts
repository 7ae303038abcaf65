import type { MapResult, MapStats } from '../../ops/map.js';
import type { OPERATIONS } from '../operations.js';
import type { ReplyOf } from '../register-operation.js';
import { onWire } from './check.js';
import { renamed, wireNames } from './names.js';

/** Map's answer on the wire (also `pith map --json`). */

type MapAnswer = ReplyOf<typeof OPERATIONS.map>;

const STATS_NAMES = wireNames<MapStats, MapAnswer['stats']>()({
  sitemapsRead: 'sitemaps_read',
  sitemapBytes: 'sitemap_bytes',
  pageLinks: 'page_links',
  urlsFound: 'urls_found',
  urlsMatched: 'urls_matched',
  returned: 'returned',
  boundsHit: 'bounds_hit',
});

/** The JSON body of a map: the links as they are (their fields are the wire's), the stats renamed. */
export function mapResponseBody(result: MapResult): MapAnswer {
  return onWire<MapAnswer>()({ status: 'success', url: result.url, links: result.links, stats: renamed(result.stats, STATS_NAMES) });
}
