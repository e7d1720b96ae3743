/**
 * Server test files that replace modules with `vi.mock`. The server project shares one module cache
 * per worker between test files (vitest.config.ts, `isolate: false`), where a mock would leak into
 * the files after it; these run in the isolated project instead. `module-mocking.test.ts` keeps the
 * list complete.
 */
export const MODULE_MOCKING_TESTS = ['server/features/feed/feed-rankings.test.ts'];
