import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { databaseTestFiles, usesDatabase } from './database-tests';

describe('the API suites run again on PostgreSQL', () => {
  const files = databaseTestFiles(path.resolve(import.meta.dirname, '..'));

  it('are the test files that reach a database', () => {
    expect(files).toContain('server/features/barters/barter-races.test.ts');
    expect(files).toContain('server/features/circles/circles.test.ts');
    expect(files).toContain('server/db/schema.test.ts');
    expect(files.length).toBeGreaterThan(50);
  });

  it('leave out the pure unit tests, which give the same answer on any database', () => {
    expect(files).not.toContain('server/features/circles/engine/engine.test.ts');
    expect(files).not.toContain('common/schemas/text.test.ts');
    expect(usesDatabase("const t = await buildTestApp({ SMTP_URL: 'x' });")).toBe(true);
    expect(usesDatabase('if (!process.env.DATABASE_URL) return;')).toBe(true);
    expect(usesDatabase("import { solveTrades } from './engine';")).toBe(false);
  });
});
