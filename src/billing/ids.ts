/**
 * Ids minted on every request (request, slot, charge): a random 64-bit instance part drawn
 * once plus a counter, so the hot path makes no entropy syscall (bench/server.ts). Unique
 * across instances sharing a store; not secrets (API keys use full randomness).
 */
export function createIdFactory(randomBytes: (n: number) => Buffer): (prefix: string) => string {
  const instance = randomBytes(8).toString('hex');
  let counter = 0;
  return (prefix) => {
    counter = (counter + 1) % 0x1_0000_0000;
    return `${prefix}_${instance}${counter.toString(16).padStart(8, '0')}`;
  };
}
