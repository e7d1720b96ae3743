import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfigFromFile } from 'vite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILD_OUTPUTS, BUILD_SOURCES, buildState } from './web-build';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Seconds since the epoch, as utimes takes them: an hour ago, the clock for the files' changes. */
const T0 = Math.floor(Date.now() / 1000) - 3600;

describe('buildState: when npm start builds (issue 27, ADR 053)', () => {
  let root: string;
  /** Write `file` under the root, changed at T0 + `at` seconds. */
  const write = (file: string, at: number) => {
    const full = path.join(root, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, file);
    utimesSync(full, T0 + at, T0 + at);
    // Its directories as they were: only the file is new.
    for (let dir = path.dirname(full); dir.startsWith(root) && dir !== root; dir = path.dirname(dir))
      utimesSync(dir, T0, T0);
  };

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'bh-web-build-'));
    write('web/main.tsx', 0);
    write('web/app/pages/home-page.tsx', 0);
    write('common/constants.ts', 0);
    write('vite.config.ts', 0);
    write('package-lock.json', 0);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('never built: missing', () => {
    expect(buildState(root)).toBe('missing');
  });

  it("only the browser's app built (what npm start made before): missing, so both are built", () => {
    write('dist/web/index.html', 10);
    expect(buildState(root)).toBe('missing');
  });

  it('both built after every source: fresh', () => {
    write('dist/web/index.html', 10);
    write('dist/server/entry-server.js', 11);
    expect(buildState(root)).toBe('fresh');
  });

  it.each([
    ['a page of the web app', 'web/app/pages/home-page.tsx'],
    ['a shared module', 'common/constants.ts'],
    ['the build configuration', 'vite.config.ts'],
    ['the installed packages', 'package-lock.json'],
  ])('%s changed after the build: stale', (_what, file) => {
    write('dist/web/index.html', 10);
    write('dist/server/entry-server.js', 11);
    write(file, 20);
    expect(buildState(root)).toBe('stale');
  });

  it('a source changed between the two builds counts against the older one: stale', () => {
    write('dist/web/index.html', 10);
    write('web/main.tsx', 15);
    write('dist/server/entry-server.js', 20);
    expect(buildState(root)).toBe('stale');
  });

  it('a file removed from the web app (its directory changed): stale', () => {
    write('dist/web/index.html', 10);
    write('dist/server/entry-server.js', 11);
    rmSync(path.join(root, 'web/app/pages/home-page.tsx'));
    // The removal changes the directory now, well after T0 + 11.
    expect(buildState(root)).toBe('stale');
  });

  it('a test file alone is no part of the build: fresh', () => {
    write('web/app/pages/home-page.test.tsx', 0);
    write('dist/web/index.html', 10);
    write('dist/server/entry-server.js', 11);
    write('web/app/pages/home-page.test.tsx', 20);
    expect(buildState(root)).toBe('fresh');
  });

  it('every local file the build configuration loads is a source', async () => {
    const loaded = await loadConfigFromFile(
      { command: 'build', mode: 'production' },
      path.join(ROOT, 'vite.config.ts'),
      ROOT,
      'silent',
    );
    const local = (loaded?.dependencies ?? [])
      .map((file) => path.relative(ROOT, path.resolve(ROOT, file)))
      .filter((file) => !file.startsWith('node_modules') && !file.startsWith('..'));
    expect(local).toEqual(
      expect.arrayContaining(['vite.config.ts', 'pwa.config.ts', 'scripts/precompress.ts']),
    );
    const covered = (file: string) =>
      BUILD_SOURCES.some((source) => file === source || file.startsWith(`${source}/`));
    expect(local.filter((file) => !covered(file))).toEqual([]);
    expect(BUILD_OUTPUTS).toEqual(['dist/web/index.html', 'dist/server/entry-server.js']);
  });
});
