import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../src/errors.js';
import { canonicalizeRequestUrl, parseHttpUrl } from '../../../src/fetch/url.js';

function invalid(raw: string, opts?: { allowPrivateTargets?: string[] }): ServiceError {
  try {
    canonicalizeRequestUrl(raw, opts);
  } catch (err) {
    if (err instanceof ServiceError) return err;
    throw err;
  }
  throw new Error(`expected ${raw} to be refused`);
}

describe('canonical form', () => {
  it.each([
    ['HTTP://Example.COM/Path', 'http://example.com/Path'],
    ['http://example.com:80/', 'http://example.com/'],
    ['https://example.com:443/a', 'https://example.com/a'],
    ['https://example.com:8443/a', 'https://example.com:8443/a'],
    ['http://example.com/a#section', 'http://example.com/a'],
    ['http://example.com./a', 'http://example.com/a'],
    ['http://bücher.de/', 'http://xn--bcher-kva.de/'],
    ['http://EXAMPLE.com', 'http://example.com/'],
    ['  https://example.com/x?y=1  ', 'https://example.com/x?y=1'],
    ['http://example.com/a b', 'http://example.com/a%20b'],
    ['http://example.com/./a/../b', 'http://example.com/b'],
    ['http://8.8.8.8/', 'http://8.8.8.8/'],
    ['http://[2606:4700:4700::1111]/', 'http://[2606:4700:4700::1111]/'],
    ['http://[64:ff9b::808:808]/', 'http://[64:ff9b::808:808]/'],
    ['http://134744072/', 'http://8.8.8.8/'],
    ['http://site.test:8080/', 'http://site.test:8080/'],
  ])('%s → %s', (raw, expected) => {
    expect(canonicalizeRequestUrl(raw)).toBe(expected);
  });
});

describe('code-host blob → raw rewrites', () => {
  it.each([
    ['https://github.com/nodejs/undici/blob/main/README.md', 'https://raw.githubusercontent.com/nodejs/undici/main/README.md'],
    ['https://github.com/o/r/blob/v1.2.3/docs/a/b.md?plain=1#L10', 'https://raw.githubusercontent.com/o/r/v1.2.3/docs/a/b.md'],
    ['https://www.github.com/o/r/blob/abc123/x.py', 'https://raw.githubusercontent.com/o/r/abc123/x.py'],
    ['https://gist.github.com/user/0123456789abcdef', 'https://gist.githubusercontent.com/user/0123456789abcdef/raw'],
    ['https://gist.github.com/user/0123456789abcdef/a1b2c3', 'https://gist.githubusercontent.com/user/0123456789abcdef/raw/a1b2c3'],
    ['https://gitlab.com/group/project/-/blob/main/README.md', 'https://gitlab.com/group/project/-/raw/main/README.md'],
    ['https://gitlab.com/g/sub/p/-/blob/dev/src/a.ts', 'https://gitlab.com/g/sub/p/-/raw/dev/src/a.ts'],
    ['https://gitlab.example.org/g/p/-/blob/main/x.md', 'https://gitlab.example.org/g/p/-/raw/main/x.md'],
    ['https://bitbucket.org/ws/repo/src/main/README.md', 'https://bitbucket.org/ws/repo/raw/main/README.md'],
    [
      'https://codeberg.org/forgejo/forgejo/src/branch/forgejo/README.md',
      'https://codeberg.org/forgejo/forgejo/raw/branch/forgejo/README.md',
    ],
    ['https://codeberg.org/o/r/src/commit/abc123/a/b.txt', 'https://codeberg.org/o/r/raw/commit/abc123/a/b.txt'],
    ['https://codeberg.org/o/r/src/tag/v1/a.txt', 'https://codeberg.org/o/r/raw/tag/v1/a.txt'],
    ['https://gitea.com/o/r/src/branch/main/a.md', 'https://gitea.com/o/r/raw/branch/main/a.md'],
  ])('%s', (raw, expected) => {
    expect(canonicalizeRequestUrl(raw)).toBe(expected);
  });

  it.each([
    'https://github.com/o/r',
    'https://github.com/o/r/tree/main/docs',
    'https://github.com/o/r/blob/main',
    'https://github.com/o/r/issues/1',
    'https://gitlab.com/g/p/-/tree/main/docs',
    'https://bitbucket.org/ws/repo/src/main/',
    'https://codeberg.org/o/r/src/branch/main',
    'https://example.com/o/r/blob/main/a.md',
    'https://example.com/g/p/-/blob/main/a.md',
    'https://gist.github.com/user',
  ])('%s is left alone', (raw) => {
    expect(canonicalizeRequestUrl(raw)).toBe(new URL(raw).href.replace(/#.*$/, ''));
  });
});

describe('refusals', () => {
  it.each([
    ['', /empty/],
    ['not a url', /could not be parsed/],
    ['//example.com/', /could not be parsed/],
    ['ftp://example.com/', /scheme ftp/],
    ['file:///etc/passwd', /scheme file/],
    ['javascript:alert(1)', /scheme javascript/],
    ['data:text/html,hi', /scheme data/],
    ['ws://example.com/', /scheme ws/],
    ['http://user:pass@example.com/', /credentials/],
    ['http://user@example.com/', /credentials/],
    ['http://:pass@example.com/', /credentials/],
    ['http://example.com:99999/', /could not be parsed/],
    ['http://exa mple.com/', /could not be parsed/],
    ['http://[::1/', /could not be parsed/],
    [`http://example.com/${'a'.repeat(9000)}`, /longer than/],
    ['http://localhost/', /private or internal/],
    ['http://svc.internal/', /private or internal/],
    ['http://10.0.0.1/', /not a public address \(private\)/],
  ])('%s', (raw, message) => {
    const err = invalid(raw);
    expect(err.code).toBe('INVALID_URL');
    expect(err.status).toBe(400);
    expect(err.message).toMatch(message);
  });

  it('a private code-host rewrite target is still checked', () => {
    expect(invalid('http://localhost/o/r/blob/main/a.md').code).toBe('INVALID_URL');
  });

  it('the allow-list opens exactly the listed targets', () => {
    expect(canonicalizeRequestUrl('http://127.0.0.1:3000/x', { allowPrivateTargets: ['127.0.0.1/32'] })).toBe('http://127.0.0.1:3000/x');
    expect(canonicalizeRequestUrl('http://localhost:3000/', { allowPrivateTargets: ['localhost:3000'] })).toBe('http://localhost:3000/');
    expect(invalid('http://localhost:3001/', { allowPrivateTargets: ['localhost:3000'] }).code).toBe('INVALID_URL');
    expect(invalid('http://10.0.0.1/', { allowPrivateTargets: ['127.0.0.1/32'] }).code).toBe('INVALID_URL');
  });

  it('parseHttpUrl resolves relative redirects against a base', () => {
    expect(parseHttpUrl('/b?c', 'http://example.com/a/x').href).toBe('http://example.com/b?c');
    expect(parseHttpUrl('//other.example/x', 'https://example.com/').href).toBe('https://other.example/x');
  });
});
