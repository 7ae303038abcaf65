/**
 * Request and response shapes of the pith API (DESIGN §2), snake_case as on the wire.
 * `type-checks.ts` proves them against the OpenAPI document's generated types; clients
 * must ignore fields they do not know, so every response may carry more than listed.
 */

/**
 * Render the page in a headless browser before converting it: `false` never, `true`
 * always, `"auto"` (the server's default) only when the page as the server sent it is a
 * JavaScript shell. Same cost either way.
 */
export type RenderMode = boolean | 'auto';

export interface ReadRequest {
  url: string;
  /** Skip the cache lookup; the new result is still cached. */
  fresh?: boolean;
  render?: RenderMode;
}

export interface Warning {
  code: string;
  message: string;
}

export interface Metadata {
  title: string | null;
  description: string | null;
  language: string | null;
  site_name?: string | null;
  author?: string | null;
  published_at?: string | null;
  content_type?: string | null;
  page_count?: number | null;
  /** HTML pages: what kind of page it is; the extraction rules follow it (a forum keeps every post, a grid every item). */
  page_type?: PageType | null;
}

export type PageType = 'article' | 'forum' | 'product' | 'collection' | 'listing' | 'documentation' | 'service' | 'other';

export interface ReadStats {
  raw_html_size_kb: number;
  markdown_size_kb: number;
  reduction_percent: number;
  extraction_time_ms: number;
  /** The Markdown comes from the page as a headless browser rendered it. */
  rendered: boolean;
}

export interface CacheInfo {
  hit: boolean;
  ttl_seconds: number;
}

/** The fields of a read (also of a read-and-score and of an ok batch item). */
export interface ReadFields {
  url: string;
  markdown: string;
  metadata: Metadata;
  stats: ReadStats;
  cache: CacheInfo;
  warnings?: Warning[];
}

export interface ReadResponse extends ReadFields {
  status: 'success';
}

export interface ScoreCheck {
  id: string;
  label: string;
  passed: boolean;
  points: number;
  max_points: number;
  detail: string;
}

export interface Score {
  /** 0-100 */
  value: number;
  grade: 'A' | 'B' | 'C' | 'D' | 'F';
  checks: ScoreCheck[];
}

export interface ScoreRequest {
  url: string;
}

export interface ScoreResponse {
  status: 'success';
  url: string;
  score: Score;
}

export interface ReadAndScoreResponse extends ReadResponse {
  score: Score;
}

export interface ExtractField {
  /** CSS selector */
  selector: string;
  /** Attribute to take instead of the text. */
  attr?: string;
  /** Every match instead of the first. */
  all?: boolean;
}

export interface ExtractRequest {
  url: string;
  fresh?: boolean;
  render?: RenderMode;
  fields?: Record<string, ExtractField>;
}

export interface ExtractData {
  json_ld: unknown[];
  open_graph: Record<string, unknown>;
  meta: Record<string, unknown>;
  headings: unknown[];
  links: unknown[];
  images: unknown[];
  tables: unknown[];
  fields: Record<string, unknown>;
}

export interface ExtractResponse {
  status: 'success';
  url: string;
  data: ExtractData;
  stats: { rendered: boolean };
  warnings?: Warning[];
}

export interface MapRequest {
  url: string;
  /** Default 1000, max 5000. */
  limit?: number;
  include?: string[];
  exclude?: string[];
  /** Rank links by relevance to this query. */
  search?: string;
  /** Keep only URLs of the page's registrable domain (default true). */
  same_domain?: boolean;
}

export interface MapLink {
  url: string;
  source: 'sitemap' | 'page';
  lastmod?: string | null;
  title?: string | null;
}

export interface MapResponse {
  status: 'success';
  url: string;
  links: MapLink[];
  stats: Record<string, unknown>;
}

export interface BatchRequest {
  /** 1 to 100 URLs */
  urls: string[];
  /** For every item. */
  render?: RenderMode;
}

export interface BatchItemOk extends ReadFields {
  ok: true;
}

export interface BatchItemError {
  url: string;
  ok: false;
  error: { code: string; message: string };
}

export type BatchItem = BatchItemOk | BatchItemError;

export interface BatchResponse {
  status: 'success';
  results: BatchItem[];
}

export type PlanId = 'free' | 'starter' | 'growth' | 'scale' | 'enterprise';

export interface UsageResponse {
  status: 'success';
  account_id: string;
  plan: PlanId;
  period: { start: string; end: string };
  plan_credits: { limit: number | null; used: number; remaining: number | null };
  bought_credits: { balance: number };
  concurrency: { limit: number; in_flight: number };
}

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
