/**
 * The API suites again, on a real PostgreSQL server: each test file gets its own database copied
 * from a migrated template. TEST_DATABASE_URL (or DATABASE_URL) names a database to connect through.
 * Only the test files that reach a database run (scripts/database-tests.ts): pure unit tests give
 * the same answer on any database and already ran once.
 */
import { spawnSync } from 'node:child_process';
import { databaseTestFiles } from './database-tests';

const url =
  process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
console.log(`API suites on PostgreSQL via ${url.replace(/\/\/[^@]*@/, '//***@')}`);
const files = databaseTestFiles(process.cwd());
console.log(`${files.length} test files that reach a database`);
const result = spawnSync(
  'npx',
  ['vitest', 'run', '--project', 'server', '--project', 'server-isolated', ...files],
  {
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: url },
  },
);
process.exit(result.status ?? 1);
