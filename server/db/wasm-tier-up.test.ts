import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { transformSync } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(path.join(os.tmpdir(), 'wasm-tier-up-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The module as JavaScript, so that the child runs without a loader: a TypeScript loader compiles
// WebAssembly of its own in another thread, and V8's trace lines would interleave with it.
const moduleFile = path.join(dir, 'wasm-tier-up.mjs');
writeFileSync(
  moduleFile,
  transformSync(readFileSync(path.join(import.meta.dirname, 'wasm-tier-up.ts'), 'utf8'), {
    loader: 'ts',
    format: 'esm',
  }).code,
);

/**
 * A WebAssembly function `f(n)` that adds n, n-1, ... 1 in a loop, run once in a fresh process
 * with V8 tracing each compilation; `defer` applies the module's setting first. Returns the
 * compilers that compiled it, in order.
 */
function compilersFor(iterations: number, defer: boolean): string[] {
  const script = path.join(dir, `run-${iterations}-${defer}.mjs`);
  writeFileSync(
    script,
    `${defer ? "(await import('./wasm-tier-up.mjs')).deferWasmTierUp();" : ''}
// (func (param i32) (result i32) (local i32) (loop local1 += p0; p0 -= 1; br_if p0) local1)
const bytes = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 6, 1, 96, 1, 127, 1, 127, 3, 2, 1, 0,
  7, 5, 1, 1, 102, 0, 0, 10, 27, 1, 25, 1, 1, 127, 3, 64, 32, 1, 32, 0, 106, 33, 1, 32, 0, 65, 1,
  107, 34, 0, 13, 0, 11, 32, 1, 11]);
const { instance } = await WebAssembly.instantiate(bytes);
process.stderr.write('sum ' + instance.exports.f(${iterations}) + '\\n');
`,
  );
  // V8 writes its trace lines to standard output, TurboFan's from a background thread: the run's
  // own line goes to standard error, where a trace line cannot cut into it (nor it into one).
  const run = spawnSync(process.execPath, ['--trace-wasm-compilation-times', script], { encoding: 'utf8' });
  expect(run.status).toBe(0);
  expect(run.stderr).toMatch(/^sum -?\d+$/m);
  return [...run.stdout.matchAll(/^Compiled function \S+ using (\w+)/gm)].map((match) => match[1] as string);
}

describe('deferWasmTierUp (ADR 118)', () => {
  it('leaves a function that ran a start-up amount of work on the baseline compiler', () => {
    // The control: at V8's default budget the same run is sent to TurboFan.
    expect(compilersFor(1_000_000, false)).toEqual(['Liftoff', 'TurboFan']);
    expect(compilersFor(1_000_000, true)).toEqual(['Liftoff']);
  });

  it('still sends a function that keeps running to the optimising compiler', () => {
    expect(compilersFor(200_000_000, true)).toEqual(['Liftoff', 'TurboFan']);
  });
});
