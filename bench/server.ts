/**
 * Throughput of cache-hit POST /v1/read (auth + slot + charge + cache + headers) next to a
 * bare Fastify route returning the same JSON, same run, interleaved rounds, loopback only.
 *
 *   npm run bench:server -- [--seconds 8] [--rounds 3] [--connections 50]   (builds first)
 *   npx tsx bench/server.ts …                                                (uses the existing dist/)
 *
 * Prints a table and writes bench/results/server.json. Targets (issue 3): pith ≥ 30% of the
 * bare route's req/s and p99 ≤ 20 ms at 50 connections.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import autocannon from 'autocannon';

interface Target {
  url: string;
  key: string;
  body: string;
}
interface Round {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

async function startTarget(mode: 'pith' | 'bare'): Promise<{ child: ChildProcess; target: Target }> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./server-targets.ts', import.meta.url).pathname, mode], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    let buf = '';
    // the child may log before it is ready; its one READY line carries the target
    child.stdout?.on('data', (d: Buffer) => {
      buf += d.toString();
      const ready = buf.split('\n').find((l) => l.startsWith('READY '));
      if (ready) resolve(ready.slice('READY '.length));
    });
    child.once('exit', (code) => reject(new Error(`${mode} target exited with ${code}`)));
  });
  return { child, target: JSON.parse(line) as Target };
}

async function load(target: Target, seconds: number, connections: number): Promise<Round> {
  const result = await autocannon({
    url: target.url,
    method: 'POST',
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${target.key}`, 'content-type': 'application/json' },
    body: target.body,
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

async function main(): Promise<void> {
  const seconds = arg('seconds', 8);
  const rounds = arg('rounds', 3);
  const connections = arg('connections', 50);
  const pith = await startTarget('pith');
  const bare = await startTarget('bare');
  const results: Record<'pith' | 'bare', Round[]> = { pith: [], bare: [] };
  try {
    await load(pith.target, 2, connections); // warm-up (JIT) of both, untimed
    await load(bare.target, 2, connections);
    for (let r = 0; r < rounds; r++) {
      results.pith.push(await load(pith.target, seconds, connections));
      results.bare.push(await load(bare.target, seconds, connections));
    }
  } finally {
    pith.child.kill('SIGTERM');
    bare.child.kill('SIGTERM');
  }
  const summary = (rs: Round[]) => ({
    rps: median(rs.map((r) => r.rps)),
    p50: median(rs.map((r) => r.p50)),
    p99: median(rs.map((r) => r.p99)),
    rpsMin: Math.min(...rs.map((r) => r.rps)),
    rpsMax: Math.max(...rs.map((r) => r.rps)),
    non2xx: rs.reduce((s, r) => s + r.non2xx, 0),
  });
  const p = summary(results.pith);
  const b = summary(results.bare);
  const ratio = p.rps / b.rps;
  const env = { node: process.version, cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, date: new Date().toISOString() };
  const table = [
    `cache-hit POST /v1/read, ${connections} connections, ${rounds} × ${seconds} s interleaved (median [min–max])`,
    '',
    '| target | req/s | p50 ms | p99 ms | non-2xx |',
    '|---|---|---|---|---|',
    `| pith /v1/read (HIT) | ${p.rps.toFixed(0)} [${p.rpsMin.toFixed(0)}–${p.rpsMax.toFixed(0)}] | ${p.p50} | ${p.p99} | ${p.non2xx} |`,
    `| bare Fastify, same JSON | ${b.rps.toFixed(0)} [${b.rpsMin.toFixed(0)}–${b.rpsMax.toFixed(0)}] | ${b.p50} | ${b.p99} | ${b.non2xx} |`,
    '',
    `ratio pith/bare req/s: ${(ratio * 100).toFixed(1)}% (target ≥ 30%); pith p99 ${p.p99} ms (target ≤ 20 ms)`,
    `${env.node}, ${env.cores} × ${env.cpu}`,
  ].join('\n');
  process.stdout.write(`${table}\n`);
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(
    new URL('./results/server.json', import.meta.url),
    JSON.stringify({ env, pith: results.pith, bare: results.bare, ratio }, null, 2),
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
