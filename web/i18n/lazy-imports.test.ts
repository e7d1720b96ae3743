import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every `import()` in the web app is `() => import('...')` handed to `importChunk` (web/lib/import-chunk.ts:
 * a failed chunk is asked for once more, then the page offers Reload, ADR 052), most of them through
 * `withMessages`, which calls it: a built page loads only the first screen's messages before it
 * renders (ADR 036, scripts/split-catalogues.ts), so a screen or dialog loaded later would show
 * message ids if it rendered before the rest arrived. Only code that shows no text of its own calls
 * `importChunk` directly.
 */
const WITHOUT_TEXT: Record<string, string[]> = {
  // The catalogues themselves (vite serve and tests).
  'i18n/i18n.ts': ["import('../locales/en.po')", "import('../locales/es.po')"],
  // The feed page is the first screen: its messages are in the first part.
  'app/router.tsx': ["import('./pages/home-page')"],
  // A QR code library: no text.
  'features/flyer/qr-code.ts': ["import('qrcode')"],
  // The app's entry and the chunks it imports on a page the server drew (their messages load with
  // the entry).
  'boot.ts': ['import(/* @vite-ignore */ entry)', 'import(/* @vite-ignore */ href)'],
};

/** The imports that cannot go through the helper: its own retry, and boot's import of it (ADR 115). */
const THE_HELPER_ITSELF: Record<string, string[]> = {
  'lib/import-chunk.ts': ['import(/* @vite-ignore */ url)'],
  'boot.ts': ['import(/* @vite-ignore */ helper)'],
};

const WEB = path.resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !/\.(test|d)\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** Every `import(...)` call in the web app's sources (not `typeof import(...)`, not in comments). */
function importCalls(): { file: string; call: string; before: string; after: string }[] {
  const calls: { file: string; call: string; before: string; after: string }[] = [];
  for (const file of sourceFiles(WEB)) {
    const relative = path.relative(WEB, file).split(path.sep).join('/');
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/\bimport\(([^()]*)\)/g)) {
      const start = match.index ?? 0;
      const line = source.slice(source.lastIndexOf('\n', start) + 1, start);
      if (/typeof\s+$/.test(line) || /^\s*(\*|\/\/)/.test(line) || /`[^`]*$/.test(line)) continue;
      calls.push({
        file: relative,
        call: match[0],
        before: source.slice(Math.max(0, start - 40), start),
        after: source.slice(start + match[0].length, start + match[0].length + 2),
      });
    }
  }
  return calls;
}

describe('lazily loaded code', () => {
  it('is asked for through importChunk, as `() => import(...)` alone, and waits for the messages it shows', () => {
    const calls = importCalls();
    expect(calls.length).toBeGreaterThan(30);
    const wrong: string[] = [];
    for (const { file, call, before, after } of calls) {
      if (THE_HELPER_ITSELF[file]?.includes(call)) continue;
      // The thunk is the import and nothing more: the retry imports the same module by its URL.
      const thunk = /(withMessages|importChunk)\(\s*\(\)\s*=>\s*$/.exec(before);
      const closed = /^\s*[,)]/.test(after);
      if (!thunk || !closed) {
        wrong.push(
          `${file}: ${call} (not \`withMessages(() => ${call})\` or \`importChunk(() => ${call})\`)`,
        );
      } else if (thunk[1] === 'importChunk' && !WITHOUT_TEXT[file]?.includes(call)) {
        wrong.push(`${file}: ${call} (shows text: withMessages)`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
