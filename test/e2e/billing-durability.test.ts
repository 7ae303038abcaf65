/**
 * Issue 16: every charge ends settled or refunded, durably. A refund the store refuses is
 * not lost: the answer says it is pending and the sweeper refunds the open charge later. A
 * settle the store refuses withholds the answer (503) and refunds. A client gone before
 * its cache hit is answered is refunded. Stores are made to fail by wrapping their methods.
 */
import type { Socket } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utcPeriod } from '../../src/billing/period.js';
import { sweepOnce } from '../../src/billing/sweeper.js';
import { ServiceError } from '../../src/errors.js';
import type { LedgerStore } from '../../src/store/types.js';
import type { TestService } from '../helpers/service.js';
import { startService } from '../helpers/service.js';
import type { Site } from '../helpers/site.js';
import { startSite } from '../helpers/site.js';

const PAGE =
  '<!doctype html><html lang="en"><head><title>Ferry</title></head><body><main><p>The ferry leaves at nine and returns at five, weather permitting, every day of the week.</p></main></body></html>';
const quiet = { info: () => {}, error: () => {} };

describe('billing that survives store failures', () => {
  let site: Site;
  let svc: TestService;
  let ledger: LedgerStore;
  const realSettle = { fn: null as LedgerStore['settle'] | null };

  beforeAll(async () => {
    site = await startSite((req, res) => {
      if (req.url === '/robots.txt' || req.url === '/missing') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    });
    svc = await startService();
    ledger = svc.stores.ledger;
    realSettle.fn = ledger.settle.bind(ledger);
  });
  afterAll(async () => {
    await svc.close();
    await site.close();
  });

  /** The next `n` settles fail as an unreachable store would. */
  const failSettles = (n: number): void => {
    let left = n;
    ledger.settle = async (req) => {
      if (left-- > 0) throw new ServiceError('SERVICE_UNAVAILABLE', 'the SQLite store failed');
      return (realSettle.fn as LedgerStore['settle'])(req);
    };
  };
  const restore = (): void => {
    ledger.settle = realSettle.fn as LedgerStore['settle'];
  };
  const usage = async (accountId: string) => ledger.getUsage(accountId, utcPeriod(svc.clock.now));

  it('a failed read whose refund the store refuses says the refund is pending; the sweeper refunds it', async () => {
    const { apiKey, accountId } = await svc.newAccount('starter');
    failSettles(3); // every quick refund attempt
    try {
      const res = await svc.call('/v1/read', { key: apiKey, body: { url: `${site.origin}/missing` } });
      expect(res.status).toBe(404);
      expect(res.json).toMatchObject({ code: 'URL_NOT_FOUND', refund_pending: true });
      expect(res.json.message).toContain('will be refunded automatically');
      // the headers tell the truth: the credit is still taken
      expect(res.headers['x-service-billed']).toBe('plan');
      expect(res.headers['x-refund-pending']).toBe('true');
    } finally {
      restore();
    }
    expect((await usage(accountId)).planUsed).toBe(1);
    expect((await ledger.verify()).openCharges.filter((c) => c.accountId === accountId)).toHaveLength(1);
    // not yet old enough
    expect(await sweepOnce({ stores: svc.stores, now: () => svc.clock.now, logger: quiet })).toBe(0);
    svc.clock.now += 15 * 60_000 + 1;
    expect(await sweepOnce({ stores: svc.stores, now: () => svc.clock.now, logger: quiet })).toBeGreaterThanOrEqual(1);
    expect((await usage(accountId)).planUsed).toBe(0);
    const report = await ledger.verify();
    expect(report.openCharges.filter((c) => c.accountId === accountId)).toEqual([]);
    expect(report.differences).toEqual([]);
  });

  it('a read whose settle the store refuses is not delivered: 503, refunded, nothing taken', async () => {
    const { apiKey, accountId } = await svc.newAccount('starter');
    failSettles(1); // the settle fails, the refund that follows works
    try {
      const res = await svc.call('/v1/read', { key: apiKey, body: { url: `${site.origin}/page` } });
      expect(res.status).toBe(503);
      expect(res.json).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retry_after: 1 });
      expect(res.json.markdown).toBeUndefined();
      expect(res.headers['x-service-billed']).toBeUndefined();
    } finally {
      restore();
    }
    expect((await usage(accountId)).planUsed).toBe(0);
  });

  it('a batch settles what it delivered; failed items come back even when their own refunds failed', async () => {
    const { apiKey, accountId } = await svc.newAccount('starter');
    const realRefund = ledger.refund.bind(ledger);
    ledger.refund = async () => {
      throw new ServiceError('SERVICE_UNAVAILABLE', 'the SQLite store failed');
    };
    try {
      const urls = [`${site.origin}/a`, `${site.origin}/missing`, `${site.origin}/b`, `${site.origin}/missing`];
      const res = await svc.call('/v1/batch', { key: apiKey, body: { urls } });
      expect(res.status).toBe(200);
      expect(res.json.results.map((r: { ok: boolean }) => r.ok)).toEqual([true, false, true, false]);
    } finally {
      ledger.refund = realRefund;
    }
    expect((await usage(accountId)).planUsed).toBe(2);
    expect((await ledger.verify()).differences).toEqual([]);
  });

  it('a client gone before its cache hit is answered is refunded', async () => {
    const { apiKey, accountId } = await svc.newAccount('starter');
    const url = `${site.origin}/cached`;
    expect((await svc.call('/v1/read', { key: apiKey, body: { url } })).status).toBe(200);
    expect((await usage(accountId)).planUsed).toBe(1);
    // hold the cache lookup of the next read until its client has hung up
    const cache = svc.stores.cache;
    const realGet = cache.get.bind(cache);
    let release: () => void = () => {};
    let looking: () => void = () => {};
    const lookingUp = new Promise<void>((r) => {
      looking = r;
    });
    cache.get = async (key, now) => {
      looking();
      await new Promise<void>((r) => {
        release = r;
      });
      return realGet(key, now);
    };
    try {
      const body = JSON.stringify({ url });
      const socket: Socket = connect(Number(new URL(svc.baseUrl).port), '127.0.0.1');
      socket.write(
        `POST /v1/read HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      await lookingUp;
      socket.destroy();
      await new Promise((r) => setTimeout(r, 50));
      release();
      for (let i = 0; i < 200 && (await svc.stores.slots.inFlight(accountId, svc.clock.now)) > 0; i++)
        await new Promise((r) => setTimeout(r, 10));
    } finally {
      cache.get = realGet;
    }
    const entries = await ledger.listEntries(accountId);
    expect(entries.filter((e) => e.kind === 'charge')).toHaveLength(2);
    expect((await usage(accountId)).planUsed).toBe(1);
  });
});
