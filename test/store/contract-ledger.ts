/**
 * Ledger part of the store contract: which pool a charge takes, exact refunds, month
 * counters, and the concurrency cases that prove no lost update and no double refund.
 */
import { describe, expect, it } from 'vitest';
import type { ChargeRequest, LedgerStore } from '../../src/store/types.js';
import type { ContractContext } from './contract-helpers.js';
import { T0, iso, uid } from './contract-helpers.js';

const NOV = '2026-11';
const DEC = '2026-12';
const T_DEC = Date.UTC(2026, 11, 1, 0, 0, 0);

function chargeReq(accountId: string, over: Partial<ChargeRequest> = {}): ChargeRequest {
  return {
    chargeId: uid('chg'),
    accountId,
    period: NOV,
    amount: 1,
    planLimit: 10,
    allowBought: true,
    operation: 'read',
    now: T0,
    ...over,
  };
}

export function ledgerContract(ctx: ContractContext): void {
  const ledger = (): LedgerStore => ctx.stores().ledger;

  describe('ledger: charges', () => {
    it('takes plan credits while the whole amount fits and writes a ledger row', async () => {
      const acc = await ctx.newAccount();
      const req = chargeReq(acc, { amount: 4 });
      expect(await ledger().charge(req)).toEqual({ ok: true, source: 'plan', planUsed: 4, boughtBalance: 0 });
      expect(await ledger().charge(chargeReq(acc, { amount: 6 }))).toEqual({ ok: true, source: 'plan', planUsed: 10, boughtBalance: 0 });
      expect(await ledger().getUsage(acc, NOV)).toEqual({ planUsed: 10, boughtBalance: 0 });
      const entries = await ledger().listEntries(acc);
      expect(entries).toHaveLength(2);
      // Decision: a charge's ledger row has id = chargeId = its own chargeId; amounts are positive.
      expect(entries[0]).toEqual({
        id: req.chargeId,
        accountId: acc,
        kind: 'charge',
        source: 'plan',
        amount: 4,
        period: NOV,
        operation: 'read',
        chargeId: req.chargeId,
        createdAt: iso(T0),
      });
    });

    it('never splits a charge: the whole amount goes to bought credits when plan credits do not cover it', async () => {
      const acc = await ctx.newAccount();
      expect(await ledger().addBoughtCredits({ accountId: acc, amount: 5, reason: 'pack:S', entryId: uid('buy'), now: T0 })).toEqual({
        balance: 5,
        applied: true,
      });
      await ledger().charge(chargeReq(acc, { amount: 9 }));
      expect(await ledger().charge(chargeReq(acc, { amount: 2 }))).toEqual({ ok: true, source: 'credit', planUsed: 9, boughtBalance: 3 });
      expect(await ledger().charge(chargeReq(acc, { amount: 1 }))).toEqual({ ok: true, source: 'plan', planUsed: 10, boughtBalance: 3 });
      expect(await ledger().charge(chargeReq(acc, { amount: 3 }))).toEqual({ ok: true, source: 'credit', planUsed: 10, boughtBalance: 0 });
    });

    it('refuses without side effects when bought credits are not allowed or not sufficient', async () => {
      const acc = await ctx.newAccount('free');
      await ledger().addBoughtCredits({ accountId: acc, amount: 2, reason: 'pack:S', entryId: uid('buy'), now: T0 });
      await ledger().charge(chargeReq(acc, { amount: 10 }));
      const before = await ledger().listEntries(acc);
      expect(await ledger().charge(chargeReq(acc, { allowBought: false }))).toEqual({
        ok: false,
        reason: 'insufficient',
        planUsed: 10,
        boughtBalance: 2,
      });
      expect(await ledger().charge(chargeReq(acc, { amount: 3 }))).toEqual({
        ok: false,
        reason: 'insufficient',
        planUsed: 10,
        boughtBalance: 2,
      });
      expect(await ledger().getUsage(acc, NOV)).toEqual({ planUsed: 10, boughtBalance: 2 });
      expect(await ledger().listEntries(acc)).toEqual(before);
    });

    it('treats planLimit null as unlimited and 0 as no plan credits', async () => {
      const acc = await ctx.newAccount('enterprise');
      expect(await ledger().charge(chargeReq(acc, { planLimit: null, amount: 1_000_000 }))).toEqual({
        ok: true,
        source: 'plan',
        planUsed: 1_000_000,
        boughtBalance: 0,
      });
      const zero = await ctx.newAccount();
      await ledger().addBoughtCredits({ accountId: zero, amount: 1, reason: 'pack:S', entryId: uid('buy'), now: T0 });
      expect(await ledger().charge(chargeReq(zero, { planLimit: 0 }))).toEqual({
        ok: true,
        source: 'credit',
        planUsed: 0,
        boughtBalance: 0,
      });
    });

    it('keeps a separate plan counter per UTC month; bought credits carry over', async () => {
      const acc = await ctx.newAccount();
      await ledger().addBoughtCredits({ accountId: acc, amount: 7, reason: 'pack:S', entryId: uid('buy'), now: T0 });
      await ledger().charge(chargeReq(acc, { amount: 10 }));
      expect(await ledger().charge(chargeReq(acc, { period: DEC, now: T_DEC }))).toEqual({
        ok: true,
        source: 'plan',
        planUsed: 1,
        boughtBalance: 7,
      });
      expect(await ledger().getUsage(acc, NOV)).toEqual({ planUsed: 10, boughtBalance: 7 });
      expect(await ledger().getUsage(acc, DEC)).toEqual({ planUsed: 1, boughtBalance: 7 });
      expect(await ledger().getUsage(acc, '2027-01')).toEqual({ planUsed: 0, boughtBalance: 7 });
      expect(await ledger().getUsage(uid('missing'), NOV)).toEqual({ planUsed: 0, boughtBalance: 0 });
    });

    it('records a purchase as a ledger row and returns the new balance; the same entry id twice adds once', async () => {
      const acc = await ctx.newAccount();
      const entryId = uid('buy');
      expect(await ledger().addBoughtCredits({ accountId: acc, amount: 500, reason: 'pack:S', entryId, now: T0 })).toEqual({
        balance: 500,
        applied: true,
      });
      expect(
        await ledger().addBoughtCredits({ accountId: acc, amount: 2_200, reason: 'pack:M', entryId: uid('buy'), now: T0 + 1 }),
      ).toEqual({
        balance: 2_700,
        applied: true,
      });
      // the same purchase again (a retried payment webhook): nothing added
      expect(await ledger().addBoughtCredits({ accountId: acc, amount: 500, reason: 'pack:S', entryId, now: T0 + 2 })).toEqual({
        balance: 2_700,
        applied: false,
      });
      const [first] = await ledger().listEntries(acc);
      // Decision: purchase rows carry source 'credit', the month of `now`, reason as operation, no chargeId.
      expect(first).toEqual({
        id: entryId,
        accountId: acc,
        kind: 'purchase',
        source: 'credit',
        amount: 500,
        period: NOV,
        operation: 'pack:S',
        chargeId: null,
        createdAt: iso(T0),
      });
    });
  });

  describe('ledger: refunds', () => {
    it('returns a plan charge to the plan counter, once per refundId', async () => {
      const acc = await ctx.newAccount();
      const c = chargeReq(acc, { amount: 3 });
      await ledger().charge(c);
      const refundId = uid('ref');
      expect(await ledger().refund({ refundId, chargeId: c.chargeId, amount: 3, now: T0 + 1 })).toEqual({
        applied: true,
        source: 'plan',
        planUsed: 0,
        boughtBalance: 0,
      });
      const again = await ledger().refund({ refundId, chargeId: c.chargeId, amount: 3, now: T0 + 2 });
      expect(again.applied).toBe(false);
      expect(await ledger().getUsage(acc, NOV)).toEqual({ planUsed: 0, boughtBalance: 0 });
      const refund = (await ledger().listEntries(acc)).filter((e) => e.kind === 'refund');
      // Decision: a refund row has id = refundId, the charge's source, period and operation, and chargeId.
      expect(refund).toEqual([
        {
          id: refundId,
          accountId: acc,
          kind: 'refund',
          source: 'plan',
          amount: 3,
          period: NOV,
          operation: 'read',
          chargeId: c.chargeId,
          createdAt: iso(T0 + 1),
        },
      ]);
    });

    it('returns a bought-credit charge to the bought balance', async () => {
      const acc = await ctx.newAccount();
      await ledger().addBoughtCredits({ accountId: acc, amount: 5, reason: 'pack:S', entryId: uid('buy'), now: T0 });
      const c = chargeReq(acc, { amount: 4, planLimit: 0 });
      expect((await ledger().charge(c)).ok).toBe(true);
      expect(await ledger().refund({ refundId: uid('ref'), chargeId: c.chargeId, amount: 4, now: T0 })).toEqual({
        applied: true,
        source: 'credit',
        planUsed: 0,
        boughtBalance: 5,
      });
    });

    it('refunds in parts never more than charged; the last part is cut to what is left', async () => {
      const acc = await ctx.newAccount();
      const c = chargeReq(acc, { amount: 5 });
      await ledger().charge(c);
      const part = (amount: number) => ledger().refund({ refundId: uid('ref'), chargeId: c.chargeId, amount, now: T0 });
      expect((await part(2)).planUsed).toBe(3);
      expect((await part(2)).planUsed).toBe(1);
      // Decision: a refund larger than what is left refunds only the rest (so "refund all"
      // may pass any large amount); once nothing is left, refunds are not applied.
      expect(await part(2)).toEqual({ applied: true, source: 'plan', planUsed: 0, boughtBalance: 0 });
      expect((await part(1)).applied).toBe(false);
      const refunds = (await ledger().listEntries(acc)).filter((e) => e.kind === 'refund');
      expect(refunds.map((e) => e.amount)).toEqual([2, 2, 1]);
    });

    it('refunds "everything" with a huge amount, and never below zero', async () => {
      const acc = await ctx.newAccount();
      const c = chargeReq(acc, { amount: 2 });
      await ledger().charge(c);
      await ledger().charge(chargeReq(acc, { amount: 1 }));
      const r = await ledger().refund({ refundId: uid('ref'), chargeId: c.chargeId, amount: Number.MAX_SAFE_INTEGER, now: T0 });
      expect(r).toEqual({ applied: true, source: 'plan', planUsed: 1, boughtBalance: 0 });
    });

    it('does nothing for an unknown charge', async () => {
      expect(await ledger().refund({ refundId: uid('ref'), chargeId: uid('chg'), amount: 1, now: T0 })).toEqual({
        applied: false,
        source: null,
        planUsed: 0,
        boughtBalance: 0,
      });
    });

    it('returns credits to the month the charge was taken in, even when refunded later', async () => {
      const acc = await ctx.newAccount();
      const c = chargeReq(acc, { amount: 2 });
      await ledger().charge(c);
      await ledger().charge(chargeReq(acc, { period: DEC, now: T_DEC }));
      const r = await ledger().refund({ refundId: uid('ref'), chargeId: c.chargeId, amount: 2, now: T_DEC + 5 });
      expect(r).toEqual({ applied: true, source: 'plan', planUsed: 0, boughtBalance: 0 });
      expect(await ledger().getUsage(acc, DEC)).toEqual({ planUsed: 1, boughtBalance: 0 });
      const refund = (await ledger().listEntries(acc)).find((e) => e.kind === 'refund');
      expect(refund?.period).toBe(NOV);
    });

    it('lists entries in the order they happened', async () => {
      const acc = await ctx.newAccount();
      await ledger().addBoughtCredits({ accountId: acc, amount: 1, reason: 'pack:S', entryId: uid('buy'), now: T0 });
      const c = chargeReq(acc, { now: T0 + 1 });
      await ledger().charge(c);
      await ledger().refund({ refundId: uid('ref'), chargeId: c.chargeId, amount: 1, now: T0 + 2 });
      await ledger().charge(chargeReq(acc, { now: T0 + 3, operation: 'batch' }));
      expect((await ledger().listEntries(acc)).map((e) => `${e.kind}:${e.operation}`)).toEqual([
        'purchase:pack:S',
        'charge:read',
        'refund:read',
        'charge:batch',
      ]);
      expect(await ledger().listEntries(uid('missing'))).toEqual([]);
    });
  });

  describe('ledger: concurrency', () => {
    it('200 parallel charges against 150 plan credits: exactly 150 succeed', async () => {
      const acc = await ctx.newAccount('free');
      const results = await Promise.all(
        Array.from({ length: 200 }, () => ledger().charge(chargeReq(acc, { planLimit: 150, allowBought: false }))),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(150);
      expect(results.filter((r) => !r.ok)).toHaveLength(50);
      for (const r of results) expect(r.planUsed).toBeLessThanOrEqual(150);
      expect(await ledger().getUsage(acc, NOV)).toEqual({ planUsed: 150, boughtBalance: 0 });
      expect((await ledger().listEntries(acc)).filter((e) => e.kind === 'charge')).toHaveLength(150);
    });

    it('200 parallel charges against 100 plan + 50 bought: 100 plan, 50 credit, 50 refused', async () => {
      const acc = await ctx.newAccount();
      await ledger().addBoughtCredits({ accountId: acc, amount: 50, reason: 'pack:S', entryId: uid('buy'), now: T0 });
      const results = await Promise.all(Array.from({ length: 200 }, () => ledger().charge(chargeReq(acc, { planLimit: 100 }))));
      const sources = results.map((r) => (r.ok ? r.source : 'refused'));
      expect(sources.filter((s) => s === 'plan')).toHaveLength(100);
      expect(sources.filter((s) => s === 'credit')).toHaveLength(50);
      expect(sources.filter((s) => s === 'refused')).toHaveLength(50);
      expect(await ledger().getUsage(acc, NOV)).toEqual({ planUsed: 100, boughtBalance: 0 });
    });

    it('50 charges each refunded twice in parallel with the same refundId: each applied once', async () => {
      const acc = await ctx.newAccount();
      const charges = Array.from({ length: 50 }, () => chargeReq(acc, { planLimit: 100 }));
      for (const c of charges) await ledger().charge(c);
      const results = await Promise.all(
        charges.flatMap((c) => {
          const refundId = uid('ref');
          return [0, 1].map(() => ledger().refund({ refundId, chargeId: c.chargeId, amount: 1, now: T0 }));
        }),
      );
      expect(results.filter((r) => r.applied)).toHaveLength(50);
      expect(await ledger().getUsage(acc, NOV)).toEqual({ planUsed: 0, boughtBalance: 0 });
      expect((await ledger().listEntries(acc)).filter((e) => e.kind === 'refund')).toHaveLength(50);
    });

    it('parallel refunds with different ids never return more than the charge took', async () => {
      const acc = await ctx.newAccount();
      await ledger().addBoughtCredits({ accountId: acc, amount: 3, reason: 'pack:S', entryId: uid('buy'), now: T0 });
      const c = chargeReq(acc, { amount: 3, planLimit: 0 });
      await ledger().charge(c);
      const results = await Promise.all(
        Array.from({ length: 20 }, () => ledger().refund({ refundId: uid('ref'), chargeId: c.chargeId, amount: 1, now: T0 })),
      );
      expect(results.filter((r) => r.applied)).toHaveLength(3);
      expect(await ledger().getUsage(acc, NOV)).toEqual({ planUsed: 0, boughtBalance: 3 });
    });

    it('two instances racing for the same credits never overspend', async () => {
      const acc = await ctx.newAccount();
      await ledger().addBoughtCredits({ accountId: acc, amount: 30, reason: 'pack:S', entryId: uid('buy'), now: T0 });
      const second = await ctx.openSecond();
      try {
        const results = await Promise.all(
          Array.from({ length: 120 }, (_, i) => (i % 2 === 0 ? ledger() : second.ledger).charge(chargeReq(acc, { planLimit: 60 }))),
        );
        expect(results.filter((r) => r.ok && r.source === 'plan')).toHaveLength(60);
        expect(results.filter((r) => r.ok && r.source === 'credit')).toHaveLength(30);
        expect(await second.ledger.getUsage(acc, NOV)).toEqual({ planUsed: 60, boughtBalance: 0 });
      } finally {
        await ctx.closeSecond(second);
      }
    });

    it('parallel charges and refunds keep counters equal to the ledger', async () => {
      const acc = await ctx.newAccount();
      await ledger().addBoughtCredits({ accountId: acc, amount: 20, reason: 'pack:S', entryId: uid('buy'), now: T0 });
      const one = async (i: number): Promise<void> => {
        const c = chargeReq(acc, { planLimit: 40 });
        const r = await ledger().charge(c);
        if (r.ok && i % 3 === 0) await ledger().refund({ refundId: uid('ref'), chargeId: c.chargeId, amount: 1, now: T0 });
      };
      await Promise.all(Array.from({ length: 90 }, (_, i) => one(i)));
      const entries = await ledger().listEntries(acc);
      const net = (source: 'plan' | 'credit'): number =>
        entries
          .filter((e) => e.source === source && e.kind !== 'purchase')
          .reduce((sum, e) => sum + (e.kind === 'charge' ? e.amount : -e.amount), 0);
      const usage = await ledger().getUsage(acc, NOV);
      expect(usage.planUsed).toBe(net('plan'));
      expect(usage.boughtBalance).toBe(20 - net('credit'));
      expect(usage.planUsed).toBeLessThanOrEqual(40);
      expect(usage.boughtBalance).toBeGreaterThanOrEqual(0);
    });
  });

  describe('ledger: open charges, settle, sweep, verify', () => {
    it('a charge is open until settled; settle keeps what was delivered and refunds the rest, once', async () => {
      const acc = await ctx.newAccount();
      const req = chargeReq(acc, { amount: 5 });
      await ledger().charge(req);
      // two failed items refunded along the way
      await ledger().refund({ refundId: `${req.chargeId}:item:1`, chargeId: req.chargeId, amount: 1, now: T0 });
      await ledger().refund({ refundId: `${req.chargeId}:item:2`, chargeId: req.chargeId, amount: 1, now: T0 });
      // two items delivered: one more credit goes back at the close
      expect(await ledger().settle({ chargeId: req.chargeId, keep: 2, now: T0 + 1 })).toEqual({
        applied: true,
        refunded: 1,
        source: 'plan',
        planUsed: 2,
        boughtBalance: 0,
      });
      // closed is final: a second settle, a late refund change nothing
      expect((await ledger().settle({ chargeId: req.chargeId, keep: 0, now: T0 + 2 })).applied).toBe(false);
      expect((await ledger().refund({ refundId: `${req.chargeId}:late`, chargeId: req.chargeId, amount: 5, now: T0 + 2 })).applied).toBe(
        false,
      );
      expect(await ledger().getUsage(acc, NOV)).toEqual({ planUsed: 2, boughtBalance: 0 });
      const report = await ledger().verify();
      expect(report.openCharges.map((c) => c.chargeId)).not.toContain(req.chargeId);
    });

    it('settle with keep 0 refunds a bought-credit charge in full; unknown charges are not applied', async () => {
      const acc = await ctx.newAccount();
      await ledger().addBoughtCredits({ accountId: acc, amount: 10, reason: 'pack:S', entryId: uid('pur'), now: T0 });
      const req = chargeReq(acc, { amount: 3, planLimit: 0 });
      expect((await ledger().charge(req)).ok).toBe(true);
      expect(await ledger().settle({ chargeId: req.chargeId, keep: 0, now: T0 })).toMatchObject({
        applied: true,
        refunded: 3,
        source: 'credit',
        boughtBalance: 10,
      });
      expect((await ledger().settle({ chargeId: uid('chg'), keep: 1, now: T0 })).applied).toBe(false);
    });

    it('sweeps only charges left open before the threshold, refunding them in full; verify lists what is open', async () => {
      const acc = await ctx.newAccount();
      const old = chargeReq(acc, { amount: 2, now: T0 });
      const recent = chargeReq(acc, { amount: 1, now: T0 + 60_000 });
      const settled = chargeReq(acc, { amount: 1, now: T0 });
      for (const r of [old, recent, settled]) await ledger().charge(r);
      await ledger().settle({ chargeId: settled.chargeId, keep: 1, now: T0 + 1 });
      const before = (await ledger().verify()).openCharges.map((c) => c.chargeId);
      expect(before).toEqual(expect.arrayContaining([old.chargeId, recent.chargeId]));
      expect(before).not.toContain(settled.chargeId);

      const swept = await ledger().sweepOpenCharges({ openedBefore: T0 + 30_000, now: T0 + 600_000, limit: 1000 });
      expect(swept.map((c) => c.chargeId)).toContain(old.chargeId);
      expect(swept.map((c) => c.chargeId)).not.toContain(recent.chargeId);
      expect(swept.find((c) => c.chargeId === old.chargeId)).toMatchObject({ accountId: acc, amount: 2, refunded: 0, operation: 'read' });
      expect(await ledger().getUsage(acc, NOV)).toEqual({ planUsed: 2, boughtBalance: 0 });
      const after = await ledger().verify();
      expect(after.openCharges.map((c) => c.chargeId)).toContain(recent.chargeId);
      expect(after.openCharges.map((c) => c.chargeId)).not.toContain(old.chargeId);
      expect(after.differences.filter((d) => d.accountId === acc)).toEqual([]);
    });

    it('parallel settles and sweeps of one charge close it exactly once', async () => {
      const acc = await ctx.newAccount();
      const req = chargeReq(acc, { amount: 4, now: T0 });
      await ledger().charge(req);
      const results = await Promise.all([
        ...Array.from({ length: 5 }, () => ledger().settle({ chargeId: req.chargeId, keep: 4, now: T0 + 1 })),
        ...Array.from({ length: 5 }, () => ledger().sweepOpenCharges({ openedBefore: T0 + 1, now: T0 + 2, limit: 10 })),
      ]);
      const settles = results.slice(0, 5) as Array<{ applied: boolean }>;
      const sweeps = results.slice(5) as Array<Array<{ chargeId: string }>>;
      const closes = settles.filter((r) => r.applied).length + sweeps.filter((r) => r.some((c) => c.chargeId === req.chargeId)).length;
      expect(closes).toBe(1);
      const usage = await ledger().getUsage(acc, NOV);
      expect([0, 4]).toContain(usage.planUsed); // swept (refunded) or settled, never both or half
      expect((await ledger().verify()).differences.filter((d) => d.accountId === acc)).toEqual([]);
    });
  });
}
