import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utcPeriod } from '../../src/billing/period.js';
import type { Site } from '../helpers/site.js';
import { startSite } from '../helpers/site.js';
import type { TestService } from '../helpers/service.js';
import { call, startService } from '../helpers/service.js';
import { Gate } from '../helpers/gate.js';

describe('graceful shutdown', () => {
  let site: Site;
  let svc: TestService;
  const gate = new Gate();

  beforeAll(async () => {
    site = await startSite(async (req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      await gate.pass();
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><p>finished while draining</p></body></html>');
    });
    svc = await startService();
  });
  afterAll(async () => {
    gate.releaseHeld();
    await site.close();
  });

  it('lets requests in flight finish, releases their slots, and refuses nothing it already accepted', async () => {
    const { apiKey, accountId } = await svc.newAccount('starter');
    const inFlight = svc.call('/v1/read', { key: apiKey, body: { url: `${site.origin}/slow.html` } });
    await gate.waitFor(1);
    expect(await svc.stores.slots.inFlight(accountId, svc.clock.now)).toBe(1);
    const closing = svc.app.close();
    await sleep(50);
    // the listener is closed: a new connection cannot get in
    const probe = await Promise.race([
      call(svc.baseUrl, '/healthz').then(
        (r) => `answered ${r.status}`,
        () => 'refused',
      ),
      sleep(5000).then(() => 'hung'),
    ]);
    expect(probe).toBe('refused');
    gate.releaseHeld();
    const res = await inFlight;
    expect(res.headers.connection).toBe('close');
    expect(res.status).toBe(200);
    expect(res.json.markdown).toContain('finished while draining');
    await closing;
    expect(await svc.stores.slots.inFlight(accountId, svc.clock.now)).toBe(0);
    expect((await svc.stores.ledger.getUsage(accountId, utcPeriod(svc.clock.now))).planUsed).toBe(1);
    await svc.close();
  });
});

describe('abort on shutdown past the grace period', () => {
  it('aborts work in flight, refunds it and frees the slot', async () => {
    const gate = new Gate();
    const site = await startSite(async (req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      await gate.pass();
      res.writeHead(200, { 'content-type': 'text/html' }).end('<p>too late</p>');
    });
    const svc = await startService();
    try {
      const { apiKey, accountId } = await svc.newAccount('starter');
      const pending = svc.call('/v1/read', { key: apiKey, body: { url: `${site.origin}/stuck.html` } });
      await gate.waitFor(1);
      svc.app.abortInFlight();
      const res = await pending;
      expect(res.status).toBe(503);
      expect(res.json.code).toBe('SERVICE_UNAVAILABLE');
      expect(res.headers['x-ratelimit-remaining']).toBe('10000');
      expect((await svc.stores.ledger.getUsage(accountId, utcPeriod(svc.clock.now))).planUsed).toBe(0);
      expect(await svc.stores.slots.inFlight(accountId, svc.clock.now)).toBe(0);
    } finally {
      gate.releaseHeld();
      await svc.close();
      await site.close();
    }
  });
});
