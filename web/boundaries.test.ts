import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The web's rooms and the arrows allowed between them (ADR 068): `web/app` composes the features;
 * a feature imports `web/components`, `web/lib`, `web/i18n` and `common/`, never another feature;
 * `web/components` and `web/lib` import no feature and nothing of `web/app`. Biome's
 * noRestrictedImports matches the written specifier, not the file it names, so relative imports
 * (`../../barters/...`) are checked here, over every import of every web file, tests included.
 */
const WEB = path.resolve(import.meta.dirname);

/**
 * Imports that still cross, each to be removed, never added to. The test fails on any other one, and
 * on one of these once it is gone (then delete its line).
 */
const KNOWN: readonly string[] = [];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

/** `app`, `components`, `lib`, `features/<name>`, … for a path relative to web/. */
function roomOf(relative: string): string {
  const [top, name] = relative.split('/');
  return top === 'features' && name !== undefined ? `features/${name}` : (top ?? '');
}

/** Every module a web file imports, as a path relative to web/ without its extension. */
function importsOf(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const specifiers = [
    ...source.matchAll(/\bfrom\s+'([^']+)'/g),
    ...source.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g),
    ...source.matchAll(/^import\s+'([^']+)'/gm),
  ].map((match) => match[1] as string);
  return specifiers.flatMap((specifier) => {
    const target = specifier.startsWith('#web/')
      ? path.join(WEB, specifier.slice('#web/'.length))
      : specifier.startsWith('.')
        ? path.resolve(path.dirname(file), specifier)
        : null;
    if (target === null) return [];
    const relative = path.relative(WEB, target).split(path.sep).join('/');
    return relative.startsWith('..') ? [] : [relative.replace(/\.tsx?$/, '')];
  });
}

function crossings(): string[] {
  const found = new Set<string>();
  for (const file of sourceFiles(WEB)) {
    const from = path.relative(WEB, file).split(path.sep).join('/');
    const room = roomOf(from);
    for (const to of importsOf(file)) {
      const target = roomOf(to);
      const crosses =
        (room.startsWith('features/') && target.startsWith('features/') && target !== room) ||
        ((room === 'components' || room === 'lib') && (target.startsWith('features/') || target === 'app'));
      if (crosses) found.add(`${from} -> ${to}`);
    }
  }
  return [...found].sort();
}

describe('the web rooms', () => {
  it('import across only where the arrows allow (no feature imports another; components and lib import no feature or app)', () => {
    const found = crossings();
    expect(found.filter((line) => !KNOWN.includes(line))).toEqual([]);
    expect(KNOWN.filter((line) => !found.includes(line))).toEqual([]);
  });

  it('sees the imports it judges', () => {
    const all = sourceFiles(WEB).flatMap(importsOf);
    expect(all.length).toBeGreaterThan(1000);
    expect(all).toContain('features/barters/api/barters');
  });
});
