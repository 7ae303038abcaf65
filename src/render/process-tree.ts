import { readdirSync, readFileSync } from 'node:fs';

/**
 * The browser's processes, read from /proc (Linux): the browser found once by a marker
 * switch on its command line, then its descendants by parent pid. Used by the tab memory
 * watchdog and by bench/render.ts (peak RSS). Elsewhere (no /proc) everything is empty.
 */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** Resident set size, bytes. */
  rss: number;
  /** Chromium's `--type=` (renderer, gpu-process, utility, zygote…), or 'browser'. */
  type: string;
}

const PAGE_SIZE = 4096;

/** The pid of the process whose command line holds `marker` and has no `--type=` (the browser), or null. */
export function findBrowserPid(marker: string): number | null {
  for (const pid of listPids()) {
    const cmdline = readText(`/proc/${pid}/cmdline`);
    if (cmdline?.includes(marker) && !cmdline.includes('--type=')) return pid;
  }
  return null;
}

/** `root` and all its descendants (one stat read per process on the machine, cmdlines only for the tree). */
export function processTree(root: number): ProcessInfo[] {
  const parent = new Map<number, number>();
  for (const pid of listPids()) {
    const stat = readText(`/proc/${pid}/stat`);
    // the command name is in parentheses and may hold spaces: fields follow the last ')'
    if (stat !== null) parent.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
  }
  if (!parent.has(root)) return [];
  const inTree = new Set<number>([root]);
  // trees are shallow (browser → zygote → renderer): repeat until no new child joins
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of parent) {
      if (!inTree.has(pid) && inTree.has(ppid)) {
        inTree.add(pid);
        grew = true;
      }
    }
  }
  return [...inTree].map((pid) => ({
    pid,
    ppid: parent.get(pid) ?? 0,
    rss: residentBytes(pid),
    type: processType(readText(`/proc/${pid}/cmdline`) ?? ''),
  }));
}

function listPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((name) => name.charCodeAt(0) >= 48 && name.charCodeAt(0) <= 57)
      .map(Number);
  } catch {
    return [];
  }
}

export function residentBytes(pid: number): number {
  const statm = readText(`/proc/${pid}/statm`);
  if (statm === null) return 0;
  return Number(statm.split(' ')[1] ?? 0) * PAGE_SIZE;
}

/** Proportional set size (shared pages split between their users), bytes; 0 when unreadable. */
export function proportionalBytes(pid: number): number {
  const rollup = readText(`/proc/${pid}/smaps_rollup`);
  if (rollup === null) return 0;
  const line = rollup.split('\n').find((l) => l.startsWith('Pss:'));
  return line ? Number(line.replace(/\D+/g, ' ').trim().split(' ')[0] ?? 0) * 1024 : 0;
}

function processType(cmdline: string): string {
  const at = cmdline.indexOf('--type=');
  if (at < 0) return 'browser';
  // children rewrite their title: arguments end at a NUL or, after the rewrite, a space
  let end = at + 7;
  while (end < cmdline.length && cmdline.charCodeAt(end) !== 0 && cmdline.charCodeAt(end) !== 32) end++;
  return cmdline.slice(at + 7, end);
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return null;
  }
}
