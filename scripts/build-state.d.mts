/** `missing`: an output is not there; `stale`: a source changed since it was built. */
export type BuildState = 'fresh' | 'missing' | 'stale';

/** The newest change under `entry`, a file or a directory (milliseconds; 0 when it does not exist). */
export function newestChange(entry: string): number;

/** Whether the build under `root` must be made again (scripts/build-state.mjs). */
export function buildState(root: string, sources: readonly string[], outputs: readonly string[]): BuildState;

/** What the web app's two builds are made from (files and directories under the project). */
export const WEB_SOURCES: readonly string[];

/** One file of each web build, written at its end. */
export const WEB_OUTPUTS: readonly string[];

/** Where the compiled server and tools go: dist/node/NAME.mjs. */
export const SERVER_OUT: string;

/** The server build's record of what it was made from (`{ sources: string[] }`), written at its end. */
export const SERVER_MANIFEST: string;

/** Whether the compiled server under `root` must be made again. */
export function serverBuildState(root: string): BuildState;
