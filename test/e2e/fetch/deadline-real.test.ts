import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../src/errors.js';
import { createFetcher } from '../../../src/fetch/fetcher.js';
import { startSite } from '../../helpers/site.js';
import { memoryCache } from './helpers.js';

describe('the real 15 s deadline', () => {
  it('a server dribbling one byte a second gets TIMEOUT, back well before 17 s', async () => {
    const site = await startSite((req, res) => {
      if (req.url === '/robots.txt') {
        res.statusCode = 404;
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'text/html' });
      const timer = setInterval(() => res.write('.'), 1_000);
      res.on('close', () => clearInterval(timer));
    });
    const fetcher = createFetcher({
      allowPrivateTargets: ['127.0.0.1/32'],
      cache: memoryCache(),
      now: () => 0,
      logger: { warn: () => {} },
    });
    const started = Date.now();
    try {
      const err = await fetcher.fetch(`${site.origin}/`).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ServiceError);
      expect((err as ServiceError).code).toBe('TIMEOUT');
      expect((err as ServiceError).status).toBe(504);
      expect(Date.now() - started).toBeLessThan(17_000);
    } finally {
      await fetcher.close();
      await site.close();
    }
  }, 30_000);
});
