import { createGzip, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { serviceErrorOf, useFetchKit } from './kit.js';

const MB = 1024 * 1024;
const { site, fetcher } = useFetchKit();
const failure = serviceErrorOf;

/** 10 MB of zeros as one gzip member (~10 KB), repeated: `members` × 10 MB once inflated. */
function gzipBomb(members: number): Buffer {
  const one = gzipSync(Buffer.alloc(10 * MB), { level: 9 });
  return Buffer.concat(new Array<Buffer>(members).fill(one));
}

describe('one deadline for the whole fetch', () => {
  it('a server dribbling a byte at a time fails with TIMEOUT near the deadline', async () => {
    const s = await site((req, res) => {
      if (req.url === '/robots.txt') {
        res.statusCode = 404;
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'text/html' });
      const timer = setInterval(() => res.write('x'), 50);
      res.on('close', () => clearInterval(timer));
    });
    const started = Date.now();
    const err = await failure(fetcher({ limits: { totalTimeoutMs: 700 } }).fetch(`${s.origin}/`));
    expect(err.code).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('a server that never sends headers fails with TIMEOUT', async () => {
    const s = await site(() => {
      /* silence */
    });
    const started = Date.now();
    expect((await failure(fetcher({ limits: { totalTimeoutMs: 500 } }).fetch(`${s.origin}/`))).code).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('robots.txt time counts against the same deadline', async () => {
    const s = await site((req, res) => {
      if (req.url === '/robots.txt') {
        setTimeout(() => res.end(''), 400);
        return;
      }
      setTimeout(() => res.end('late'), 400);
    });
    const err = await failure(fetcher({ limits: { totalTimeoutMs: 600, robotsTimeoutMs: 5_000 } }).fetch(`${s.origin}/`));
    expect(err.code).toBe('TIMEOUT');
  });

  it('a lookup that hangs is bounded too', async () => {
    const f = fetcher({ limits: { totalTimeoutMs: 300 }, lookup: () => new Promise(() => {}) });
    expect((await failure(f.fetch('http://hang.example.com/'))).code).toBe('TIMEOUT');
  });
});

describe('10 MB cap on raw and decoded bytes', () => {
  it('a plain body over 10 MB without Content-Length → TOO_LARGE', async () => {
    const chunk = Buffer.alloc(MB, 0x61);
    let sent = 0;
    const s = await site(async (req, res) => {
      if (req.url === '/robots.txt') {
        res.statusCode = 404;
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'text/plain' }); // chunked
      for (let i = 0; i < 30 && !res.destroyed; i++) {
        sent += chunk.length;
        if (!res.write(chunk)) await new Promise((r) => res.once('drain', r));
      }
      res.end();
    });
    expect((await failure(fetcher().fetch(`${s.origin}/`))).code).toBe('TOO_LARGE');
    expect(sent).toBeLessThan(30 * MB); // stopped reading early
  });

  it('exactly 10 MB is accepted', async () => {
    const body = Buffer.alloc(10 * MB, 0x62);
    const s = await site((req, res) => {
      if (req.url === '/robots.txt') {
        res.statusCode = 404;
        return res.end();
      }
      res.end(body);
    });
    expect((await fetcher().fetch(`${s.origin}/`)).body.length).toBe(10 * MB);
  });

  it('a declared Content-Length over the cap fails before the body is read', async () => {
    const s = await site((req, res) => {
      if (req.url === '/robots.txt') {
        res.statusCode = 404;
        return res.end();
      }
      res.writeHead(200, { 'content-length': String(11 * MB) });
      res.write('a little');
    });
    expect((await failure(fetcher().fetch(`${s.origin}/`))).code).toBe('TOO_LARGE');
  });

  it('a ~1 MB gzip that inflates to 1 GB is stopped at the cap', async () => {
    const bomb = gzipBomb(100);
    expect(bomb.length).toBeLessThan(2 * MB);
    const s = await site((req, res) => {
      if (req.url === '/robots.txt') {
        res.statusCode = 404;
        return res.end();
      }
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/html' });
      res.end(bomb);
    });
    const before = process.memoryUsage().rss;
    const err = await failure(fetcher().fetch(`${s.origin}/`));
    expect(err.code).toBe('TOO_LARGE');
    // generous: the cap plus buffers, nowhere near the 1 GB the bomb inflates to
    expect(process.memoryUsage().rss - before).toBeLessThan(300 * MB);
  });

  it('a streamed gzip bomb (generated on the fly) is stopped too', async () => {
    const s = await site((req, res) => {
      if (req.url === '/robots.txt') {
        res.statusCode = 404;
        return res.end();
      }
      res.writeHead(200, { 'content-encoding': 'gzip' });
      const gz = createGzip();
      gz.pipe(res);
      const zeros = Buffer.alloc(MB);
      let i = 0;
      const pump = (): void => {
        while (i < 2048 && !res.destroyed) {
          i++;
          if (!gz.write(zeros)) return void gz.once('drain', pump);
        }
        gz.end();
      };
      res.on('close', () => gz.destroy());
      pump();
    });
    expect((await failure(fetcher().fetch(`${s.origin}/`))).code).toBe('TOO_LARGE');
  });
});
