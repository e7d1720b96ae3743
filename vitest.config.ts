import { availableParallelism } from 'node:os';
import { lingui } from '@lingui/vite-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { MODULE_MOCKING_TESTS, WEB_MODULE_MOCKING_TESTS } from '#server/test/module-mocking.ts';
import { linguiMacros } from './scripts/lingui-macros';

/**
 * A test's limit, there to end a hung test, not to judge speed (benchmarks do that). The slowest
 * tests (a backup and restore with an S3 bucket, a published math trade) take 11-13 s on an idle
 * machine, and the shared CI machine has run 2.5 times slower than that on a bad evening: 20 s was
 * too close.
 */
const TEST_TIMEOUT_MS = 60_000;

/** The web projects' component tests: jsdom, the app's providers and MSW (web/testing/setup.ts). */
const WEB_TESTS = {
  environment: 'jsdom' as const,
  setupFiles: ['web/testing/setup.ts'],
  // jsdom renders of whole pages take seconds on a busy 2-core machine (CI runs suites side by side).
  testTimeout: TEST_TIMEOUT_MS,
};

/** Unit and API tests run in Node; component tests in jsdom. Browser journeys live in e2e/ (Playwright). */
export default defineConfig({
  plugins: [react(), lingui(), linguiMacros()],
  test: {
    // Vitest's default is one worker fewer than the cores: one worker on CI's two cores, where the
    // files then run one after another (598 s). Much of a file's time is waiting (PostgreSQL, timers,
    // sockets), not computing: on the same two cores two workers took 398 s, three 284 s against 329 s
    // for two (2026-11-26, both cores busy 98% of the time at the median with three).
    maxWorkers: Math.max(3, availableParallelism()),
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: ['server/**/*.test.ts', 'common/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: MODULE_MOCKING_TESTS,
          environment: 'node',
          globalSetup: ['server/test/global-setup.ts'],
          setupFiles: ['server/test/setup.ts'],
          testTimeout: TEST_TIMEOUT_MS,
          hookTimeout: 60_000,
          // Test files share a worker's module cache: importing the server once per worker instead of
          // once per file saves about a third of the suite's time (each file still opens its own
          // database and app). Files that mock modules need their own cache: the project below.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'server-isolated',
          include: MODULE_MOCKING_TESTS,
          environment: 'node',
          globalSetup: ['server/test/global-setup.ts'],
          setupFiles: ['server/test/setup.ts'],
          testTimeout: TEST_TIMEOUT_MS,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          ...WEB_TESTS,
          name: 'web',
          include: ['web/**/*.test.{ts,tsx}'],
          exclude: WEB_MODULE_MOCKING_TESTS,
          // Test files share a worker's jsdom window and its loaded packages (React, Radix, MSW,
          // Testing Library); the app's own modules are let go after each file (web/testing/setup.ts).
          // A process and a window per file cost 330 s of CPU for the 94 files, against 70 s this way
          // (2026-12-04, docs/testing.md "Time").
          isolate: false,
        },
      },
      {
        extends: true,
        test: { ...WEB_TESTS, name: 'web-isolated', include: WEB_MODULE_MOCKING_TESTS },
      },
    ],
  },
});
