import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A built page loads only the first screen's messages before it renders (ADR 036,
 * scripts/split-catalogues.ts); a screen or dialog loaded later would show message ids if it rendered
 * before the rest arrived. So every `import()` in the web app waits for them through `withMessages`
 * (`lazyDialog` and `lazyTriggeredDialog` call it), except those that show no text of their own.
 */
const WITHOUT_TEXT: Record<string, string[]> = {
  // The catalogues themselves (vite serve and tests).
  'i18n/i18n.ts': ["import('../locales/en.po')", "import('../locales/es.po')"],
  // The feed page is the first screen: its messages are in the first part.
  'app/router.tsx': ["import('./pages/home-page')"],
  // A QR code library: no text.
  'features/flyer/qr-code.ts': ["import('qrcode')"],
};

const WEB = path.resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !/\.(test|d)\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

describe('lazily loaded code', () => {
  it('waits for the messages it shows', () => {
    const unwrapped: string[] = [];
    let imports = 0;
    for (const file of sourceFiles(WEB)) {
      const relative = path.relative(WEB, file).split(path.sep).join('/');
      const source = readFileSync(file, 'utf8');
      for (const match of source.matchAll(
        /(withMessages\(\s*|lazy(?:Triggered)?Dialog(?:<[\s\S]*?>)?\(\s*\(\)\s*=>\s*)?import\(\s*(['"][^'"]+['"])\s*\)/g,
      )) {
        imports++;
        const call = `import(${match[2]})`;
        if (match[1] || WITHOUT_TEXT[relative]?.includes(call)) continue;
        unwrapped.push(`${relative}: ${call}`);
      }
    }
    expect(imports).toBeGreaterThan(30);
    expect(unwrapped).toEqual([]);
  });
});
