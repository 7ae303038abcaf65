import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Site } from '../../helpers/site.js';
import { startSite } from '../../helpers/site.js';
import type { TestService } from '../../helpers/service.js';
import { startService } from '../../helpers/service.js';
import { Gate } from '../../helpers/gate.js';
import { usageOf } from './helpers.js';

/** Every sibling operation holds exactly one slot while it runs and is refused when none is left. */
describe('concurrency slots of the sibling operations', () => {
  let site: Site;
  let svc: TestService;
  const gate = new Gate();

  beforeAll(async () => {
    site = await startSite(async (req, res) => {
      if (req.url === '/robots.txt' || req.url === '/llms.txt' || req.url === '/sitemap.xml') return void res.writeHead(404).end();
      if (req.url?.startsWith('/gate')) await gate.pass();
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><p>held page</p><a href="/x">x</a></body></html>');
    });
    svc = await startService();
  });
  afterAll(async () => {
    gate.release();
    await svc.close();
    await site.close();
  });

  const ops = [
    { path: '/v1/score', body: (u: string) => ({ url: u }), cost: 0 },
    { path: '/v1/read-and-score', body: (u: string) => ({ url: u }), cost: 1 },
    { path: '/v1/extract', body: (u: string) => ({ url: u }), cost: 1 },
    { path: '/v1/map', body: (u: string) => ({ url: u }), cost: 1 },
    { path: '/v1/batch', body: (u: string) => ({ urls: [u, `${u}-2`, `${u}-3`] }), cost: 3 },
  ];

  it.each(ops)('$path holds one slot while it runs', async ({ path, body, cost }) => {
    const { apiKey, accountId } = await svc.newAccount('free');
    gate.close();
    const running = svc.call(path, { key: apiKey, body: body(`${site.origin}/gate${path.replaceAll('/', '-')}`) });
    await gate.waitFor(1);
    expect((await svc.call('/v1/usage', { key: apiKey })).json.concurrency).toEqual({ limit: 2, in_flight: 1 });
    gate.release();
    const done = await running;
    expect(done.status, done.text).toBe(200);
    expect(await svc.stores.slots.inFlight(accountId, svc.clock.now)).toBe(0);
    expect(await usageOf(svc, accountId)).toEqual({ planUsed: cost, boughtBalance: 0 });
  });

  it.each(ops)('$path is refused with CONCURRENT_LIMIT (nothing charged) when the slots are full', async ({ path, body }) => {
    const { apiKey, accountId } = await svc.newAccount('free');
    gate.close();
    const held = [1, 2].map((i) => svc.call('/v1/read', { key: apiKey, body: { url: `${site.origin}/gate/held/${path}/${i}` } }));
    await gate.waitFor(2);
    const refused = await svc.call(path, { key: apiKey, body: body(`${site.origin}/free${path}`) });
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ code: 'CONCURRENT_LIMIT', in_flight: 2, limit: 2, retry_after: 1 });
    gate.release();
    await Promise.all(held);
    expect(await usageOf(svc, accountId)).toEqual({ planUsed: 2, boughtBalance: 0 });
  });
});
