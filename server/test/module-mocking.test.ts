import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODULE_MOCKING_TESTS } from './module-mocking';

const root = path.resolve(import.meta.dirname, '../..');

function testFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

describe('the server projects of vitest.config.ts', () => {
  it('run every test file that mocks a module in the isolated project', () => {
    const mocking = ['server', 'common', 'scripts']
      .flatMap(testFiles)
      // The call itself, not this file's mention of it.
      .filter((file) => /^\s*vi\.mock\(/m.test(readFileSync(path.join(root, file), 'utf8')))
      .sort();
    expect(mocking.length).toBeGreaterThan(0);
    expect(mocking).toEqual([...MODULE_MOCKING_TESTS].sort());
  });
});
