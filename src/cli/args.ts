/** Minimal argv parsing for the CLI: positionals plus `--name value` / `--flag` options. */
export interface ParsedArgs {
  positionals: string[];
  options: Map<string, string | true>;
}

export function parseArgs(argv: string[]): ParsedArgs {
  const positionals: string[] = [];
  const options = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      for (const arg of argv.slice(i + 1)) positionals.push(arg);
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      if (eq > 0) {
        options.set(arg.slice(2, eq), arg.slice(eq + 1));
      } else {
        const next = argv[i + 1];
        if (next !== undefined && !next.startsWith('--')) {
          options.set(arg.slice(2), next);
          i++;
        } else {
          options.set(arg.slice(2), true);
        }
      }
    } else {
      positionals.push(arg);
    }
  }
  return { positionals, options };
}

export class UsageError extends Error {
  override name = 'UsageError';
}

export function requireOption(args: ParsedArgs, name: string): string {
  const value = args.options.get(name);
  if (typeof value !== 'string' || value === '') throw new UsageError(`missing --${name} <value>`);
  return value;
}
