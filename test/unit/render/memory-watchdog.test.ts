import { describe, expect, it } from 'vitest';
import { createMemoryWatchdog } from '../../../src/render/memory-watchdog.js';
import type { ProcessInfo } from '../../../src/render/process-tree.js';
import { processTree } from '../../../src/render/process-tree.js';

const MB = 1024 * 1024;

describe('render tab memory watchdog', () => {
  it('kills only renderer processes above the cap', () => {
    const killed: number[] = [];
    const tree: ProcessInfo[] = [
      { pid: 1, ppid: 0, rss: 900 * MB, type: 'browser' },
      { pid: 2, ppid: 1, rss: 700 * MB, type: 'gpu-process' },
      { pid: 3, ppid: 1, rss: 100 * MB, type: 'renderer' },
      { pid: 4, ppid: 1, rss: 600 * MB, type: 'renderer' },
    ];
    const dog = createMemoryWatchdog({
      browserPid: () => 1,
      maxRendererBytes: 512 * MB,
      list: () => tree,
      kill: (pid) => killed.push(pid),
    });
    dog.check();
    expect(killed).toEqual([4]);
  });

  it('does nothing while no browser runs', () => {
    const killed: number[] = [];
    const dog = createMemoryWatchdog({
      browserPid: () => null,
      maxRendererBytes: 1,
      list: () => [{ pid: 9, ppid: 1, rss: 999 * MB, type: 'renderer' }],
      kill: (pid) => killed.push(pid),
    });
    dog.check();
    expect(killed).toEqual([]);
  });

  it('reads this process from /proc (Linux)', () => {
    const tree = processTree(process.pid);
    if (tree.length === 0) return; // no /proc here
    expect(tree[0]).toMatchObject({ pid: process.pid, type: 'browser' });
    expect(tree[0]?.rss).toBeGreaterThan(10 * MB);
  });
});
