/**
 * When V8 recompiles a WebAssembly function with its optimising compiler (ADR 118).
 *
 * V8 first compiles each WebAssembly function with its baseline compiler (Liftoff). A function
 * that has run about 1.8 MB of code by V8's count (`--wasm-tiering-budget`, 1,800,000 by default) is
 * compiled again with the optimising compiler (TurboFan) in a background thread. Opening PGlite
 * runs PostgreSQL's whole start (catalogue caches, recovery, the migrations' checks). At the
 * default budget, a restart sent 89 of PostgreSQL's functions to TurboFan: 1.5 s of compiling on
 * background threads while the server started, with 354 MB of compiler memory in all (up to 22 MB
 * for one function). glibc kept that memory: about 60 MB of an idle server's resident set.
 *
 * A hundred times the budget leaves the start on Liftoff (3 functions went to TurboFan). The
 * functions a busy server runs over and over still pass the budget under load (the feed and
 * events benchmarks on PGlite measured no cost).
 *
 * The budget is one setting for the whole process, and must be set before PGlite's module is
 * instantiated: so before PGlite's thread starts. The photo screener's and OCR's WebAssembly runs
 * with the same budget; their hot loops pass it within the first photo.
 */
import { setFlagsFromString } from 'node:v8';

/** V8's `--wasm-tiering-budget` for this process: a hundred times its default. */
const WASM_TIERING_BUDGET = 180_000_000;

/** Raise the budget for the process (the same value each time), before PGlite's module is instantiated. */
export function deferWasmTierUp(): void {
  setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
}
