import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStores } from '../../src/store/sqlite/index.js';
import { storeContract } from './contract.js';

const dir = mkdtempSync(join(tmpdir(), 'pith-store-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

storeContract('sqlite', async () => openSqliteStores(dir));

/** A request sent after a change arrives in a later event-loop turn than the change. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('sqlite: key lookups stay exact across processes sharing the file', () => {
  const shared = mkdtempSync(join(tmpdir(), 'pith-store-sqlite-keys-'));
  afterAll(() => rmSync(shared, { recursive: true, force: true }));

  it('a key revoked or a plan changed through another connection is seen from the next event-loop turn', async () => {
    const server = openSqliteStores(shared);
    const cli = openSqliteStores(shared); // another connection, as the `pith` CLI would open
    try {
      await cli.accounts.createAccount({ id: 'acct_x', plan: 'free', name: null, now: 0 });
      await cli.accounts.createKey({ id: 'key_x', accountId: 'acct_x', hash: 'h_x', prefix: 'pk_x', name: null, now: 0 });
      // unknown keys are not remembered: a key created after a failed lookup works at once
      expect(await server.accounts.findByKeyHash('h_y')).toBeNull();
      await cli.accounts.createKey({ id: 'key_y', accountId: 'acct_x', hash: 'h_y', prefix: 'pk_y', name: null, now: 0 });
      await nextTurn();
      expect((await server.accounts.findByKeyHash('h_y'))?.keyId).toBe('key_y');

      expect((await server.accounts.findByKeyHash('h_x'))?.account.plan).toBe('free');
      expect((await server.accounts.findByKeyHash('h_x'))?.account.plan).toBe('free'); // now remembered
      await cli.accounts.setPlan('acct_x', 'growth');
      await nextTurn();
      expect((await server.accounts.findByKeyHash('h_x'))?.account.plan).toBe('growth');
      await cli.accounts.revokeKey('acct_x', 'key_x', 1);
      await nextTurn();
      expect(await server.accounts.findByKeyHash('h_x')).toBeNull();
    } finally {
      await cli.close();
      await server.close();
    }
  });

  it('its own revocations and plan changes are seen at once too', async () => {
    const server = openSqliteStores(shared);
    try {
      await server.accounts.createAccount({ id: 'acct_z', plan: 'free', name: null, now: 0 });
      await server.accounts.createKey({ id: 'key_z', accountId: 'acct_z', hash: 'h_z', prefix: 'pk_z', name: null, now: 0 });
      expect((await server.accounts.findByKeyHash('h_z'))?.account.plan).toBe('free');
      await server.accounts.setPlan('acct_z', 'scale');
      expect((await server.accounts.findByKeyHash('h_z'))?.account.plan).toBe('scale');
      await server.accounts.revokeKey('acct_z', 'key_z', 1);
      expect(await server.accounts.findByKeyHash('h_z')).toBeNull();
    } finally {
      await server.close();
    }
  });
});
