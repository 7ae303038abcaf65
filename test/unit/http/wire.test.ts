import { describe, expect, it } from 'vitest';
import type { OPERATIONS } from '../../../src/http/operations.js';
import type { ReplyOf } from '../../../src/http/register-operation.js';
import { onWire } from '../../../src/http/wire/check.js';
import { renamed, wireNames } from '../../../src/http/wire/names.js';

type ReadAnswer = ReplyOf<typeof OPERATIONS.read>;
const readAnswer = onWire<ReadAnswer>();
const stats = { raw_html_size_kb: 1, markdown_size_kb: 0.5, reduction_percent: 50, extraction_time_ms: 3, rendered: false, tokens: 12 };
const base = { status: 'success', url: 'https://example.com/', markdown: '# Hi', cache: { hit: false, ttl_seconds: 3600 } } as const;

/**
 * The serializer drops a field its response schema does not list. `npm test` type-checks
 * this file: each `@ts-expect-error` below must meet an error, so the planted fields prove
 * that such an answer does not compile (the check has teeth), deep inside too.
 */
describe('answers are checked against their response schema at compile time', () => {
  it('accepts an answer the schema describes', () => {
    const metadata = { title: 'Hi', description: null, language: 'en', page_type: 'article' as const };
    expect(readAnswer({ ...base, metadata, stats }).metadata.title).toBe('Hi');
  });

  it('refuses a domain object carrying a field the schema lacks (a planted violation)', () => {
    const metadata = { title: null, description: null, language: null, internal_score: 0.4 };
    // @ts-expect-error `metadata.internal_score` is not in the response schema
    expect(readAnswer({ ...base, metadata, stats }).url).toBe(base.url);
    const spreadStats = { ...stats, worker_ms: 3 };
    // @ts-expect-error `stats.worker_ms` is not in the response schema, even through a spread
    expect(readAnswer({ ...base, metadata: { title: null, description: null, language: null }, stats: spreadStats }).url).toBe(base.url);
  });
});

describe('names tables (http/wire/names.ts) are checked both ways at compile time', () => {
  interface Domain {
    fooBar: number;
    baz?: string | null;
  }
  interface WireShape {
    foo_bar: number;
    baz?: string | null;
  }

  it('renames in the domain object order, leaving out undefined fields', () => {
    const names = wireNames<Domain, WireShape>()({ fooBar: 'foo_bar', baz: 'baz' });
    expect(JSON.stringify(renamed({ baz: null, fooBar: 1 }, names))).toBe('{"baz":null,"foo_bar":1}');
    expect(Object.keys(renamed({ fooBar: 1, baz: undefined }, names))).toEqual(['foo_bar']);
  });

  it('refuses a table with a domain field unnamed, a name the wire lacks, or a wire field unnamed (planted)', () => {
    // @ts-expect-error `baz` has no wire name
    expect(wireNames<Domain, WireShape>()({ fooBar: 'foo_bar' })).toBeDefined();
    // @ts-expect-error `foo_baz` is not a field of the wire type
    expect(wireNames<Domain, WireShape>()({ fooBar: 'foo_baz', baz: 'baz' })).toBeDefined();
    // @ts-expect-error the wire field `word_count` is named by no domain field
    expect(wireNames<Domain, WireShape & { word_count: number }>()({ fooBar: 'foo_bar', baz: 'baz' })).toBeDefined();
  });
});
