import { ServiceError } from '../errors.js';

/**
 * INTERIM (owned by the fetcher work, issue 4): validates a request URL and returns its
 * canonical form. Full host checks and code-host rewrites replace this.
 */
export function canonicalizeRequestUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ServiceError('INVALID_URL', 'the URL could not be parsed');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ServiceError('INVALID_URL', `scheme ${url.protocol.replace(':', '')} is not allowed; use http or https`);
  }
  url.hash = '';
  return url.href;
}
