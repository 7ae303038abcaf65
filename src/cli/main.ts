#!/usr/bin/env node
import { randomBytes } from 'node:crypto';
import type { AccountAdminDeps } from '../billing/accounts.js';
import { buyCreditPack, changePlan, createAccount, createKey, describeAccount, revokeKey, verifyLedger } from '../billing/accounts.js';
import { accountCreatedBody, accountOnWire, creditPackBody, keyCreatedBody, ledgerReportOnWire } from '../http/wire/accounts.js';
import { isCreditPackId } from '../billing/plans.js';
import { ConfigError, loadConfig } from '../config.js';
import { isServiceError } from '../errors.js';
import { openStores } from '../store/open.js';
import type { PlanId } from '../billing/plans.js';
import { PLAN_IDS } from '../billing/plans.js';
import type { ParsedArgs } from './args.js';
import { UsageError, parseArgs, requireOption } from './args.js';
import { CHOICE_FLAGS_HELP } from './read-flags.js';

/** Commands served by ./client-commands.ts (loaded lazily, like the server). */
const CLIENT_COMMANDS = new Set(['read', 'score', 'map', 'extract']);

/**
 * `pith` command line. Exit codes: 0 ok, 1 the operation failed (error code printed),
 * 2 usage error; client commands add 3 (server unreachable) and 4 (quota or concurrency limit).
 */
const HELP = `pith — Web-to-Markdown read service

Usage:
  pith serve                                    start the HTTP service (config from env: PORT, HOST, DATA_DIR, …)
  pith accounts create --plan <plan> [--name N] create an account and its first API key
  pith accounts show <account_id>               account, usage, keys (prefixes only)
  pith accounts set-plan <account_id> --plan P  change the plan
  pith keys create --account <id> [--name N]    create another API key (shown once)
  pith keys revoke --account <id> --key <key_id> revoke a key at once
  pith credits add --account <id> --pack S|M|L|XL [--payment-id <id>]
                                                add a credit pack (paid plans only); the same
                                                --payment-id twice adds it once
  pith ledger verify                            recompute every counter from the ledger; list
                                                differences and open charges (exit 1 on a difference)

  pith read <url> [--render[=auto|false]] [--json] [--quiet] [read options]   read a page here (no server, no account): Markdown to stdout
  pith read <url> --remote <base_url> --key K [--fresh] [--render[=auto|false]] [--json] [read options]   read through a pith server
    read options: --target <css> (only that part) --remove <css> (cut parts first) --whole-page (no main-content detection)
                  --links --images (list them)  --no-clean-urls (URLs exactly as found, tracking parameters kept)
                  --keep-hidden (keep text styled to be invisible)
                  ${CHOICE_FLAGS_HELP}
  pith score <url> [--remote <base_url> --key K] [--json]         agent-readiness score (here, or through a server)
  pith map <url> [--remote <base_url> --key K] [--limit N] [--search Q] [--include G,…] [--exclude G,…] [--json]   the site's URLs
  pith extract <url> [--remote <base_url> --key K] [--fresh] [--render[=auto|false]] [--json]   structured data as JSON

  --render: render the page in headless Chromium first (JavaScript apps); --render=auto renders only a
  page that is a JavaScript shell as served (the default without the flag), --render=false never.
  pith mcp --key K [--base-url <base_url>]      MCP server on stdio (tools call the pith server)

Plans: ${PLAN_IDS.join(', ')}. Admin commands work directly on the configured store (DATA_DIR / DATABASE_URL)
and print what the matching /admin/v1 route answers, without "status" (keys revoke: nothing, as its 204).
`;

function parsePlan(value: string): PlanId {
  if (!(PLAN_IDS as readonly string[]).includes(value)) throw new UsageError(`unknown plan "${value}"; use one of ${PLAN_IDS.join(', ')}`);
  return value as PlanId;
}

function optionalName(args: ParsedArgs): string | null {
  const name = args.options.get('name');
  return typeof name === 'string' ? name : null;
}

async function withAdmin<T>(fn: (deps: AccountAdminDeps) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const stores = await openStores(config);
  try {
    return await fn({ stores, now: () => Date.now(), randomBytes });
  } finally {
    await stores.close();
  }
}

