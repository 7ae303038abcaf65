import { packageVersion } from '../config.js';
import type { ParsedArgs } from './args.js';
import { UsageError } from './args.js';

/**
 * `pith mcp --key K [--base-url URL]`: an MCP server on stdio whose tools call a pith
 * server over HTTP with that key (so they draw from the account's one pool). stdout is
 * the protocol; anything human goes to stderr.
 */
export async function runMcpStdio(args: ParsedArgs, env: NodeJS.ProcessEnv): Promise<number> {
  const key = args.options.get('key');
  const apiKey = typeof key === 'string' ? key : env.PITH_API_KEY;
  if (!apiKey) throw new UsageError('pith mcp needs --key <api_key> (or PITH_API_KEY)');
  const base = args.options.get('base-url');
  const baseUrl = typeof base === 'string' ? base : (env.PITH_BASE_URL ?? 'http://127.0.0.1:8080');
  const [{ PithClient }, { StdioServerTransport }, { createPithMcpServer }, { createSdkBackend }] = await Promise.all([
    import('@pith/sdk'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('../mcp/tools.js'),
    import('../mcp/sdk-backend.js'),
  ]);
  const client = new PithClient({ baseUrl, apiKey, retry: { maxRetries: 3 } });
  const server = createPithMcpServer(createSdkBackend(client), { version: packageVersion() });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  process.stderr.write(`pith MCP server on stdio; tools call ${baseUrl}\n`);
  await closed;
  await server.close();
  return 0;
}
