// Whether a build is older than what it is made from (ADR 053, 071). Plain JavaScript, so that
// scripts/run.mjs can ask before anything compiles TypeScript; scripts/web-build.ts and
// scripts/build-server.ts use it too. Types in build-state.d.mts.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * What `vite build`'s two builds (ADR 037, 053), the browser's app (dist/web) and the server's render
 * of the first screens (dist/server), are made from: the web app and what it imports (`common/`), the
 * build's configuration and every local file it loads (`scripts/web-build.test.ts` checks the list
 * against the config's own imports), the `#common/*`-style aliases (package.json `imports`),
 * TypeScript's settings, and the installed packages' versions (package-lock.json).
 */
export const WEB_SOURCES = [
  'web',
  'common',
  'vite.config.ts',
  'pwa.config.ts',
  'lingui.config.ts',
  'scripts/lingui-macros.ts',
  'scripts/precompress.ts',
  'scripts/split-catalogues.ts',
  // The drawn pages' stylesheet pieces are cut by the build (ADR 122).
  'scripts/critical-css-build.ts',
  'server/plugins/critical-css.ts',
  'server/plugins/critical-css-pieces.ts',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
];

/** One file of each web build, written at its end: the older of the two is when the build was made. */
export const WEB_OUTPUTS = ['dist/web/index.html', 'dist/server/entry-server.js'];

/** Tests are no part of a build; a change to one alone does not rebuild. */
const NOT_BUILT = /\.test\.tsx?$/;

/**
 * The newest change under `entry` (milliseconds; 0 when it does not exist). Directories count too:
 * a file removed or renamed changes its directory.
 */
export function newestChange(entry) {
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

/**
 * Whether the build under `root` must be made again: `missing` when one of `outputs` is not there,
 * `stale` when one of `sources` (files or directories, relative to `root`) changed after the oldest
 * output, else `fresh`. A source that does not exist (a production image holds no sources) is older
 * than any build.
 */
export function buildState(root, sources, outputs) {
  const built = outputs.map((output) => path.join(root, output));
  if (built.some((file) => !existsSync(file))) return 'missing';
  const builtAt = Math.min(...built.map((file) => statSync(file).mtimeMs));
  const changedAt = Math.max(...sources.map((source) => newestChange(path.join(root, source))));
  return changedAt > builtAt ? 'stale' : 'fresh';
}

/** Where the compiled server and tools go (scripts/build-server.ts, ADR 071): dist/node/NAME.mjs. */
export const SERVER_OUT = 'dist/node';

/**
 * What the server's build records about itself, written at its end: `{ sources }`, the files and
 * directories it was made from.
 */
export const SERVER_MANIFEST = `${SERVER_OUT}/build.json`;

/** Whether the compiled server under `root` must be made again: against the sources its manifest lists. */
export function serverBuildState(root) {
  let sources;
  try {
    ({ sources } = JSON.parse(readFileSync(path.join(root, SERVER_MANIFEST), 'utf8')));
  } catch {
    return 'missing';
  }
  return buildState(root, sources, [SERVER_MANIFEST]);
}
