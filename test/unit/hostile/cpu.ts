/**
 * CPU time of a piece of work, for hostile-input tests. CPU time (user + system of this
 * process) rather than wall time, so other processes on a loaded machine do not count;
 * the bounds asserted with it are ~10x the measured time, so only a super-linear blow-up
 * or a stall breaks them.
 */
export function cpuMs(work: () => unknown): number {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

export async function cpuMsAsync(work: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  await work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

export const MB = 1024 * 1024;

/** `unit` repeated until the string is `size` characters long (the last copy cut short). */
export function fill(unit: string, size: number, prefix = '', suffix = ''): string {
  const room = size - prefix.length - suffix.length;
  return prefix + unit.repeat(Math.ceil(room / unit.length)).slice(0, room) + suffix;
}
