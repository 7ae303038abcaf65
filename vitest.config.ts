import { defineConfig } from 'vitest/config';

/**
 * Tests that measure the machine (event-loop latency while hostile pages are read, memory
 * and 503s under overload) run alone, after everything else: next to the chaos test's three
 * server processes on a 2-core machine they would measure the neighbours. The chaos and
 * multi-instance tests run last, one at a time, for the same reason in reverse.
 */
const MEASURING = ['test/e2e/hostile.test.ts'];
const CHAOS = ['test/store/chaos.test.ts'];
const MULTI_INSTANCE = ['test/store/multi-instance.test.ts'];

const shared = { testTimeout: 30_000, hookTimeout: 30_000 };

export default defineConfig({
  test: {
    // e2e tests start real servers; keep file parallelism modest on 2-core machines
    maxWorkers: 2,
    minWorkers: 1,
    ...shared,
    projects: [
      {
        test: {
          name: 'main',
          include: ['test/**/*.test.ts'],
          exclude: [...MEASURING, ...CHAOS, ...MULTI_INSTANCE],
          ...shared,
          sequence: { groupOrder: 0 },
        },
      },
      // one file per group: a group runs alone, after the groups before it
      { test: { name: 'measuring', include: MEASURING, ...shared, sequence: { groupOrder: 1 } } },
      { test: { name: 'chaos', include: CHAOS, ...shared, sequence: { groupOrder: 2 } } },
      { test: { name: 'multi-instance', include: MULTI_INSTANCE, ...shared, sequence: { groupOrder: 3 } } },
    ],
  },
});
