import { getDomain } from 'tldts';

/** Registrable domain (eTLD+1) of a host; the host itself for IPs and bare names. */
export function siteOf(hostname: string): string {
  return getDomain(hostname, { allowPrivateDomains: true }) ?? hostname;
}
