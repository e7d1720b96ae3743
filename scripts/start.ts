/**
 * `npm start`: build the web app when the build is missing or older than its sources, then start the
 * server (which migrates, seeds an empty database and prints the URL and the site password), with
 * MALLOC_ARENA_MAX=2 unless set.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const SOURCES = ['web', 'common', 'vite.config.ts', 'lingui.config.ts', 'package-lock.json'];
const BUILT = 'dist/web/index.html';

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

const builtAt = existsSync(BUILT) ? statSync(BUILT).mtimeMs : 0;
const sourcesAt = Math.max(...SOURCES.map(newestMtime));
if (builtAt < sourcesAt) {
  console.log(builtAt ? 'Web sources changed; rebuilding the web app...' : 'Building the web app...');
  const nodeEnv = process.env.NODE_ENV;
  const { build } = await import('vite');
  await build({ configFile: 'vite.config.ts', logLevel: 'warn' });
  // Vite sets NODE_ENV=production for the build; the server must see what the user set (or nothing).
  if (nodeEnv === undefined) delete process.env.NODE_ENV;
  else process.env.NODE_ENV = nodeEnv;
}
if (process.env.MALLOC_ARENA_MAX === undefined) {
  // glibc gives each of libuv's threads (photo decoding) a malloc arena that keeps its high-water
  // mark; two arenas keep a photo flood's memory about 150 MB lower (docs/performance.md). glibc
  // reads the setting only at start, so the server runs in a child with it; signals pass through.
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, MALLOC_ARENA_MAX: '2' },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  await import('../server/main');
}
