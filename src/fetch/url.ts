import { ServiceError } from '../errors.js';
import { rewriteCodeHostUrl } from './code-hosts.js';
import { parseIp } from './ip.js';
import type { AllowList } from './ssrf.js';
import { isAllowedPrivate, nonPublicReason, parseAllowList } from './ssrf.js';

/** Longer URLs are refused outright; no real page needs more. */
export const MAX_URL_LENGTH = 8192;

/**
 * Names that never lead to a public host: RFC 6761/6762 special-use names, the
 * ICANN-reserved `internal`, and TLDs commonly used for private networks. Dotless names
 * are refused too (they resolve through search domains, i.e. internally).
 */
const INTERNAL_SUFFIXES = [
  'localhost',
  'local',
  'internal',
  'intranet',
  'lan',
  'home',
  'corp',
  'private',
  'localdomain',
  'home.arpa',
  'arpa',
  'onion',
];

export interface UrlCheckOptions {
  allowPrivateTargets?: readonly string[];
}

const NO_ALLOWANCES: readonly string[] = [];

interface PolicyState {
  allow: AllowList;
  /** raw URL → canonical URL, for URLs that passed; the same few URLs recur under load. */
  accepted: Map<string, string>;
}
const policies = new WeakMap<readonly string[], PolicyState>();
const MAX_REMEMBERED = 1024;
const MAX_REMEMBERED_LENGTH = 2048;

/** The config's list is one array for the life of the process: parse it once, not per request. */
function policyFor(entries: readonly string[]): PolicyState {
  let state = policies.get(entries);
  if (!state) {
    state = { allow: parseAllowList(entries), accepted: new Map() };
    policies.set(entries, state);
  }
  return state;
}

/**
 * Validates a request URL and returns its canonical form: http/https only, no
 * credentials, lower-case punycode host without trailing dot, no default port, no
 * fragment; code-host blob pages rewritten to raw content. Hosts that are literally
 * private or internal (any IP spelling the WHATWG parser accepts, `localhost`,
 * `*.internal`, …) are refused unless the escape hatch allows them.
 * Throws ServiceError INVALID_URL.
 */
export function canonicalizeRequestUrl(raw: string, opts: UrlCheckOptions = {}): string {
  const policy = policyFor(opts.allowPrivateTargets ?? NO_ALLOWANCES);
  const known = typeof raw === 'string' ? policy.accepted.get(raw) : undefined;
  if (known !== undefined) return known;
  const url = parseHttpUrl(raw);
  const rewritten = rewriteCodeHostUrl(url) ?? url;
  assertPublicHostLiteral(rewritten, policy.allow);
  const canonical = rewritten.href;
  // A pure function of (raw, allow-list): remembering accepted URLs skips the parse on repeats.
  if (raw.length <= MAX_REMEMBERED_LENGTH) {
    if (policy.accepted.size >= MAX_REMEMBERED) policy.accepted.clear();
    policy.accepted.set(raw, canonical);
  }
  return canonical;
}

/** Parses and normalises an http(s) URL (no host policy); throws INVALID_URL. */
export function parseHttpUrl(raw: string, base?: string): URL {
  if (typeof raw !== 'string' || raw.length === 0) throw invalid('the URL is empty');
  if (raw.length > MAX_URL_LENGTH) throw invalid(`the URL is longer than ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw.trim(), base);
  } catch {
    throw invalid('the URL could not be parsed');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid(`scheme ${url.protocol.replace(/:$/, '')} is not allowed; use http or https`);
  }
  if (url.username !== '' || url.password !== '') throw invalid('URLs with credentials are not allowed');
  if (url.hostname === '') throw invalid('the URL has no host');
  if (url.hostname.endsWith('.') && !url.hostname.startsWith('[')) {
    let end = url.hostname.length;
    while (end > 0 && url.hostname[end - 1] === '.') end--;
    const trimmed = url.hostname.slice(0, end);
    if (trimmed === '') throw invalid('the URL has no host');
    url.hostname = trimmed;
  }
  url.hash = '';
  return url;
}

/** Default port of the URL's scheme when none is given. */
export function urlPort(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/**
 * Refuses a URL whose host is literally non-public (IP literal in a special-purpose
 * range, internal name, dotless name) unless the allow-list lets it through. The
 * resolved address is checked again at connect time.
 */
export function assertPublicHostLiteral(url: URL, allow: AllowList): void {
  const host = url.hostname;
  const port = urlPort(url);
  const ip = parseIp(host);
  if (ip) {
    const reason = nonPublicReason(ip);
    if (reason && !isAllowedPrivate(allow, { host, port, address: ip })) {
      throw invalid(`the host is not a public address (${reason})`);
    }
    return;
  }
  const internal = !host.includes('.') || INTERNAL_SUFFIXES.some((s) => host === s || host.endsWith(`.${s}`));
  if (internal && !isAllowedPrivate(allow, { host, port })) {
    throw invalid('the host is private or internal');
  }
}

function invalid(message: string): ServiceError {
  return new ServiceError('INVALID_URL', message);
}
