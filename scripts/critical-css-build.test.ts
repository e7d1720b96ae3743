import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CRITICAL_CSS_FILE, criticalCss } from '#server/plugins/critical-css.ts';
import { writeCriticalCss } from './critical-css-build';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the drawn pages' stylesheet pieces, cut at build time", () => {
  it('writes each readable stylesheet by its URL, and leaves out what would end a style element or cannot be parsed', async () => {
    const outDir = mkdtempSync(path.join(tmpdir(), 'critical-css-'));
    dirs.push(outDir);
    mkdirSync(path.join(outDir, 'assets'));
    const sheets: Record<string, string> = {
      'index-1.css': '.a{color:red}.b{color:blue}body{margin:0}',
      'ends-style.css': '.a{}</style><script>alert(1)</script>',
      'ends-style-upper.css': '.a{}</STYLE >',
      'unclosed.css': '.a{color:red',
    };
    for (const [name, css] of Object.entries(sheets)) writeFileSync(path.join(outDir, 'assets', name), css);
    writeFileSync(path.join(outDir, 'assets', 'index-1.js'), 'console.log(1)');

    await writeCriticalCss(outDir);

    const written = JSON.parse(readFileSync(path.join(outDir, CRITICAL_CSS_FILE), 'utf8'));
    expect(Object.keys(written)).toEqual(['/assets/index-1.css']);
    expect(criticalCss(written['/assets/index-1.css'])(new Set(['b']))).toBe('.b{color:blue}body{margin:0}');
  });
});
