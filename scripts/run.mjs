// `node scripts/run.mjs NAME [ARGS...]`: run one of the compiled programs (ADR 071), dist/node/NAME.mjs
// (main, the server, for `npm start`; circles, admin, backup, restore), in this process, with ARGS as
// its arguments. When its build is missing or older than its sources (and for `main`, the web app's),
// scripts/build-stale.ts builds them first, in a child under tsx; otherwise nothing but JavaScript
// runs. Plain JavaScript itself, so that a fresh build starts at once.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildState, SERVER_OUT, serverBuildState, WEB_OUTPUTS, WEB_SOURCES } from './build-state.mjs';

const root = path.resolve(import.meta.dirname, '..');
const [name, ...args] = process.argv.slice(2);
if (!name || !/^[\w-]+$/.test(name)) {
  console.error('usage: node scripts/run.mjs NAME [ARGS...]');
  process.exit(2);
}
const server = name === 'main';

if (
  serverBuildState(root) !== 'fresh' ||
  (server && buildState(root, WEB_SOURCES, WEB_OUTPUTS) !== 'fresh')
) {
  const build = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'scripts/build-stale.ts'), ...(server ? ['--web'] : [])],
    { cwd: root, stdio: 'inherit' },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
}

if (server) {
  // `npm start` stops the server with itself: npm passes SIGINT and SIGTERM on, and when npm is
  // killed outright (SIGKILL) this process is handed to another parent, which ends it the same way.
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    process.kill(process.pid, 'SIGTERM');
  }, 1000);
  watch.unref();
}

// As if started as `node dist/node/NAME.mjs ARGS...`: the program reads its arguments from argv.
const program = path.join(root, SERVER_OUT, `${name}.mjs`);
process.argv.splice(1, process.argv.length - 1, program, ...args);
await import(pathToFileURL(program).href);
