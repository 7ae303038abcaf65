import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/billing/api-keys.js';
import { openSqliteStores } from '../../src/store/sqlite/index.js';

const run = promisify(execFile);
const CLI = new URL('../../src/cli/main.ts', import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), 'pith-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function pith(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', CLI, ...args], {
      // the embedded store only: CI's DATABASE_URL/REDIS_URL must not redirect these commands
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '', REDIS_URL: '' },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('pith CLI (same code as the admin API, on the SQLite store)', () => {
  it('creates accounts and keys, adds packs, revokes keys', async () => {
    const created = await pith('accounts', 'create', '--plan', 'starter', '--name', 'CLI test');
    expect(created.code).toBe(0);
    const account = JSON.parse(created.stdout) as { account_id: string; api_key: string; key_id: string };
    // what POST /admin/v1/accounts answers, without `status`
    expect(Object.keys(account).sort()).toEqual(['account_id', 'api_key', 'key_id', 'plan']);
    expect(account.api_key).toMatch(/^pk_/);
    expect(created.stderr).toContain('shown only once');

    const key = JSON.parse((await pith('keys', 'create', '--account', account.account_id)).stdout) as {
      key_id: string;
      api_key: string;
      prefix: string;
    };
    // as POST /admin/v1/accounts/{id}/keys answers: the key, its id and its prefix
    expect(Object.keys(key).sort()).toEqual(['api_key', 'key_id', 'prefix']);
    expect(key.api_key.startsWith(key.prefix)).toBe(true);
    const pack = await pith('credits', 'add', '--account', account.account_id, '--pack', 'm');
    expect(JSON.parse(pack.stdout)).toEqual({ bought_credits: { balance: 2200 } });

    // the route answers 204: nothing on stdout, exit 0
    const revoked = await pith('keys', 'revoke', '--account', account.account_id, '--key', key.key_id);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toBe('');
    expect(revoked.stderr).toContain('revoked');
    const stores = openSqliteStores(dataDir);
    try {
      expect(await stores.accounts.findByKeyHash(hashApiKey(key.api_key))).toBeNull();
      expect((await stores.accounts.findByKeyHash(hashApiKey(account.api_key)))?.account.plan).toBe('starter');
    } finally {
      await stores.close();
    }
    const shown = JSON.parse((await pith('accounts', 'show', account.account_id)).stdout) as {
      keys: unknown[];
      usage: { bought_credits: { balance: number } };
    };
    expect(shown.keys).toHaveLength(2);
    expect(shown.usage.bought_credits.balance).toBe(2200);
    expect(JSON.stringify(shown)).not.toContain(account.api_key);
  });

  it('refuses packs on Free with exit code 1 and the error code', async () => {
    const created = JSON.parse((await pith('accounts', 'create', '--plan', 'free')).stdout) as { account_id: string };
    const res = await pith('credits', 'add', '--account', created.account_id, '--pack', 'S');
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('PLAN_NOT_ELIGIBLE');
  });

  it('credits a pack once per --payment-id, refuses a downgrade that would strand credits, and verifies the ledger', async () => {
    const created = JSON.parse((await pith('accounts', 'create', '--plan', 'starter')).stdout) as { account_id: string };
    const id = created.account_id;
    const first = JSON.parse((await pith('credits', 'add', '--account', id, '--pack', 'S', '--payment-id', 'pi_123')).stdout);
    expect(first).toEqual({ bought_credits: { balance: 500 } });
    const again = JSON.parse((await pith('credits', 'add', '--account', id, '--pack', 'S', '--payment-id', 'pi_123')).stdout);
    expect(again).toEqual({ bought_credits: { balance: 500 }, duplicate: true });
    // set-plan prints the account after the change, as PATCH /admin/v1/accounts/{id} answers
    const upgraded = await pith('accounts', 'set-plan', id, '--plan', 'growth');
    expect(upgraded.code).toBe(0);
    const shown = JSON.parse((await pith('accounts', 'show', id)).stdout);
    expect(JSON.parse(upgraded.stdout)).toEqual(shown);
    expect(shown).toMatchObject({ account_id: id, plan: 'growth', usage: { plan: 'growth', bought_credits: { balance: 500 } } });
    const downgrade = await pith('accounts', 'set-plan', id, '--plan', 'free');
    expect(downgrade.code).toBe(1);
    expect(downgrade.stderr).toContain('PLAN_NOT_ELIGIBLE');
    const verified = await pith('ledger', 'verify');
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, differences: [] });
    // a counter that no ledger row explains is a difference: exit code 1
    const db = new Database(join(dataDir, 'pith.sqlite'));
    db.prepare('UPDATE accounts SET bought_balance = bought_balance + 7 WHERE id = ?').run(id);
    db.close();
    const broken = await pith('ledger', 'verify');
    expect(broken.code).toBe(1);
    expect(JSON.parse(broken.stdout).differences).toEqual([{ account_id: id, counter: 'bought_balance', stored: 507, from_ledger: 500 }]);
  });

  it('exits 2 with usage on bad arguments', async () => {
    const bad = await pith('accounts', 'create', '--plan', 'platinum');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown plan');
    expect((await pith('frobnicate')).code).toBe(2);
    expect((await pith('keys', 'create')).code).toBe(2);
  });
});
