import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** What a test file that reaches a database uses: the test app, the test database, or a client. */
const USES_DATABASE = /\b(buildTestApp|openTestDatabase|openPglite|openPostgres|DATABASE_URL)\b/;

/** Does this test file's source reach a database? (Pure unit tests give the same answer anywhere.) */
export function usesDatabase(source: string): boolean {
  return USES_DATABASE.test(source);
}

/**
 * The server project's test files that reach a database, relative to `root`: the API suites that run
 * again on PostgreSQL. The others (the trade engine, OCR, moderation corpus, schemas...) do not
 * depend on the database, and one run of them is enough.
 */
export function databaseTestFiles(root: string): string[] {
  return ['server', 'common', 'scripts']
    .flatMap((dir) =>
      readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
        .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
        .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name))),
    )
    .filter((file) => usesDatabase(readFileSync(path.join(root, file), 'utf8')))
    .sort();
}
