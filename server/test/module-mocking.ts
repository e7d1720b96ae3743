/**
 * Test files that replace modules with `vi.mock`. The server and web projects share one module cache
 * per worker between test files (vitest.config.ts, `isolate: false`), where a mock would leak into
 * the files after it; these run in the isolated projects instead. `module-mocking.test.ts` keeps the
 * lists complete.
 */
export const MODULE_MOCKING_TESTS = ['server/features/feed/feed-rankings.test.ts'];

/** The web project's (jsdom) files that mock a module. */
export const WEB_MODULE_MOCKING_TESTS = [
  'web/components/ui/deferred-menu.test.tsx',
  'web/features/listings/components/item-form-photo-analysis.test.tsx',
  'web/features/listings/components/item-form-photo-upload.test.tsx',
  'web/features/listings/components/item-form-photos.test.tsx',
];
