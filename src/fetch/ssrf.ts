import type { Cidr, IpAddress } from './ip.js';
import { cidrContains, parseCidr, parseIp } from './ip.js';

/**
 * Which addresses a fetch may connect to. Everything in the IANA IPv4 and IPv6
 * special-purpose registries is refused, plus multicast and everything outside IPv6
 * global unicast (2000::/3). NAT64 (64:ff9b::/96) and 6to4 (2002::/16) are judged by the
 * IPv4 address they embed. IPv4-mapped and IPv4-compatible IPv6 are always refused: a
 * public name has no business resolving to them.
 */
const V4_BLOCKS: Array<[string, string]> = [
  ['0.0.0.0/8', 'this-network'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'shared-cgnat'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'ietf-protocol-assignments'],
  ['192.0.2.0/24', 'documentation'],
  ['192.31.196.0/24', 'as112'],
  ['192.52.193.0/24', 'amt'],
  ['192.88.99.0/24', '6to4-relay-anycast'],
  ['192.168.0.0/16', 'private'],
  ['192.175.48.0/24', 'as112-direct-delegation'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
  ['255.255.255.255/32', 'broadcast'],
];

const V6_BLOCKS: Array<[string, string]> = [
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['::ffff:0:0/96', 'ipv4-mapped'],
  ['::/96', 'ipv4-compatible'],
  ['::ffff:0:0:0/96', 'ipv4-translated'],
  ['64:ff9b:1::/48', 'nat64-local-use'],
  ['100::/64', 'discard-only'],
  ['100:0:0:1::/64', 'dummy-prefix'],
  ['2001::/23', 'ietf-protocol-assignments'],
  ['2001:db8::/32', 'documentation'],
  ['2620:4f:8000::/48', 'as112'],
  ['3fff::/20', 'documentation'],
  ['5f00::/16', 'srv6-sid'],
  ['fc00::/7', 'unique-local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local'],
  ['ff00::/8', 'multicast'],
];

function compile(list: Array<[string, string]>): Array<{ cidr: Cidr; label: string }> {
  return list.map(([c, label]) => {
    const cidr = parseCidr(c);
    if (!cidr) throw new Error(`bad built-in CIDR ${c}`);
    return { cidr, label };
  });
}

const V4 = compile(V4_BLOCKS);
const V6 = compile(V6_BLOCKS);
const NAT64 = parseCidr('64:ff9b::/96') as Cidr;
const SIX_TO_FOUR = parseCidr('2002::/16') as Cidr;
const GLOBAL_UNICAST = parseCidr('2000::/3') as Cidr;

/** Why an address is not public (a short label), or null when it is public. */
export function nonPublicReason(ip: IpAddress): string | null {
  if (ip.family === 4) return V4.find((b) => cidrContains(b.cidr, ip))?.label ?? null;
  if (cidrContains(NAT64, ip)) return embedded('nat64', ip.bytes.subarray(12, 16));
  if (cidrContains(SIX_TO_FOUR, ip)) return embedded('6to4', ip.bytes.subarray(2, 6));
  const hit = V6.find((b) => cidrContains(b.cidr, ip));
  if (hit) return hit.label;
  return cidrContains(GLOBAL_UNICAST, ip) ? null : 'not-global-unicast';
}

function embedded(kind: string, v4: Uint8Array): string | null {
  const inner = nonPublicReason({ family: 4, bytes: Uint8Array.from(v4) });
  return inner === null ? null : `${kind}-embedding-${inner}`;
}

/** Convenience: true only for a literal address that is public. */
export function isPublicAddress(address: string): boolean {
  const ip = parseIp(address);
  return ip !== null && nonPublicReason(ip) === null;
}

/** The test-only escape hatch (`ALLOW_PRIVATE_TARGETS`): CIDRs, or `host:port` pairs. */
export interface AllowList {
  cidrs: Cidr[];
  /** `host:port` with host lower-case (IPv6 without brackets, in canonical bytes form). */
  hostPorts: Array<{ host: string; ip: IpAddress | null; port: number }>;
  entries: string[];
}

export function parseAllowList(entries: readonly string[]): AllowList {
  const list: AllowList = { cidrs: [], hostPorts: [], entries: [...entries] };
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === '') continue;
    const cidr = entry.includes('/') || parseIp(entry) ? parseCidr(entry) : null;
    if (cidr) {
      list.cidrs.push(cidr);
      continue;
    }
    const m = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(entry);
    const port = m ? Number(m[2]) : NaN;
    if (!m || port < 1 || port > 65535) {
      throw new Error(`ALLOW_PRIVATE_TARGETS entry "${entry}" is neither a CIDR nor host:port`);
    }
    const host = (m[1] ?? '').toLowerCase().replace(/^\[|\]$/g, '');
    list.hostPorts.push({ host, ip: parseIp(host), port });
  }
  return list;
}

/**
 * True when the escape hatch lets this connection through: the address is inside an
 * allowed CIDR, or (host or address) and port match a `host:port` entry.
 */
export function isAllowedPrivate(list: AllowList, target: { host: string; port: number; address?: IpAddress | null }): boolean {
  const host = target.host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  const hostIp = parseIp(host);
  const ips = [target.address ?? null, hostIp].filter((x): x is IpAddress => x !== null);
  if (ips.length > 0 && list.cidrs.some((c) => ips.every((ip) => cidrContains(c, ip)))) return true;
  return list.hostPorts.some((hp) => {
    if (hp.port !== target.port) return false;
    if (hp.ip) return ips.length > 0 && ips.every((ip) => sameIp(ip, hp.ip as IpAddress));
    return hp.host === host;
  });
}

function sameIp(a: IpAddress, b: IpAddress): boolean {
  return a.family === b.family && a.bytes.every((v, i) => v === b.bytes[i]);
}
