/**
 * Scale-out throughput: cache-hit POST /v1/read with 1 and 3 `pith serve` instances on
 * PostgreSQL + Redis, side by side with the embedded SQLite single instance, same run,
 * interleaved rounds, loopback only.
 *
 *   DATABASE_URL=postgres://… REDIS_URL=redis://… npx tsx bench/scale.ts [--seconds 8] [--rounds 3] [--connections 50] [--accounts 50]
 *
 * Every request is billed (1 credit, enterprise accounts so the quota never ends) and takes a
 * concurrency slot, so this measures auth + slot + charge + cache + release per request.
 * Two workloads: every request on ONE account (its month counter is one hot row: the
 * per-account ceiling) and requests spread round-robin over `--accounts` accounts (the
 * scale-out case).
 * Each setup gets its own schema / key prefix / data dir, removed afterwards. Prints a table
 * and writes bench/results/scale.json.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createAccount } from '../src/billing/accounts.js';
import { utcPeriod } from '../src/billing/period.js';
import type { StoreConfig } from '../src/store/open.js';
import { openStores } from '../src/store/open.js';
import { startSite } from '../test/helpers/site.js';
import { deletePrefix, dropSchema } from '../test/store/namespaces.js';
import type { Instance } from '../test/store/instances.js';
import { startInstance } from '../test/store/instances.js';

interface Setup {
  name: string;
  store: StoreConfig;
  instances: Instance[];
  /** API keys of the bench accounts; the first is the "one account" workload. */
  apiKeys: string[];
  accountIds: string[];
  cleanup(): Promise<void>;
}
type Workload = 'one account' | 'many accounts';
interface Round {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  ok: number;
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

function withParam(raw: string, name: string, value: string): string {
  const u = new URL(raw);
  u.searchParams.set(name, value);
  return u.toString();
}

async function startSetup(name: string, count: number, store: StoreConfig, env: Record<string, string>, accounts: number): Promise<Setup> {
  const stores = await openStores(store);
  const apiKeys: string[] = [];
  const accountIds: string[] = [];
  for (let i = 0; i < accounts; i++) {
    const { account, apiKey } = await createAccount({ stores, now: () => Date.now(), randomBytes }, { plan: 'enterprise' });
    apiKeys.push(apiKey);
    accountIds.push(account.id);
  }
  await stores.close();
  const instances: Instance[] = [];
  for (let i = 0; i < count; i++) instances.push(await startInstance(env));
  return {
    name,
    store,
    instances,
    apiKeys,
    accountIds,
    async cleanup() {
      await Promise.all(instances.map((x) => x.stop()));
    },
  };
}

/** One timed load: the connections are split evenly over the setup's instances, run at once. */
async function load(setup: Setup, workload: Workload, body: string, seconds: number, connections: number): Promise<Round> {
  const n = setup.instances.length;
  const keys = workload === 'one account' ? setup.apiKeys.slice(0, 1) : setup.apiKeys;
  const runs = await Promise.all(
    setup.instances.map((inst, i) => {
      let next = i;
      return autocannon({
        url: `${inst.url}/v1/read`,
        method: 'POST',
        connections: Math.floor(connections / n) + (i < connections % n ? 1 : 0),
        duration: seconds,
        headers: { 'content-type': 'application/json' },
        body,
        requests: [
          {
            setupRequest: (req) => ({
              ...req,
              headers: { ...req.headers, authorization: `Bearer ${keys[next++ % keys.length] ?? ''}` },
            }),
          },
        ],
      });
    }),
  );
  return {
    rps: runs.reduce((s, r) => s + r.requests.average, 0),
    // Latency of the slowest instance's client: the honest number for the whole setup.
    p50: Math.max(...runs.map((r) => r.latency.p50)),
    p99: Math.max(...runs.map((r) => r.latency.p99)),
    non2xx: runs.reduce((s, r) => s + r.non2xx, 0),
    ok: runs.reduce((s, r) => s + r['2xx'], 0),
  };
}

async function main(): Promise<void> {
  const seconds = arg('seconds', 8);
  const rounds = arg('rounds', 3);
  const connections = arg('connections', 50);
  const accounts = arg('accounts', 50);
  const workloads: Workload[] = ['one account', 'many accounts'];
  const databaseUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  if (!databaseUrl || !redisUrl)
    throw new Error('set DATABASE_URL and REDIS_URL (e.g. postgres://postgres@127.0.0.1:5432/test, redis://127.0.0.1:6379)');

  const site = await startSite((_req, res) => {
    if (_req.url === '/robots.txt') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><title>Bench</title></head><body><main><h1>Bench page</h1>
      ${'<p>One pool, many instances. Credits are exact under load.</p>'.repeat(40)}</main></body></html>`);
  });
  const run = `${process.pid}_${randomBytes(3).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'pith-bench-scale-'));
  const common = { ALLOW_PRIVATE_TARGETS: `127.0.0.1:${site.port}`, ENGINE_VERSION: `bench-scale-${run}` };
  const schemas = [`pith_bench_${run}_1`, `pith_bench_${run}_3`];
  const prefixes = [`pith-bench:${run}:1:`, `pith-bench:${run}:3:`];
  const sqliteDir = join(dataDir, 'sqlite');
  const scaled = (i: 0 | 1): StoreConfig => ({
    dataDir: join(dataDir, `pg${i}`),
    databaseUrl: withParam(databaseUrl, 'schema', schemas[i] ?? ''),
    redisUrl: withParam(redisUrl, 'prefix', prefixes[i] ?? ''),
  });
  const envOf = (c: StoreConfig): Record<string, string> => ({
    ...common,
    DATA_DIR: c.dataDir,
    ...(c.databaseUrl ? { DATABASE_URL: c.databaseUrl } : {}),
    ...(c.redisUrl ? { REDIS_URL: c.redisUrl } : {}),
  });
  const setups: Setup[] = [];
  const results = new Map<string, Round[]>();
  const key = (s: Setup, w: Workload): string => `${s.name} | ${w}`;
  const body = JSON.stringify({ url: `${site.origin}/bench` });
  try {
    const sqlite: StoreConfig = { dataDir: sqliteDir, databaseUrl: null, redisUrl: null };
    setups.push(await startSetup('SQLite, 1 instance', 1, sqlite, envOf(sqlite), accounts));
    setups.push(await startSetup('PostgreSQL + Redis, 1 instance', 1, scaled(0), envOf(scaled(0)), accounts));
    setups.push(await startSetup('PostgreSQL + Redis, 3 instances', 3, scaled(1), envOf(scaled(1)), accounts));
    for (const s of setups) {
      for (const w of workloads) results.set(key(s, w), []);
      await load(s, 'many accounts', body, 2, connections); // warm-up: first MISS fills the cache, JIT; untimed
    }
    for (let r = 0; r < rounds; r++) {
      for (const w of workloads) for (const s of setups) results.get(key(s, w))?.push(await load(s, w, body, seconds, connections));
    }
  } finally {
    await Promise.all(setups.map((s) => s.cleanup()));
    await site.close();
  }

  // Billing stays exact under load: every 2xx was charged once (plus warm-ups).
  const ledger: Record<string, number> = {};
  for (const s of setups) {
    const stores = await openStores(s.store);
    let used = 0;
    for (const id of s.accountIds) used += (await stores.ledger.getUsage(id, utcPeriod(Date.now()))).planUsed;
    ledger[s.name] = used;
    await stores.close();
  }
  for (const schema of schemas) await dropSchema(databaseUrl, schema);
  for (const prefix of prefixes) await deletePrefix(redisUrl, prefix);
  rmSync(dataDir, { recursive: true, force: true });

  const env = { node: process.version, cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, date: new Date().toISOString() };
  const lines = [
    `cache-hit POST /v1/read, ${connections} connections split over the instances, ${rounds} × ${seconds} s interleaved (median [min–max])`,
    `"many accounts" = round-robin over ${accounts} enterprise accounts; "one account" = all on one (one hot counter row)`,
    '',
    '| workload | setup | req/s | vs SQLite | p50 ms | p99 ms | non-2xx |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const w of workloads) {
    const base = median(results.get(key(setups[0] as Setup, w))?.map((x) => x.rps) ?? []);
    for (const s of setups) {
      const rs = results.get(key(s, w)) ?? [];
      const rps = median(rs.map((x) => x.rps));
      lines.push(
        `| ${w} | ${s.name} | ${rps.toFixed(0)} [${Math.min(...rs.map((x) => x.rps)).toFixed(0)}–${Math.max(...rs.map((x) => x.rps)).toFixed(0)}] | ` +
          `${((rps / base) * 100).toFixed(0)}% | ${median(rs.map((x) => x.p50))} | ${median(rs.map((x) => x.p99))} | ` +
          `${rs.reduce((t, x) => t + x.non2xx, 0)} |`,
      );
    }
  }
  lines.push('', `credits charged per setup (ledger, incl. warm-up) vs 2xx answers counted by the clients:`);
  for (const s of setups) {
    let ok = 0;
    for (const w of workloads) ok += (results.get(key(s, w)) ?? []).reduce((t, x) => t + x.ok, 0);
    lines.push(`- ${s.name}: ledger ${ledger[s.name] ?? '?'}, timed 2xx ${ok}`);
  }
  lines.push('', `${env.node}, ${env.cores} × ${env.cpu}; client (autocannon) and all servers share these cores`);
  process.stdout.write(`${lines.join('\n')}\n`);
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(
    new URL('./results/scale.json', import.meta.url),
    JSON.stringify({ env, connections, accounts, seconds, rounds, results: Object.fromEntries(results), ledger }, null, 2),
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
