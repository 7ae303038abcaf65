/**
 * The store contract: one suite every backend must pass unchanged (SQLite, PostgreSQL,
 * PostgreSQL + Redis, SQLite + Redis). Backends differ only in how they keep the promises
 * written here; where `src/store/types.ts` leaves a choice open, the suite makes it and
 * says so in a `Decision:` comment.
 *
 * Tests share one opened `Stores` per backend and isolate themselves by fresh random ids
 * (accounts, slots, cache keys), so the suite also runs against a long-lived database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stores } from '../../src/store/types.js';
import type { ContractContext } from './contract-helpers.js';
import { T0, iso, uid } from './contract-helpers.js';
import { ledgerContract } from './contract-ledger.js';

export type OpenStores = () => Promise<Stores>;
export type CloseStores = (stores: Stores) => Promise<void>;

export function storeContract(name: string, open: OpenStores, close: CloseStores = (s) => s.close()): void {
  describe(`store contract: ${name}`, () => {
    let current: Stores | null = null;
    const ctx: ContractContext = {
      stores() {
        if (current === null) throw new Error('stores not opened');
        return current;
      },
      async newAccount(plan = 'starter') {
        const id = uid('acc');
        await ctx.stores().accounts.createAccount({ id, plan, name: null, now: T0 });
        return id;
      },
      openSecond: open,
      closeSecond: close,
    };
    beforeAll(async () => {
      current = await open();
    });
    afterAll(async () => {
      if (current !== null) await close(current);
      current = null;
    });

    accountsContract(ctx);
    ledgerContract(ctx);
    slotsContract(ctx);
    idempotencyContract(ctx);
    cacheContract(ctx);
    lifecycleContract(open, close);
  });
}

function accountsContract(ctx: ContractContext): void {
  describe('accounts and keys', () => {
    it('creates an account and finds it by id', async () => {
      const id = uid('acc');
      const created = await ctx.stores().accounts.createAccount({ id, plan: 'growth', name: 'Ada', now: T0 });
      // Decision: createdAt is the ISO-8601 UTC form of the injected `now`.
      expect(created).toEqual({ id, name: 'Ada', plan: 'growth', createdAt: iso(T0) });
      expect(await ctx.stores().accounts.getAccount(id)).toEqual(created);
      expect(await ctx.stores().accounts.getAccount(uid('missing'))).toBeNull();
    });

    it('changes the plan, visible through the key at once', async () => {
      const accounts = ctx.stores().accounts;
      const id = await ctx.newAccount('free');
      const hash = uid('hash');
      await accounts.createKey({ id: uid('key'), accountId: id, hash, prefix: 'pk_x', name: null, now: T0 });
      const updated = await accounts.setPlan(id, 'scale');
      expect(updated?.plan).toBe('scale');
      expect((await accounts.getAccount(id))?.plan).toBe('scale');
      expect((await accounts.findByKeyHash(hash))?.account.plan).toBe('scale');
      expect(await accounts.setPlan(uid('missing'), 'scale')).toBeNull();
    });

    it('creates keys and finds the account by key hash', async () => {
      const accounts = ctx.stores().accounts;
      const id = await ctx.newAccount();
      const keyId = uid('key');
      const hash = uid('hash');
      const key = await accounts.createKey({ id: keyId, accountId: id, hash, prefix: 'pk_abcd', name: 'ci', now: T0 + 5 });
      expect(key).toEqual({ id: keyId, accountId: id, prefix: 'pk_abcd', name: 'ci', createdAt: iso(T0 + 5), revokedAt: null });
      const found = await accounts.findByKeyHash(hash);
      expect(found).toEqual({ account: { id, name: null, plan: 'starter', createdAt: iso(T0) }, keyId });
      expect(await accounts.findByKeyHash(uid('hash'))).toBeNull();
    });

    it('lists every key of the account in creation order, never the hash', async () => {
      const accounts = ctx.stores().accounts;
      const id = await ctx.newAccount();
      const other = await ctx.newAccount();
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const keyId = uid('key');
        ids.push(keyId);
        await accounts.createKey({ id: keyId, accountId: id, hash: uid('hash'), prefix: `pk_${i}`, name: null, now: T0 + i });
      }
      await accounts.createKey({ id: uid('key'), accountId: other, hash: uid('hash'), prefix: 'pk_o', name: null, now: T0 });
      const keys = await accounts.listKeys(id);
      expect(keys.map((k) => k.id)).toEqual(ids);
      expect(keys.map((k) => k.prefix)).toEqual(['pk_0', 'pk_1', 'pk_2']);
      for (const k of keys) expect(Object.keys(k).sort()).toEqual(['accountId', 'createdAt', 'id', 'name', 'prefix', 'revokedAt']);
      expect(await accounts.listKeys(uid('missing'))).toEqual([]);
    });

    it('revokes a key: it stops working at once, once, only on its own account', async () => {
      const accounts = ctx.stores().accounts;
      const id = await ctx.newAccount();
      const other = await ctx.newAccount();
      const keyId = uid('key');
      const hash = uid('hash');
      const keepHash = uid('hash');
      await accounts.createKey({ id: keyId, accountId: id, hash, prefix: 'pk_r', name: null, now: T0 });
      await accounts.createKey({ id: uid('key'), accountId: id, hash: keepHash, prefix: 'pk_k', name: null, now: T0 });
      expect(await accounts.revokeKey(other, keyId, T0 + 1)).toBe(false);
      expect(await accounts.findByKeyHash(hash)).not.toBeNull();
      expect(await accounts.revokeKey(id, keyId, T0 + 2)).toBe(true);
      expect(await accounts.findByKeyHash(hash)).toBeNull();
      expect(await accounts.findByKeyHash(keepHash)).not.toBeNull();
      expect(await accounts.revokeKey(id, keyId, T0 + 3)).toBe(false);
      expect(await accounts.revokeKey(id, uid('key'), T0 + 3)).toBe(false);
      const revoked = (await accounts.listKeys(id)).find((k) => k.id === keyId);
      // Decision: revokedAt is the first revocation's `now`; a second revoke changes nothing.
      expect(revoked?.revokedAt).toBe(iso(T0 + 2));
    });
  });
}

function idempotencyContract(ctx: ContractContext): void {
  const DAY = 24 * 3600_000;
  const claim = (accountId: string, key: string, fingerprint: string, now: number) =>
    ctx.stores().idempotency.claim({ accountId, key, fingerprint, now, expiresAfterMs: DAY, staleAfterMs: 600_000 });
  const response = { status: 200, headers: { 'content-type': 'application/json', 'x-service-billed': 'plan' }, body: '{"ok":1}' };

  describe('idempotency keys', () => {
    it('claims a new key once; the same key is in progress, then replays its stored answer', async () => {
      const acc = await ctx.newAccount();
      const key = uid('key');
      expect(await claim(acc, key, 'fp1', T0)).toEqual({ state: 'claimed' });
      expect(await claim(acc, key, 'fp1', T0 + 1)).toEqual({ state: 'in_progress', sinceMs: T0 });
      await ctx.stores().idempotency.complete({ accountId: acc, key, response, now: T0 + 2 });
      expect(await claim(acc, key, 'fp1', T0 + 3)).toEqual({ state: 'done', response });
      // another request under the same key
      expect(await claim(acc, key, 'fp2', T0 + 4)).toEqual({ state: 'mismatch' });
      // keys are per account
      expect(await claim(await ctx.newAccount(), key, 'fp2', T0 + 4)).toEqual({ state: 'claimed' });
    });

    it('forgets a key after 24 h; a claim whose instance died may be taken over after the stale time', async () => {
      const acc = await ctx.newAccount();
      const done = uid('key');
      await claim(acc, done, 'fp', T0);
      await ctx.stores().idempotency.complete({ accountId: acc, key: done, response, now: T0 });
      expect((await claim(acc, done, 'fp', T0 + DAY - 1)).state).toBe('done');
      expect(await claim(acc, done, 'other', T0 + DAY)).toEqual({ state: 'claimed' });
      const stuck = uid('key');
      await claim(acc, stuck, 'fp', T0);
      expect((await claim(acc, stuck, 'fp', T0 + 599_999)).state).toBe('in_progress');
      expect(await claim(acc, stuck, 'fp', T0 + 600_000)).toEqual({ state: 'claimed' });
      expect(await ctx.stores().idempotency.purgeExpired(T0 + 1)).toBeGreaterThanOrEqual(1);
    });

    it('a released claim is forgotten; a finished key is never released', async () => {
      const acc = await ctx.newAccount();
      const key = uid('key');
      await claim(acc, key, 'fp', T0);
      await ctx.stores().idempotency.release({ accountId: acc, key });
      expect(await claim(acc, key, 'other', T0 + 1)).toEqual({ state: 'claimed' });
      await ctx.stores().idempotency.complete({ accountId: acc, key, response, now: T0 + 2 });
      await ctx.stores().idempotency.release({ accountId: acc, key });
      expect((await claim(acc, key, 'other', T0 + 3)).state).toBe('done');
    });

    it('parallel claims of one key: exactly one wins', async () => {
      const acc = await ctx.newAccount();
      const key = uid('key');
      const results = await Promise.all(Array.from({ length: 20 }, () => claim(acc, key, 'fp', T0)));
      expect(results.filter((r) => r.state === 'claimed')).toHaveLength(1);
      expect(results.filter((r) => r.state === 'in_progress')).toHaveLength(19);
    });

    it("a settle stores the key's answer in the same transaction", async () => {
      const acc = await ctx.newAccount();
      const key = uid('key');
      await claim(acc, key, 'fp', T0);
      const chargeId = uid('chg');
      await ctx.stores().ledger.charge({
        chargeId,
        accountId: acc,
        period: '2026-11',
        amount: 1,
        planLimit: 10,
        allowBought: false,
        operation: 'read',
        now: T0,
      });
      await ctx.stores().ledger.settle({ chargeId, keep: 1, now: T0, idempotent: { accountId: acc, key, response } });
      expect(await claim(acc, key, 'fp', T0 + 5)).toEqual({ state: 'done', response });
    });
  });
}

function slotsContract(ctx: ContractContext): void {
  const TTL = 30_000;
  describe('concurrency slots', () => {
    it('acquires up to the limit and refuses beyond it with the in-flight count', async () => {
      const slots = ctx.stores().slots;
      const acc = uid('acc');
      for (let i = 1; i <= 3; i++) {
        expect(await slots.acquire({ accountId: acc, slotId: uid('slot'), limit: 3, nowMs: T0, ttlMs: TTL })).toEqual({
          acquired: true,
          inFlight: i,
        });
      }
      expect(await slots.acquire({ accountId: acc, slotId: uid('slot'), limit: 3, nowMs: T0, ttlMs: TTL })).toEqual({
        acquired: false,
        inFlight: 3,
      });
      expect(await slots.inFlight(acc, T0)).toBe(3);
      // Slots are per account.
      expect((await slots.acquire({ accountId: uid('acc'), slotId: uid('slot'), limit: 3, nowMs: T0, ttlMs: TTL })).acquired).toBe(true);
    });

    it('releases a slot; releasing an unknown slot is a no-op', async () => {
      const slots = ctx.stores().slots;
      const acc = uid('acc');
      const a = uid('slot');
      await slots.acquire({ accountId: acc, slotId: a, limit: 1, nowMs: T0, ttlMs: TTL });
      expect((await slots.acquire({ accountId: acc, slotId: uid('slot'), limit: 1, nowMs: T0, ttlMs: TTL })).acquired).toBe(false);
      await slots.release(acc, uid('slot'));
      expect(await slots.inFlight(acc, T0)).toBe(1);
      await slots.release(acc, a);
      await slots.release(acc, a);
      expect(await slots.inFlight(acc, T0)).toBe(0);
      expect(await slots.acquire({ accountId: acc, slotId: uid('slot'), limit: 1, nowMs: T0, ttlMs: TTL })).toEqual({
        acquired: true,
        inFlight: 1,
      });
      expect(await slots.inFlight(uid('acc'), T0)).toBe(0);
    });

    it('expires a slot ttl after it was taken, by the injected clock', async () => {
      const slots = ctx.stores().slots;
      const acc = uid('acc');
      await slots.acquire({ accountId: acc, slotId: uid('slot'), limit: 2, nowMs: T0, ttlMs: TTL });
      await slots.acquire({ accountId: acc, slotId: uid('slot'), limit: 2, nowMs: T0 + 10_000, ttlMs: TTL });
      // Decision: a slot taken at t is live while now < t + ttl and gone at now = t + ttl.
      expect(await slots.inFlight(acc, T0 + TTL - 1)).toBe(2);
      expect(await slots.inFlight(acc, T0 + TTL)).toBe(1);
      expect((await slots.acquire({ accountId: acc, slotId: uid('slot'), limit: 2, nowMs: T0 + TTL - 1, ttlMs: TTL })).acquired).toBe(
        false,
      );
      expect(await slots.acquire({ accountId: acc, slotId: uid('slot'), limit: 2, nowMs: T0 + TTL, ttlMs: TTL })).toEqual({
        acquired: true,
        inFlight: 2,
      });
      expect(await slots.inFlight(acc, T0 + 10_000 + TTL)).toBe(1);
      expect(await slots.inFlight(acc, T0 + 10 * TTL)).toBe(0);
    });

    it('renews a live lease; never revives one that lapsed or was released', async () => {
      const slots = ctx.stores().slots;
      const acc = uid('acc');
      const held = uid('slot');
      await slots.acquire({ accountId: acc, slotId: held, limit: 2, nowMs: T0, ttlMs: TTL });
      // renewed at +20 s and +40 s: still live at +65 s, long after its first expiry
      expect(await slots.renew({ accountId: acc, slotId: held, nowMs: T0 + 20_000, ttlMs: TTL })).toBe(true);
      expect(await slots.renew({ accountId: acc, slotId: held, nowMs: T0 + 40_000, ttlMs: TTL })).toBe(true);
      expect(await slots.inFlight(acc, T0 + 65_000)).toBe(1);
      expect(await slots.inFlight(acc, T0 + 70_000)).toBe(0);
      // lapsed at +70 s: a late renewal fails and the slot stays gone
      expect(await slots.renew({ accountId: acc, slotId: held, nowMs: T0 + 70_000, ttlMs: TTL })).toBe(false);
      expect(await slots.inFlight(acc, T0 + 70_000)).toBe(0);
      // released, or never taken: nothing to renew, nothing created
      const other = uid('slot');
      await slots.acquire({ accountId: acc, slotId: other, limit: 2, nowMs: T0 + 80_000, ttlMs: TTL });
      await slots.release(acc, other);
      expect(await slots.renew({ accountId: acc, slotId: other, nowMs: T0 + 81_000, ttlMs: TTL })).toBe(false);
      expect(await slots.renew({ accountId: uid('acc'), slotId: uid('slot'), nowMs: T0, ttlMs: TTL })).toBe(false);
      expect(await slots.inFlight(acc, T0 + 81_000)).toBe(0);
    });

    it('never exceeds the limit under parallel acquires', async () => {
      const slots = ctx.stores().slots;
      const acc = uid('acc');
      const results = await Promise.all(
        Array.from({ length: 50 }, () => slots.acquire({ accountId: acc, slotId: uid('slot'), limit: 5, nowMs: T0, ttlMs: TTL })),
      );
      expect(results.filter((r) => r.acquired)).toHaveLength(5);
      for (const r of results) expect(r.inFlight).toBeLessThanOrEqual(5);
      for (const r of results.filter((x) => !x.acquired)) expect(r.inFlight).toBe(5);
      expect(await slots.inFlight(acc, T0)).toBe(5);
    });

    it('never exceeds the limit while parallel workers acquire and release', async () => {
      const slots = ctx.stores().slots;
      const acc = uid('acc');
      const limit = 3;
      let held = 0;
      let maxHeld = 0;
      let granted = 0;
      const worker = async (): Promise<void> => {
        for (let i = 0; i < 10; i++) {
          const slotId = uid('slot');
          const r = await slots.acquire({ accountId: acc, slotId, limit, nowMs: T0, ttlMs: TTL });
          if (!r.acquired) continue;
          granted++;
          held++;
          maxHeld = Math.max(maxHeld, held);
          await Promise.resolve();
          held--;
          await slots.release(acc, slotId);
        }
      };
      await Promise.all(Array.from({ length: 12 }, worker));
      expect(granted).toBeGreaterThanOrEqual(limit);
      expect(maxHeld).toBeLessThanOrEqual(limit);
      expect(await slots.inFlight(acc, T0)).toBe(0);
    });
  });
}

function cacheContract(ctx: ContractContext): void {
  describe('cache', () => {
    it('misses, then hits until the ttl has passed by the injected clock', async () => {
      const cache = ctx.stores().cache;
      const key = uid('cache');
      expect(await cache.get(key, T0)).toBeNull();
      await cache.set(key, '{"markdown":"# hi"}', 3_600_000, T0);
      expect(await cache.get(key, T0)).toBe('{"markdown":"# hi"}');
      // Decision: an entry set at t with ttl is served while now < t + ttl, gone at t + ttl.
      expect(await cache.get(key, T0 + 3_600_000 - 1)).toBe('{"markdown":"# hi"}');
      expect(await cache.get(key, T0 + 3_600_000)).toBeNull();
    });

    it('overwrites value and ttl', async () => {
      const cache = ctx.stores().cache;
      const key = uid('cache');
      await cache.set(key, 'one', 1_000, T0);
      await cache.set(key, 'two', 60_000, T0 + 500);
      expect(await cache.get(key, T0 + 2_000)).toBe('two');
      expect(await cache.get(key, T0 + 60_500)).toBeNull();
    });

    it('deletes; deleting a missing key is a no-op', async () => {
      const cache = ctx.stores().cache;
      const key = uid('cache');
      await cache.set(key, 'v', 60_000, T0);
      await cache.delete(key);
      expect(await cache.get(key, T0)).toBeNull();
      await cache.delete(uid('cache'));
    });

    it('round-trips large Unicode values exactly', async () => {
      const cache = ctx.stores().cache;
      const key = `${uid('cache')}|https://例え.テスト/päth?q=1|read|1.0.0+dev`;
      const value = JSON.stringify({ markdown: `# Ünïcødé ✓ 😀\n\n${'Zeile mit Text. '.repeat(70_000)}`, nul: 'a\u0001b' });
      await cache.set(key, value, 60_000, T0);
      expect(await cache.get(key, T0 + 1)).toBe(value);
    });
  });
}

function lifecycleContract(open: OpenStores, close: CloseStores): void {
  describe('lifecycle', () => {
    it('pings, reopens over existing data (migrations run once) and closes', async () => {
      const second = await open();
      try {
        await expect(second.ping()).resolves.toBeUndefined();
        const id = uid('acc');
        await second.accounts.createAccount({ id, plan: 'free', name: null, now: T0 });
        expect((await second.accounts.getAccount(id))?.plan).toBe('free');
      } finally {
        await close(second);
      }
    });
  });
}
