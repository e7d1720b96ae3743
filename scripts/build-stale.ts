/**
 * What scripts/run.mjs runs before a program when its build is missing or older than its sources
 * (ADR 053, 071): the compiled server and tools (dist/node), and with `--web` (for `npm start`)
 * the web app and the server's render of its first screens (dist/web, dist/server). Only what is
 * missing or stale is built.
 */
import { parseArgs } from 'node:util';
import { buildServer } from './build-server';
import { serverBuildState } from './build-state.mjs';
import { buildState, buildWebAndServer } from './web-build';

const { values } = parseArgs({ options: { web: { type: 'boolean' } } });
const root = process.cwd();

if (values.web) {
  const state = buildState(root);
  if (state !== 'fresh') {
    console.error(
      state === 'stale'
        ? 'Web sources changed; rebuilding the web app and its server render...'
        : 'Building the web app and its server render...',
    );
    // The server then sees the NODE_ENV the user set (or none), not the build's.
    await buildWebAndServer();
  }
}

if (serverBuildState(root) !== 'fresh') {
  console.error('Compiling the server...');
  await buildServer(root);
}
