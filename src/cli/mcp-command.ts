import { type ParsedArgs, UsageError } from './args.js';

/** `pith mcp`: the stdio MCP server (being built). */
export async function runMcpStdio(_args: ParsedArgs, _env: NodeJS.ProcessEnv): Promise<number> {
  throw new UsageError('pith mcp is not available in this build yet');
}
