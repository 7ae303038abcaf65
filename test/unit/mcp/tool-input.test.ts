import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OPERATIONS } from '../../../src/http/operations.js';
import { toolInput } from '../../../src/mcp/tool-input.js';

describe('MCP tool arguments come from the REST body schemas, bounds included', () => {
  it('map_site: the limit and glob bounds of POST /v1/map', () => {
    const input = toolInput(OPERATIONS.map.body);
    expect(input.safeParse({ url: 'https://example.com/', limit: 5000 }).success).toBe(true);
    expect(input.safeParse({ url: 'https://example.com/', limit: 5001 }).success).toBe(false);
    expect(input.safeParse({ url: 'https://example.com/', limit: 1.5 }).success).toBe(false);
    expect(input.safeParse({ url: 'https://example.com/', include: Array(51).fill('/a/*') }).success).toBe(false);
    expect(input.safeParse({ url: '' }).success).toBe(false);
  });

  it('batch_read: 1..100 URLs; `fresh` (refused by the route) is not an argument', () => {
    const input = toolInput(OPERATIONS.batch.body);
    expect(input.safeParse({ urls: [] }).success).toBe(false);
    expect(input.safeParse({ urls: Array(101).fill('https://example.com/') }).success).toBe(false);
    expect(input.safeParse({ urls: ['https://example.com/'], render: 'auto' }).success).toBe(true);
    expect(input.safeParse({ urls: ['https://example.com/'], render: 'sometimes' }).success).toBe(false);
    expect(Object.keys(z.toJSONSchema(input).properties ?? {})).toEqual([
      'urls',
      'render',
      'keep_hidden',
      'target_selector',
      'remove_selector',
      'main_content',
      'format',
      'links',
      'images',
      'image_mode',
      'link_mode',
      'clean_urls',
    ]);
  });

  it('extract: field specs as the route takes them, at most 50', () => {
    const input = toolInput(OPERATIONS.extract.body);
    const fields = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`f${i}`, { selector: 'p' }]));
    expect(input.safeParse({ url: 'https://example.com/', fields: { price: { selector: '.price', all: true } } }).success).toBe(true);
    expect(input.safeParse({ url: 'https://example.com/', fields: { price: { selector: '' } } }).success).toBe(false);
    expect(input.safeParse({ url: 'https://example.com/', fields }).success).toBe(false);
  });

  it('read_url: the URL length bound of POST /v1/read', () => {
    const input = toolInput(OPERATIONS.read.body);
    expect(input.safeParse({ url: `https://example.com/${'a'.repeat(8200)}` }).success).toBe(false);
    expect(input.safeParse({ url: 'https://example.com/', fresh: true, render: false }).success).toBe(true);
  });
});
