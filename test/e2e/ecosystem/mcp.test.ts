import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../../../src/mcp/tools.js';
import type { TestService } from '../../helpers/service.js';
import { startService } from '../../helpers/service.js';
import { NODE_ARGS } from './cli-helpers.js';
import type { FixtureSite } from './fixtures.js';
import { startFixtureSite } from './fixtures.js';

/** Tool → the route it runs and the credits a successful call keeps. */
const TOOL_ROUTES: Record<(typeof TOOL_NAMES)[number], { route: string; credits: number }> = {
  read_url: { route: 'POST /v1/read', credits: 1 },
  read_and_score: { route: 'POST /v1/read-and-score', credits: 1 },
  score_url: { route: 'POST /v1/score', credits: 0 },
  extract: { route: 'POST /v1/extract', credits: 1 },
  map_site: { route: 'POST /v1/map', credits: 1 },
  batch_read: { route: 'POST /v1/batch', credits: 1 }, // two URLs, one fails and is refunded
  usage: { route: 'GET /v1/usage', credits: 0 },
};

function text(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

describe('MCP server: every tool over stdio and over /mcp', { timeout: 120_000 }, () => {
  let site: FixtureSite;
  let svc: TestService;
  let served: Set<string>;

  beforeAll(async () => {
    site = await startFixtureSite();
    svc = await startService();
    served = new Set(svc.app.routeTable.list().map((r) => `${r.method} ${r.url}`));
  });
  afterAll(async () => {
    await site.close();
    await svc.close();
  });

  const args: Record<(typeof TOOL_NAMES)[number], () => Record<string, unknown>> = {
    read_url: () => ({ url: `${site.origin}/article.html` }),
    read_and_score: () => ({ url: `${site.origin}/article.html` }),
    score_url: () => ({ url: `${site.origin}/article.html` }),
    extract: () => ({ url: `${site.origin}/article.html`, fields: { heading: { selector: 'h2' } } }),
    map_site: () => ({ url: `${site.origin}/article.html` }),
    batch_read: () => ({ urls: [`${site.origin}/docs/one.html`, `${site.origin}/missing`] }),
    usage: () => ({}),
  };

  /** What a successful call of each tool must show. */
  function expectToolOk(name: (typeof TOOL_NAMES)[number], result: CallToolResult): void {
    expect(result.isError ?? false, `${name}: ${text(result)}`).toBe(false);
    const body = result.structuredContent as Record<string, any>;
    switch (name) {
      case 'read_url':
        expect(text(result)).toContain('## Why Markdown');
        expect(body.metadata.title).toBe('Pith fixture article');
        expect(body.billing.billed).toBe('plan');
        break;
      case 'read_and_score':
        expect(text(result)).toContain('## Why Markdown');
        expect(typeof body.score.value).toBe('number');
        break;
      case 'score_url':
        expect(JSON.parse(text(result)).score.grade).toMatch(/^[A-F]$/);
        break;
      case 'extract':
        expect(Array.isArray(body.data.json_ld)).toBe(true);
        break;
      case 'map_site':
        expect(text(result)).toContain('/docs/one.html');
        break;
      case 'batch_read':
        expect(text(result)).toContain('URL_NOT_FOUND');
        expect(body.results.map((r: { ok: boolean }) => r.ok)).toEqual([true, false]);
        break;
      case 'usage':
        expect(JSON.parse(text(result)).plan).toBe('starter');
        break;
    }
  }

  /** Calls every tool and the failing read; returns the credits successful calls should have kept. */
  async function callEveryTool(client: Client): Promise<number> {
    const listed = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(listed).toEqual([...TOOL_NAMES].sort());
    let expectedCredits = 0;
    for (const name of TOOL_NAMES) {
      const result = (await client.callTool({ name, arguments: args[name]() })) as CallToolResult;
      const { route, credits } = TOOL_ROUTES[name];
      expect(served.has(route), `${route} is served`).toBe(true);
      expectToolOk(name, result);
      expectedCredits += credits;
    }
    const failed = (await client.callTool({ name: 'read_url', arguments: { url: `${site.origin}/missing` } })) as CallToolResult;
    expect(failed.isError).toBe(true);
    expect(text(failed)).toMatch(/^URL_NOT_FOUND: /);
    expect((failed.structuredContent as { error: { code: string; status: number } }).error).toMatchObject({
      code: 'URL_NOT_FOUND',
      status: 404,
    });
    const invalid = (await client.callTool({ name: 'read_url', arguments: { url: 'http://10.0.0.1/' } })) as CallToolResult;
    expect(text(invalid)).toMatch(/^INVALID_URL: /);
    // `render` reaches the route: the test service has no browser, so true is RENDER_UNAVAILABLE
    const rendered = (await client.callTool({
      name: 'read_url',
      arguments: { url: `${site.origin}/article.html`, render: true },
    })) as CallToolResult;
    expect(text(rendered)).toMatch(/^RENDER_UNAVAILABLE: /);
    return expectedCredits;
  }

  async function creditsUsed(apiKey: string): Promise<number> {
    return (await svc.call('/v1/usage', { key: apiKey })).json.plan_credits.used as number;
  }

  it('stdio: `pith mcp --key … --base-url …` as a child process, every tool, same credits as REST', async () => {
    const { apiKey } = await svc.newAccount('starter');
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'ALLOW_PRIVATE_TARGETS') env[k] = v;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...NODE_ARGS, 'mcp', '--key', apiKey, '--base-url', svc.baseUrl],
      env: { ...env, LOG_LEVEL: 'silent' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'pith-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const expected = await callEveryTool(client);
      expect(await creditsUsed(apiKey)).toBe(expected);
    } finally {
      await client.close();
    }
  });

  it('/mcp: streamable HTTP with Bearer auth, every tool, same credits as REST', async () => {
    const { apiKey } = await svc.newAccount('starter');
    const transport = new StreamableHTTPClientTransport(new URL(`${svc.baseUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
    });
    const client = new Client({ name: 'pith-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const expected = await callEveryTool(client);
      expect(await creditsUsed(apiKey)).toBe(expected);
    } finally {
      await client.close();
    }
    const metrics = (await svc.call('/metrics')).text;
    expect(metrics).toMatch(/^pith_requests_total\{op="mcp",code="OK"\} [1-9]/m);
  });

  it('/mcp: a retried POST with its Idempotency-Key replays the tool call instead of charging again', async () => {
    const { apiKey } = await svc.newAccount('starter');
    const message = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'read_url', arguments: { url: `${site.origin}/article.html`, fresh: true } },
    };
    const post = (key: string) =>
      svc.call('/mcp', {
        key: apiKey,
        headers: { accept: 'application/json, text/event-stream', 'idempotency-key': key },
        body: message,
      });
    const first = await post('mcp-retry-1');
    const again = await post('mcp-retry-1');
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(first.json.result.structuredContent.markdown).toContain('Why Markdown');
    expect(again.json.result.structuredContent.markdown).toBe(first.json.result.structuredContent.markdown);
    expect(await creditsUsed(apiKey)).toBe(1);
    // another key is another call
    await post('mcp-retry-2');
    expect(await creditsUsed(apiKey)).toBe(2);
  });

  it('/mcp takes concurrency slots like REST: CONCURRENT_LIMIT when the account is busy', async () => {
    const { apiKey } = await svc.newAccount('free');
    const held = [1, 2].map((i) => svc.call('/v1/read', { key: apiKey, body: { url: `${site.origin}/slow?mcp=${i}` } }));
    await site.gate.waitFor(2);
    const client = new Client({ name: 'pith-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${svc.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${apiKey}` } } }),
    );
    try {
      const busy = (await client.callTool({ name: 'read_url', arguments: { url: `${site.origin}/article.html` } })) as CallToolResult;
      expect(busy.isError).toBe(true);
      expect(text(busy)).toMatch(/^CONCURRENT_LIMIT: /);
      expect((busy.structuredContent as { error: Record<string, unknown> }).error).toMatchObject({
        code: 'CONCURRENT_LIMIT',
        in_flight: 2,
        limit: 2,
        retry_after: 1,
      });
    } finally {
      await client.close();
      site.openGates();
      await Promise.all(held);
    }
    expect(await creditsUsed(apiKey)).toBe(2); // the two held reads; the refused tool call cost nothing
  });

  it('/mcp: read options in read_url reach the route (target_selector, format text, links) for 1 credit', async () => {
    const { apiKey } = await svc.newAccount('starter');
    const client = new Client({ name: 'pith-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${svc.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${apiKey}` } } }),
    );
    try {
      const result = (await client.callTool({
        name: 'read_url',
        arguments: { url: `${site.origin}/article.html`, target_selector: 'table', format: 'text', links: true },
      })) as CallToolResult;
      expect(result.isError ?? false, text(result)).toBe(false);
      const body = result.structuredContent as Record<string, any>;
      // the table only, as plain text: no heading, no paragraph, no Markdown table syntax
      expect(body.markdown).toBeUndefined();
      expect(body.text).toContain('free');
      expect(body.text).not.toContain('Why Markdown');
      expect(body.text).not.toContain('|');
      expect(text(result)).toContain('free');
      expect(body.links).toEqual([]);
      expect(await creditsUsed(apiKey)).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('/mcp refuses a missing or wrong key with the UNAUTHORIZED envelope', async () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const headers = { accept: 'application/json, text/event-stream' };
    const missing = await svc.call('/mcp', { body, headers });
    expect(missing.status).toBe(401);
    expect(missing.json).toMatchObject({ status: 'error', code: 'UNAUTHORIZED' });
    const wrong = await svc.call('/mcp', { body, headers, key: 'pk_wrong' });
    expect(wrong.status).toBe(401);
  });
});
