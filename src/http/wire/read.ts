import type { DocumentMetadata } from '../../convert/types.js';
import { CACHE_TTL_SECONDS } from '../../ops/cache.js';
import type { ReadResult, ReadStats } from '../../ops/read.js';
import type { OPERATIONS } from '../operations.js';
import type { ReplyOf } from '../register-operation.js';
import type { metadataSchema, readResultProperties, statsSchema } from '../schemas.js';
import type { WireOf } from './check.js';
import { onWire } from './check.js';
import { renamed, wireNames } from './names.js';

/**
 * Read's answer on the wire (read, read-and-score, every item of batch, `pith read --json`):
 * the domain ReadResult of ops/read.ts, serialised field by field against the response
 * schema.
 */

type WireMetadata = WireOf<typeof metadataSchema>;

const METADATA_NAMES = wireNames<DocumentMetadata, WireMetadata>()({
  title: 'title',
  description: 'description',
  language: 'language',
  pageType: 'page_type',
  siteName: 'site_name',
  author: 'author',
  publishedAt: 'published_at',
  contentType: 'content_type',
  pageCount: 'page_count',
});

/** `metadata` of a read (also what the goldens' expected-meta.json holds). */
export function metadataOnWire(metadata: DocumentMetadata): WireMetadata {
  return renamed(metadata, METADATA_NAMES);
}

type WireStats = WireOf<typeof statsSchema>;

const STATS_NAMES = wireNames<ReadStats, WireStats>()({
  rawHtmlSizeKb: 'raw_html_size_kb',
  markdownSizeKb: 'markdown_size_kb',
  reductionPercent: 'reduction_percent',
  extractionTimeMs: 'extraction_time_ms',
  rendered: 'rendered',
  tokens: 'tokens',
});

/** `stats` of a read. */
export function statsOnWire(stats: ReadStats): WireStats {
  return renamed(stats, STATS_NAMES);
}

type ReadAnswer = ReplyOf<typeof OPERATIONS.read>;

/**
 * The JSON body of a read: the spec's field table, the content under its format's name
 * (`markdown`, `html` or `text`), the lists only when asked for, `warnings` only when
 * there are some.
 */
export function readResponseBody(result: ReadResult, cacheHit: boolean): ReadAnswer {
  return onWire<ReadAnswer>()({ status: 'success', ...readResultOnWire(result, cacheHit) });
}

type ReadFields = WireOf<{ type: 'object'; required: ['url', 'metadata', 'stats', 'cache']; properties: typeof readResultProperties }>;

/** Read's fields without `status` (a batch item carries them next to `ok`). */
export function readResultOnWire(result: ReadResult, cacheHit: boolean): ReadFields {
  return onWire<ReadFields>()({
    url: result.url,
    ...contentField(result),
    ...(result.links ? { links: result.links, links_elsewhere: result.linksElsewhere ?? 0 } : {}),
    ...(result.images ? { images: result.images } : {}),
    metadata: metadataOnWire(result.metadata),
    stats: statsOnWire(result.stats),
    cache: { hit: cacheHit, ttl_seconds: CACHE_TTL_SECONDS },
    ...(result.warnings.length > 0 ? { warnings: result.warnings } : {}),
  });
}

function contentField(result: ReadResult): { markdown: string } | { html: string } | { text: string } {
  if (result.format === 'html') return { html: result.content };
  if (result.format === 'text') return { text: result.content };
  return { markdown: result.content };
}
