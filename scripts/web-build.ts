/**
 * When `npm start` builds (ADR 053): `vite build`'s two outputs, the browser's app (dist/web) and the
 * server's render of the first screens (dist/server, ADR 037), against the files they are built from.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * What the two builds are made from: the web app and what it imports (`common/`), the build's
 * configuration and every local file it loads (`scripts/web-build.test.ts` checks the list against
 * the config's own imports), the `#common/*`-style aliases (package.json `imports`), TypeScript's
 * settings, and the installed packages' versions (package-lock.json).
 */
export const BUILD_SOURCES = [
  'web',
  'common',
  'vite.config.ts',
  'pwa.config.ts',
  'lingui.config.ts',
  'scripts/lingui-macros.ts',
  'scripts/precompress.ts',
  'scripts/split-catalogues.ts',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
];

/** One file of each build, written at its end: the older of the two is when the build was made. */
export const BUILD_OUTPUTS = ['dist/web/index.html', 'dist/server/entry-server.js'];

/** Tests are no part of a build; a change to one alone does not rebuild. */
const NOT_BUILT = /\.test\.tsx?$/;

/**
 * The newest change under `entry` (milliseconds; 0 when it does not exist). Directories count too:
 * a file removed or renamed changes its directory.
 */
function newestChange(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of readdirSync(entry)) {
    if (NOT_BUILT.test(child)) continue;
    newest = Math.max(newest, newestChange(path.join(entry, child)));
  }
  return newest;
}

/** `missing`: an output is not there (never built, or only the browser's app); `stale`: a source changed since. */
export type BuildState = 'fresh' | 'missing' | 'stale';

/** Whether the build under `root` must be made again before the server starts. */
export function buildState(
  root: string,
  sources: readonly string[] = BUILD_SOURCES,
  outputs: readonly string[] = BUILD_OUTPUTS,
): BuildState {
  const built = outputs.map((output) => path.join(root, output));
  if (built.some((file) => !existsSync(file))) return 'missing';
  const builtAt = Math.min(...built.map((file) => statSync(file).mtimeMs));
  const changedAt = Math.max(...sources.map((source) => newestChange(path.join(root, source))));
  return changedAt > builtAt ? 'stale' : 'fresh';
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