const print = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
};

/** An admin command prints what its /admin/v1 route answers (the same wire serialiser), without `status`. */
const printAnswer = ({ status: _status, ...answer }: { status: string }): void => print(answer);

async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const [group, action, target] = args.positionals;
  if (group === 'mcp') {
    const { runMcpStdio } = await import('./mcp-command.js');
    return runMcpStdio(args, process.env);
  }
  if (group !== undefined && CLIENT_COMMANDS.has(group)) {
    const { runClientCommand } = await import('./client-commands.js');
    return runClientCommand(group, args, { stdout: process.stdout, stderr: process.stderr, env: process.env });
  }
  switch (`${group ?? ''} ${action ?? ''}`.trim()) {
    case 'serve': {
      // loaded lazily: admin commands should not pay for the whole engine's start-up
      const { exitOnSignals, startServer } = await import('../server.js');
      const server = await startServer(loadConfig());
      exitOnSignals(server);
      process.stderr.write(
        `pith is ready at ${server.url}\nCreate an account and API key (another terminal, same DATA_DIR):  npm run pith -- accounts create --plan free\nThen: curl -s ${server.url}/v1/read -H "Authorization: Bearer <api_key>" -H 'content-type: application/json' -d '{"url":"https://example.com"}'\n`,
      );
      return -1; // keep running
    }
    case 'accounts create': {
      const plan = parsePlan(requireOption(args, 'plan'));
      const created = await withAdmin((deps) => createAccount(deps, { plan, name: optionalName(args) }));
      printAnswer(accountCreatedBody(created));
      process.stderr.write('Keep the api_key: it is shown only once.\n');
      return 0;
    }
    case 'accounts show': {
      if (!target) throw new UsageError('missing <account_id>');
      print(accountOnWire(await withAdmin((deps) => describeAccount(deps, target))));
      return 0;
    }
    case 'accounts set-plan': {
      if (!target) throw new UsageError('missing <account_id>');
      const plan = parsePlan(requireOption(args, 'plan'));
      // as PATCH /admin/v1/accounts/{id}: the account after the change
      const account = await withAdmin(async (deps) => {
        await changePlan(deps, target, plan);
        return describeAccount(deps, target);
      });
      print(accountOnWire(account));
      return 0;
    }
    case 'keys create': {
      const accountId = requireOption(args, 'account');
      printAnswer(keyCreatedBody(await withAdmin((deps) => createKey(deps, accountId, optionalName(args)))));
      process.stderr.write('Keep the api_key: it is shown only once.\n');
      return 0;
    }
    case 'keys revoke': {
      const accountId = requireOption(args, 'account');
      const keyId = requireOption(args, 'key');
      await withAdmin((deps) => revokeKey(deps, accountId, keyId));
      // the route answers 204 No Content: nothing on stdout, exit 0; a note for the operator
      process.stderr.write(`Key ${keyId} of ${accountId} is revoked.\n`);
      return 0;
    }
    case 'credits add': {
      const accountId = requireOption(args, 'account');
      const pack = requireOption(args, 'pack').toUpperCase();
      if (!isCreditPackId(pack)) throw new UsageError(`unknown pack "${pack}"; use S, M, L or XL`);
      const given = args.options.get('payment-id');
      const paymentId = typeof given === 'string' ? given : undefined;
      printAnswer(creditPackBody(await withAdmin((deps) => buyCreditPack(deps, accountId, pack, paymentId))));
      return 0;
    }
    case 'ledger verify': {
      const report = await withAdmin((deps) => verifyLedger(deps));
      print(ledgerReportOnWire(report));
      return report.ok ? 0 : 1;
    }
    case '':
    case 'help':
      process.stdout.write(HELP);
      return 0;
    default:
      throw new UsageError(`unknown command "${args.positionals.join(' ')}"`);
  }
}

run(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof UsageError || err instanceof ConfigError) {
      process.stderr.write(`error: ${err.message}\n\n${HELP}`);
      process.exitCode = 2;
    } else if (isServiceError(err)) {
      process.stderr.write(`error ${err.code}: ${err.message}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    }
  },
);
