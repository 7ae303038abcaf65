import type { BatchResponse, Metadata, ReadResponse } from './types.js';

/**
 * Client-side types over the generated wire types (types.ts): the billing headers a call
 * reports, and narrower views the flat wire schemas cannot express.
 */

/** What the billing headers of a response said (absent headers are null). */
export interface Billing {
  /** `X-Service-Cache` */
  cache: 'HIT' | 'MISS' | null;
  /** `X-RateLimit-Remaining`: monthly plan credits left; null for unlimited plans. */
  planRemaining: number | null;
  /** `X-RateLimit-Reset`: ISO instant when plan credits reset. */
  planResetAt: string | null;
  /** `X-Service-Billed` */
  billed: 'plan' | 'credit' | null;
  /** `X-Credits-Remaining`: bought credits left, sent only when billed to credits. */
  creditsRemaining: number | null;
  /** `X-Concurrent-Remaining` */
  concurrentRemaining: number | null;
  /** `X-Request-Id` */
  requestId: string | null;
}

/** Every result carries the billing headers of the response that produced it. */
export type WithBilling<T> = T & { billing: Billing };

/** HTML pages: what kind of page it is (metadata.page_type). */
export type PageType = NonNullable<Metadata['page_type']>;

/** The fields of a read (also of a read-and-score and of an ok batch item). */
export type ReadFields = Omit<ReadResponse, 'status'>;

/** One batch item that was read; the wire schema is flat, `ok` tells the two kinds apart. */
export type BatchItemOk = ReadFields & { ok: true };
/** One batch item that failed (refunded). */
export interface BatchItemError {
  url: string;
  ok: false;
  error: NonNullable<BatchResponse['results'][number]['error']>;
}
export type BatchItem = BatchItemOk | BatchItemError;

/** A batch answer with its items narrowed by `ok`: what `PithClient.batch` resolves to. */
export interface BatchResults extends Omit<BatchResponse, 'results'> {
  results: BatchItem[];
}
