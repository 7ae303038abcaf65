import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { createAccount } from '../../../src/billing/accounts.js';
import { utcPeriod } from '../../../src/billing/period.js';
import { loadConfig } from '../../../src/config.js';
import { ServiceError } from '../../../src/errors.js';
import type { Fetcher } from '../../../src/fetch/types.js';
import { openSqliteStores } from '../../../src/store/sqlite/index.js';
import type { Stores } from '../../../src/store/types.js';

const NOW = Date.UTC(2026, 10, 20, 8, 0, 0);
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function appWith(fetcher: Fetcher, wrap: (s: Stores) => Stores = (s) => s) {
  const dir = mkdtempSync(join(tmpdir(), 'pith-fail-'));
  const real = openSqliteStores(dir);
  const stores = wrap(real);
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', ENGINE_VERSION: 't' });
  const app: FastifyInstance = await buildApp(config, { stores, fetcher, now: () => NOW, randomBytes });
  cleanups.push(async () => {
    await app.close();
    await real.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const { apiKey, account } = await createAccount({ stores: real, now: () => NOW, randomBytes }, { plan: 'starter' });
  const read = () =>
    app.inject({
      method: 'POST',
      url: '/v1/read',
      headers: { authorization: `Bearer ${apiKey}` },
      payload: { url: 'https://example.com/a' },
    });
  return { app, real, read, accountId: account.id };
}

describe('failures inside a billable call', () => {
  it('an unexpected exception is INTERNAL_ERROR 500 without a stack, refunded, slot released', async () => {
    const boom: Fetcher = {
      fetch: async () => {
        throw new TypeError('secret internal detail at /srv/app.js:12');
      },
    };
    const { read, real, accountId } = await appWith(boom);
    const res = await read();
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body).toMatchObject({ status: 'error', code: 'INTERNAL_ERROR', request_id: res.headers['x-request-id'] });
    expect(res.body).not.toContain('secret internal detail');
    expect(res.body).not.toContain('app.js');
    expect(res.headers['x-ratelimit-remaining']).toBe('10000');
    expect((await real.ledger.getUsage(accountId, utcPeriod(NOW))).planUsed).toBe(0);
    expect(await real.slots.inFlight(accountId, NOW)).toBe(0);
  });

  it('a store outage before the charge is SERVICE_UNAVAILABLE 503 and charges nothing', async () => {
    const ok: Fetcher = {
      fetch: async () => {
        throw new Error('must not fetch');
      },
    };
    const { read, real, accountId } = await appWith(ok, (s) => ({
      ...s,
      ledger: {
        ...s.ledger,
        charge: async () => {
          throw new ServiceError('SERVICE_UNAVAILABLE', 'the store is down');
        },
      },
    }));
    const res = await read();
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('SERVICE_UNAVAILABLE');
    expect(await real.ledger.listEntries(accountId)).toEqual([]);
    expect(await real.slots.inFlight(accountId, NOW)).toBe(0);
  });

  it('a refund that fails twice is retried and still lands exactly once', async () => {
    const notFound: Fetcher = {
      fetch: async () => {
        throw new ServiceError('URL_NOT_FOUND');
      },
    };
    let failures = 2;
    const { read, real, accountId } = await appWith(notFound, (s) => ({
      ...s,
      ledger: {
        ...s.ledger,
        refund: async (req) => {
          if (failures-- > 0) throw new ServiceError('SERVICE_UNAVAILABLE', 'blip');
          return s.ledger.refund(req);
        },
      },
    }));
    const res = await read();
    expect(res.statusCode).toBe(404);
    expect((await real.ledger.getUsage(accountId, utcPeriod(NOW))).planUsed).toBe(0);
    expect((await real.ledger.listEntries(accountId)).filter((e) => e.kind === 'refund')).toHaveLength(1);
  });

  it('a slot store outage is SERVICE_UNAVAILABLE and nothing is charged', async () => {
    const never: Fetcher = {
      fetch: async () => {
        throw new Error('must not fetch');
      },
    };
    const { read, real, accountId } = await appWith(never, (s) => ({
      ...s,
      slots: {
        ...s.slots,
        acquire: async () => {
          throw new ServiceError('SERVICE_UNAVAILABLE', 'redis down');
        },
      },
    }));
    const res = await read();
    expect(res.statusCode).toBe(503);
    expect(await real.ledger.listEntries(accountId)).toEqual([]);
  });

  it('readiness reports an unreachable store', async () => {
    const never: Fetcher = {
      fetch: async () => {
        throw new Error('must not fetch');
      },
    };
    const { app } = await appWith(never, (s) => ({
      ...s,
      ping: async () => {
        throw new Error('ECONNREFUSED');
      },
    }));
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('SERVICE_UNAVAILABLE');
    expect(res.body).not.toContain('ECONNREFUSED');
  });
});
