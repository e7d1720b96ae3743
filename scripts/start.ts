/**
 * `npm start`: build the web app and the server's render of its first screens (ADR 037, 053) when
 * either is missing or older than its sources, then start the server (which migrates, seeds an
 * empty database and prints the URL and the site password), with MALLOC_ARENA_MAX=2 unless set.
 */
import { spawn } from 'node:child_process';
import { buildState, buildWebAndServer } from './web-build';

const state = buildState(process.cwd());
if (state !== 'fresh') {
  console.log(
    state === 'stale'
      ? 'Web sources changed; rebuilding the web app and its server render...'
      : 'Building the web app and its server render...',
  );
  // The server then sees the NODE_ENV the user set (or none), not the build's.
  await buildWebAndServer();
}
if (process.env.MALLOC_ARENA_MAX === undefined) {
  // glibc gives each of libuv's threads (photo decoding) a malloc arena that keeps its high-water
  // mark; two arenas keep a photo flood's memory about 150 MB lower (docs/performance.md). glibc
  // reads the setting only at start, so the server runs in a child with it; SIGINT and SIGTERM are
  // passed on, and this process ends when the server has (with its exit code).
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, MALLOC_ARENA_MAX: '2' },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  await import('../server/main');
}
