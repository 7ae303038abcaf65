/**
 * Ids minted on every request (request, slot, charge): a random 64-bit instance part plus a
 * 32-bit counter, so the hot path makes no entropy syscall (bench/server.ts). Unique across
 * instances sharing a store; not secrets (API keys use full randomness).
 *
 * When the counter wraps (after 2^32 ids in one process) the instance part is drawn again,
 * so an id never repeats within a process: a repeat would make a new charge collide with an
 * old ledger row and fail the call.
 */
export function createIdFactory(randomBytes: (n: number) => Buffer, options: { startCounter?: number } = {}): (prefix: string) => string {
  let instance = randomBytes(8).toString('hex');
  let counter = options.startCounter ?? 0;
  return (prefix) => {
    counter = (counter + 1) % 0x1_0000_0000;
    if (counter === 0) {
      instance = randomBytes(8).toString('hex');
      counter = 1;
    }
    return `${prefix}_${instance}${counter.toString(16).padStart(8, '0')}`;
  };
}
