/**
 * When V8 recompiles a WebAssembly function with its optimising compiler (ADR 118).
 *
 * V8 first compiles each WebAssembly function with its baseline compiler (Liftoff). A function
 * that has run about 1.8 MB of code by V8's count (`--wasm-tiering-budget`, 1,800,000 by default) is
 * compiled again with the optimising compiler (TurboFan) in a background thread. Opening PGlite
 * runs PostgreSQL's whole start (catalogue caches, recovery, the migrations' checks). At the
 * default budget, that start alone sends hundreds of PostgreSQL's functions to TurboFan. Those
 * compilations took both cores while the server started, and the memory they used stayed in
 * glibc's arenas: about 60 MB of an idle server's resident set.
 *
 * A hundred times the budget leaves the start on Liftoff. The functions a busy server runs over and
 * over (the executor's, the feeds' and search's) still reach TurboFan within its first requests.
 *
 * The budget is one setting for the whole process. It is read when a module is instantiated, so
 * it is set before PGlite's thread starts. The photo screener's and OCR's WebAssembly is
 * instantiated later with the same budget; their hot loops reach it within the first photo.
 */
import { setFlagsFromString } from 'node:v8';

/** V8's `--wasm-tiering-budget` for this process: a hundred times its default. */
export const WASM_TIERING_BUDGET = 180_000_000;

let applied = false;

/** Raise the budget once per process, before the first WebAssembly module is instantiated. */
export function deferWasmTierUp(): void {
  if (applied) return;
  applied = true;
  setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
}
