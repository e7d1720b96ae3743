/**
 * When `npm start` builds (ADR 053): `vite build`'s two outputs, the browser's app (dist/web) and the
 * server's render of the first screens (dist/server, ADR 037), against the files they are built from.
 */
import { type BuildState, buildState as sharedBuildState, WEB_OUTPUTS, WEB_SOURCES } from './build-state.mjs';

export type { BuildState } from './build-state.mjs';
/** What the two builds are made from, and one file of each (scripts/build-state.mjs). */
export { WEB_OUTPUTS as BUILD_OUTPUTS, WEB_SOURCES as BUILD_SOURCES } from './build-state.mjs';

/** Whether the web build under `root` must be made again (scripts/build-state.mjs). */
export function buildState(
  root: string,
  sources: readonly string[] = WEB_SOURCES,
  outputs: readonly string[] = WEB_OUTPUTS,
): BuildState {
  return sharedBuildState(root, sources, outputs);
}

/**
 * Build both as `vite build` does: the config's `buildApp` builds the browser's app (dist/web),
 * then the server's render (dist/server). Vite's `build()` alone builds the browser's app only.
 * Vite sets NODE_ENV=production while it builds; the caller's value (or none) is put back.
 */
export async function buildWebAndServer(): Promise<void> {
  const nodeEnv = process.env.NODE_ENV;
  try {
    const { createBuilder } = await import('vite');
    const builder = await createBuilder({ configFile: 'vite.config.ts', logLevel: 'warn' });
    await builder.buildApp();
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}
