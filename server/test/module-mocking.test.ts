import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODULE_MOCKING_TESTS, WEB_MODULE_MOCKING_TESTS } from './module-mocking';

const root = path.resolve(import.meta.dirname, '../..');

function testFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

/** The files under `dirs` that call `vi.mock` (the call itself, not this file's mention of it). */
function mockingFiles(dirs: string[]): string[] {
  return dirs
    .flatMap(testFiles)
    .filter((file) => /^\s*vi\.mock\(/m.test(readFileSync(path.join(root, file), 'utf8')))
    .sort();
}

describe('the projects of vitest.config.ts', () => {
  it('run every server test file that mocks a module in the isolated server project', () => {
    const mocking = mockingFiles(['server', 'common', 'scripts']);
    expect(mocking.length).toBeGreaterThan(0);
    expect(mocking).toEqual([...MODULE_MOCKING_TESTS].sort());
  });

  it('run every web test file that mocks a module in the isolated web project', () => {
    const mocking = mockingFiles(['web']);
    expect(mocking.length).toBeGreaterThan(0);
    expect(mocking).toEqual([...WEB_MODULE_MOCKING_TESTS].sort());
  });
});
