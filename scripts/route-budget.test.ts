import { describe, expect, it } from 'vitest';
import {
  bootChunks,
  entryKey,
  type Manifest,
  routeChunks,
  routeStylesheets,
  stagesOutOfOrder,
} from './route-budget';

/** A build like ours: an entry, a shared chunk, two lazy pages, a dialog loaded on demand. */
const manifest: Manifest = {
  'index.html': {
    file: 'assets/index-a1.js',
    isEntry: true,
    imports: ['_react-b2.js'],
    dynamicImports: ['app/pages/home-page.tsx', 'app/pages/profile-page.tsx'],
    css: ['assets/index-c3.css'],
  },
  '_react-b2.js': { file: 'assets/react-b2.js' },
  '_member-layout-d4.js': {
    file: 'assets/member-layout-d4.js',
    imports: ['_react-b2.js', 'index.html'],
    dynamicImports: ['_item-form-e5.js'],
  },
  '_item-form-e5.js': { file: 'assets/item-form-e5.js', imports: ['_zod-f6.js'] },
  '_zod-f6.js': { file: 'assets/zod-f6.js' },
  'app/pages/home-page.tsx': {
    file: 'assets/home-page-g7.js',
    isDynamicEntry: true,
    imports: ['_member-layout-d4.js', '_react-b2.js'],
    css: ['assets/home-page-h8.css'],
  },
  'app/pages/profile-page.tsx': {
    file: 'assets/profile-page-i9.js',
    isDynamicEntry: true,
    imports: ['_member-layout-d4.js', '_zod-f6.js'],
  },
};

describe('the chunks a route loads before it paints', () => {
  it('is the entry and its static imports for a route in the entry', () => {
    expect(entryKey(manifest)).toBe('index.html');
    expect(routeChunks(manifest, [])).toEqual(['assets/index-a1.js', 'assets/react-b2.js']);
  });

  it("adds the page's chunk and what it imports statically, each once, not what it loads on demand", () => {
    const home = routeChunks(manifest, ['app/pages/home-page.tsx']);
    expect(home).toEqual([
      'assets/index-a1.js',
      'assets/react-b2.js',
      'assets/home-page-g7.js',
      'assets/member-layout-d4.js',
    ]);
    expect(home).not.toContain('assets/item-form-e5.js');
    expect(home).not.toContain('assets/zod-f6.js');
    expect(routeChunks(manifest, ['app/pages/profile-page.tsx'])).toContain('assets/zod-f6.js');
  });

  it('follows import cycles (a chunk importing the entry back) without looping', () => {
    const chunks = routeChunks(manifest, ['app/pages/profile-page.tsx']);
    expect(new Set(chunks).size).toBe(chunks.length);
  });

  it('refuses a page the build does not have, and a build without one entry', () => {
    expect(() => routeChunks(manifest, ['app/pages/renamed-page.tsx'])).toThrow(/renamed-page/);
    expect(() => entryKey({ 'a.js': { file: 'a.js' } })).toThrow(/one index.html entry/);
  });

  it("lists the stylesheets of the route's chunks", () => {
    expect(routeStylesheets(manifest, ['app/pages/home-page.tsx'])).toEqual([
      'assets/index-c3.css',
      'assets/home-page-h8.css',
    ]);
  });
});

describe('what the boot script brings before the first paint', () => {
  const helper = { file: 'assets/import-chunk-j1.js' };
  it('is the boot script and its own imports, not the app', () => {
    const build: Manifest = {
      ...manifest,
      'boot.ts': { file: 'assets/boot-k2.js', isEntry: true, imports: ['_import-chunk-j1.js'] },
      '_import-chunk-j1.js': helper,
    };
    expect(bootChunks(build)).toEqual(['assets/boot-k2.js', 'assets/import-chunk-j1.js']);
  });

  it('names the app when the helper was bundled into it (the mistake the budget catches)', () => {
    const build: Manifest = {
      ...manifest,
      'boot.ts': { file: 'assets/boot-k2.js', isEntry: true, imports: ['index.html'] },
    };
    expect(bootChunks(build)).toEqual(['assets/boot-k2.js', 'assets/index-a1.js', 'assets/react-b2.js']);
  });

  it('is nothing for a build without a boot script', () => {
    expect(bootChunks(manifest)).toEqual([]);
  });
});

describe("the entry's imports, evaluated one a task before it (web/boot.ts)", () => {
  const staged: Manifest = {
    'index.html': { file: 'assets/index-a1.js', isEntry: true, imports: ['_vendor-v1.js', '_react-b2.js'] },
    '_vendor-v1.js': { file: 'assets/vendor-v1.js', imports: ['_react-b2.js', '_runtime-r1.js'] },
    '_react-b2.js': { file: 'assets/react-b2.js', imports: ['_runtime-r1.js'] },
    '_runtime-r1.js': { file: 'assets/runtime-r1.js' },
  };

  it('are in order when each comes after everything it imports', () => {
    expect(
      stagesOutOfOrder(staged, ['assets/runtime-r1.js', 'assets/react-b2.js', 'assets/vendor-v1.js']),
    ).toEqual([]);
  });

  it('name a chunk listed before one it imports, directly or not, and a file the build lacks', () => {
    expect(
      stagesOutOfOrder(staged, [
        'assets/vendor-v1.js',
        'assets/runtime-r1.js',
        'assets/react-b2.js',
        'assets/x.js',
      ]),
    ).toEqual([
      'assets/vendor-v1.js comes before assets/react-b2.js, which it imports',
      'assets/vendor-v1.js comes before assets/runtime-r1.js, which it imports',
      "assets/x.js is not in the build's manifest",
    ]);
  });
});
