import { isIP } from 'node:net';
import { buildConnector } from 'undici';
import { ServiceError } from '../errors.js';
import { parseIp } from './ip.js';
import type { AllowList } from './ssrf.js';
import { isAllowedPrivate, nonPublicReason } from './ssrf.js';
import type { LookupFn } from './types.js';

/** undici's connector function type. */
export type Connector = buildConnector.connector;

export interface GuardedConnectorOptions {
  lookup: LookupFn;
  allow: AllowList;
  /** The connector that actually dials; default undici's. Tests pass a spy. */
  dial?: Connector;
  /** Connect (TCP + TLS) time-out handed to undici's connector. */
  connectTimeoutMs?: number;
}

/** A DNS failure, with the same `code` shape as Node's resolver errors. */
export class LookupError extends Error {
  override name = 'LookupError';
  constructor(
    readonly code: string,
    hostname: string,
  ) {
    super(`lookup of ${hostname} failed: ${code}`);
  }
}

/** At most this many of the resolved addresses are tried, in resolver order. */
export const MAX_DIAL_ATTEMPTS = 4;
/** Connect time-out of an attempt that still has another address to fall back to. */
export const FALLBACK_CONNECT_TIMEOUT_MS = 3_000;
/** Failures that belong to the address, not to the request: the next address may work. */
const ADDRESS_FAILURES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * The SSRF seam (STYLE §2): resolve the host once, refuse the connection when any
 * resolved address is non-public (unless the escape hatch allows it), then dial only
 * checked addresses: the first, and on a refused, unreachable or timed-out connect the
 * next ones (up to MAX_DIAL_ATTEMPTS; a dual-stack host whose IPv6 route is down still
 * loads over IPv4). The original name stays as `host`, so TLS SNI and certificate checks
 * use it; no second lookup ever happens, so DNS rebinding cannot swap the address between
 * check and connect.
 */
export function createGuardedConnector(opts: GuardedConnectorOptions): Connector {
  const timeout = opts.connectTimeoutMs ?? 10_000;
  const dial = opts.dial ?? buildConnector({ timeout });
  // Not the last address: give up sooner, so a black-holed address leaves time for the next.
  const fallbackDial = opts.dial ?? buildConnector({ timeout: Math.min(FALLBACK_CONNECT_TIMEOUT_MS, timeout) });
  return (options, callback) => {
    const host = options.hostname.replace(/^\[|\]$/g, '');
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    const lookup = boundedLookup(opts.lookup, timeout);
    resolveChecked(host, port, lookup, opts.allow).then(
      (addresses) => {
        const servername = isIP(host) ? undefined : (options.servername ?? host);
        const candidates = addresses.slice(0, MAX_DIAL_ATTEMPTS);
        const attempt = (i: number): void => {
          const last = i === candidates.length - 1;
          const connect = last ? dial : fallbackDial;
          connect({ ...options, hostname: candidates[i] as string, ...(servername ? { servername } : {}) }, (err, socket) => {
            if (err && !last && ADDRESS_FAILURES.has((err as NodeJS.ErrnoException).code ?? '')) attempt(i + 1);
            else if (err) callback(err, null);
            else callback(null, socket);
          });
        };
        attempt(0);
      },
      (err: Error) => callback(err, null),
    );
  };
}

/** A lookup that gives up after `ms` (so a hung resolver cannot pin a connection slot). */
function boundedLookup(lookup: LookupFn, ms: number): LookupFn {
  return (hostname) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new LookupError('ETIMEOUT', hostname)), ms);
      lookup(hostname).then(
        (v) => {
          clearTimeout(timer);
          resolve(v);
        },
        (e: unknown) => {
          clearTimeout(timer);
          reject(e);
        },
      );
    });
}

/** Resolves (or parses a literal), checks every address, returns them (deduplicated) to dial in order. */
export async function resolveChecked(host: string, port: number, lookup: LookupFn, allow: AllowList): Promise<string[]> {
  const literal = parseIp(host);
  const addresses = literal ? [{ address: host, family: literal.family }] : await lookup(host);
  if (addresses.length === 0) throw new LookupError('ENOTFOUND', host);
  for (const { address } of addresses) {
    const ip = parseIp(address);
    const reason = ip ? nonPublicReason(ip) : 'unparsable-address';
    if (reason !== null && !isAllowedPrivate(allow, { host, port, address: ip })) {
      throw new ServiceError('INVALID_URL', `the host resolves to a non-public address (${reason})`);
    }
  }
  return [...new Set(addresses.map((a) => a.address))];
}
