import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../helpers/service.js';
import { startService } from '../../helpers/service.js';
import { NODE_ARGS } from './cli-helpers.js';
import type { FixtureSite } from './fixtures.js';
import { startFixtureSite } from './fixtures.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The first fenced block of `lang` in the README section `## title`. */
function snippet(title: string, lang: string): string {
  const start = README.indexOf(`\n## ${title}\n`);
  expect(start, `README has a "## ${title}" section`).toBeGreaterThanOrEqual(0);
  const section = README.slice(start + 1).split(/\n## /)[0] ?? '';
  const match = new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``).exec(section);
  expect(match, `"## ${title}" has a \`\`\`${lang} block`).not.toBeNull();
  return match?.[1] ?? '';
}

describe('README examples run as written', { timeout: 120_000 }, () => {
  let svc: TestService;
  let site: FixtureSite;
  let apiKey: string;
  // under node_modules so `@pith/sdk` resolves like it does for a user
  const dir = join(ROOT, 'node_modules', '.cache', 'pith-readme-test');

  beforeAll(async () => {
    site = await startFixtureSite();
    svc = await startService();
    apiKey = (await svc.newAccount('starter')).apiKey;
    mkdirSync(dir, { recursive: true });
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await site.close();
    await svc.close();
  });

  it('the 5-line SDK example reads a page and prints Markdown and plan credits left', async () => {
    const code = snippet('SDK', 'ts');
    expect(code.trimEnd().split('\n').length).toBeLessThanOrEqual(5);
    expect(code).toContain("from '@pith/sdk'");
    const file = join(dir, 'sdk-example.mts');
    // only the two addresses change: the example's server and page become the test's
    writeFileSync(file, code.replace('http://127.0.0.1:8080', svc.baseUrl).replace('https://example.com/', `${site.origin}/article.html`));
    const { stdout, stderr, exitCode } = await new Promise<{ stdout: string; stderr: string; exitCode: number }>((resolve) => {
      execFile(
        process.execPath,
        ['--conditions=development', '--import', 'tsx', file],
        { env: { ...process.env, PITH_API_KEY: apiKey }, cwd: ROOT },
        (err, out, errOut) => resolve({ stdout: out, stderr: errOut, exitCode: err ? 1 : 0 }),
      );
    });
    expect(stderr).toBe('');
    expect(exitCode).toBe(0);
    expect(stdout).toContain('## Why Markdown');
    expect(stdout.trimEnd().endsWith(' 9999')).toBe(true);
  });

  it('the MCP config snippet starts a working stdio server (source instead of dist)', async () => {
    const config = JSON.parse(snippet('MCP', 'json')) as {
      mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }>;
    };
    const server = config.mcpServers.pith;
    expect(server?.command).toBe('node');
    expect(server?.args[0]).toBe('/path/to/pith/dist/cli/main.js');
    const args = server?.args.slice(1).map((a) => (a === 'http://127.0.0.1:8080' ? svc.baseUrl : a)) ?? [];
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...NODE_ARGS, ...args],
      env: { ...env, ...server?.env, PITH_API_KEY: apiKey, LOG_LEVEL: 'silent' },
      stderr: 'pipe',
    });
    expect(Object.keys(server?.env ?? {})).toEqual(['PITH_API_KEY']);
    const client = new Client({ name: 'readme-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const usage = (await client.callTool({ name: 'usage', arguments: {} })) as CallToolResult;
      expect(usage.isError ?? false).toBe(false);
      expect((usage.structuredContent as { plan: string }).plan).toBe('starter');
    } finally {
      await client.close();
    }
  });
});
