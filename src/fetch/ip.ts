import { isIPv4, isIPv6 } from 'node:net';

/** An IP address as bytes: 4 for IPv4, 16 for IPv6. */
export interface IpAddress {
  family: 4 | 6;
  bytes: Uint8Array;
}

/** Parses a literal IPv4/IPv6 address (brackets and zone ids allowed); null when it is not one. */
export function parseIp(raw: string): IpAddress | null {
  let s = raw.trim();
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  if (isIPv4(s)) return { family: 4, bytes: parseV4(s) };
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (!isIPv6(s)) return null;
  return { family: 6, bytes: parseV6(s) };
}

function parseV4(s: string): Uint8Array {
  return Uint8Array.from(s.split('.').map((p) => Number(p)));
}

function parseV6(s: string): Uint8Array {
  const bytes = new Uint8Array(16);
  let text = s.toLowerCase();
  const tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    const v4 = parseV4(last);
    text = `${text.slice(0, lastColon + 1)}0:0`;
    for (const part of v4) tail.push(part);
  }
  const [head = '', rest] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const restGroups = rest === undefined || rest === '' ? [] : rest.split(':');
  const groups =
    rest === undefined
      ? headGroups
      : [...headGroups, ...new Array<string>(8 - headGroups.length - restGroups.length).fill('0'), ...restGroups];
  groups.forEach((g, i) => {
    const v = parseInt(g, 16);
    bytes[i * 2] = v >> 8;
    bytes[i * 2 + 1] = v & 0xff;
  });
  if (tail.length === 4) bytes.set(tail, 12);
  return bytes;
}

/** True when the first `prefix` bits of `a` and `b` agree. */
export function prefixMatch(a: Uint8Array, b: Uint8Array, prefix: number): boolean {
  for (let bit = 0; bit < prefix; bit += 8) {
    const left = Math.min(8, prefix - bit);
    const mask = (0xff << (8 - left)) & 0xff;
    if (((a[bit / 8] ?? 0) & mask) !== ((b[bit / 8] ?? 0) & mask)) return false;
  }
  return true;
}

export interface Cidr {
  family: 4 | 6;
  bytes: Uint8Array;
  prefix: number;
}

/** Parses `a.b.c.d/n`, `v6::/n`, or a bare address (full-length prefix); null when invalid. */
export function parseCidr(raw: string): Cidr | null {
  const [addr = '', len, extra] = raw.trim().split('/');
  if (extra !== undefined) return null;
  const ip = parseIp(addr);
  if (!ip) return null;
  const max = ip.family === 4 ? 32 : 128;
  if (len === undefined) return { ...ip, prefix: max };
  if (!/^\d{1,3}$/.test(len)) return null;
  const prefix = Number(len);
  if (prefix > max) return null;
  return { ...ip, prefix };
}

export function cidrContains(cidr: Cidr, ip: IpAddress): boolean {
  return cidr.family === ip.family && prefixMatch(cidr.bytes, ip.bytes, cidr.prefix);
}
