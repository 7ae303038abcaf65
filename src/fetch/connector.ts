import { isIP } from 'node:net';
import { buildConnector } from 'undici';
import { ServiceError } from '../errors.js';
import { parseIp } from './ip.js';
import { isAllowedPrivate, nonPublicReason, type AllowList } from './ssrf.js';
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

/**
 * The SSRF seam (STYLE §2): resolve the host once, refuse the connection when any
 * resolved address is non-public (unless the escape hatch allows it), then dial exactly
 * the first checked address. The original name stays as `host`, so TLS SNI and
 * certificate checks use it; no second lookup ever happens, so DNS rebinding cannot
 * swap the address between check and connect.
 */
export function createGuardedConnector(opts: GuardedConnectorOptions): Connector {
  const dial = opts.dial ?? buildConnector({ timeout: opts.connectTimeoutMs ?? 10_000 });
  return (options, callback) => {
    const host = options.hostname.replace(/^\[|\]$/g, '');
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    const lookup = boundedLookup(opts.lookup, opts.connectTimeoutMs ?? 10_000);
    resolveChecked(host, port, lookup, opts.allow).then(
      (address) => {
        const servername = isIP(host) ? undefined : (options.servername ?? host);
        dial({ ...options, hostname: address, ...(servername ? { servername } : {}) }, callback);
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

/** Resolves (or parses a literal), checks every address, returns the one to dial. */
export async function resolveChecked(host: string, port: number, lookup: LookupFn, allow: AllowList): Promise<string> {
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
  return (addresses[0] as { address: string }).address;
}
