/**
 * sharp (libvips), loaded at its first use rather than with the server's modules (ADR 122): its
 * native library, and the packages it checks its version with, took about 60 ms of every start, and
 * a restart serves nothing with it. sharp stays in node_modules (RUN_TIME_PACKAGES in
 * scripts/build-server.ts), so this is the same module an import would give.
 */
import { createRequire } from 'node:module';
import type Sharp from 'sharp';

let loaded: typeof Sharp | undefined;

/** sharp's function, loaded once. */
export function loadSharp(): typeof Sharp {
  if (!loaded) {
    loaded = createRequire(import.meta.url)('sharp') as typeof Sharp;
    // libvips keeps recent operations' results for reuse (50 MB by default). Uploaded photos are
    // never decoded twice, so the cache only held memory: off, for every use of sharp in this process.
    loaded.cache(false);
  }
  return loaded;
}
