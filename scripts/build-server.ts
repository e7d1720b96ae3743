/**
 * The server and its command-line tools compiled to JavaScript (ADR 071): `npm run build:server`
 * (and `npm start`, `npm run circles` and the other tools through scripts/run.mjs when the build is
 * missing or older than its sources). esbuild bundles server/main.ts, the tools and every worker
 * thread's entry into dist/node, one file per program with the code they share in chunks beside
 * them; the installed packages stay in node_modules, imported at run time. Everything lands in one
 * directory two levels under the project (as server/<dir>/), so the relative paths the server
 * computes from `import.meta.url` (dist/web, drizzle/, web/locales) and `new URL('./x.mjs', ...)`
 * of a worker's entry name the same files from the sources and from the build.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { SERVER_MANIFEST, SERVER_OUT } from './build-state.mjs';

/** The server and the tools, by the name scripts/run.mjs and package.json give them. */
export const PROGRAMS: Readonly<Record<string, string>> = {
  main: 'server/main.ts',
  admin: 'scripts/admin.ts',
  backup: 'scripts/backup.ts',
  restore: 'scripts/restore.ts',
  circles: 'scripts/circles.ts',
};

/**
 * What every build reads besides the modules it bundles: the `#common/*`-style aliases and the
 * packages' versions (package.json, package-lock.json) and TypeScript's settings. The server's and
 * the shared code's directories count whole, so a file added, renamed or removed rebuilds.
 */
const ALWAYS_SOURCES = ['server', 'common', 'package.json', 'package-lock.json', 'tsconfig.json'];

/** A worker thread's entry under the sources: `x.mjs`, which registers tsx and imports `./x.ts`. */
const WORKER_SHIM = /tsImport\(\s*'\.\/([\w.-]+\.ts)'\s*,\s*import\.meta\.url\s*\)/;
/** Where the server starts a thread: `new URL('./x.mjs', import.meta.url)`. */
const WORKER_URL = /new URL\(\s*'\.\/([\w.-]+\.mjs)'\s*,\s*import\.meta\.url\s*\)/g;

function filesUnder(dir: string, keep: (file: string) => boolean): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && keep(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * The worker threads' entries, compiled: each `server/.../x.mjs` registers tsx and imports the
 * TypeScript module beside it; the build compiles that module to dist/node/x.mjs instead, where the
 * compiled `new URL('./x.mjs', import.meta.url)` finds it. Throws when two entries share a name or
 * the server starts a thread from a file that is no such entry.
 */
export function workerEntries(root: string): Record<string, string> {
  const entries: Record<string, string> = {};
  const serverDir = path.join(root, 'server');
  for (const file of filesUnder(serverDir, (name) => name.endsWith('.mjs'))) {
    const target = WORKER_SHIM.exec(readFileSync(file, 'utf8'))?.[1];
    if (!target) continue;
    const name = path.basename(file, '.mjs');
    if (entries[name] || PROGRAMS[name]) throw new Error(`two compiled programs would be named ${name}.mjs`);
    entries[name] = path.relative(root, path.join(path.dirname(file), target));
  }
  for (const file of filesUnder(serverDir, (name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))) {
    for (const [, entry] of readFileSync(file, 'utf8').matchAll(WORKER_URL)) {
      const name = path.basename(entry ?? '', '.mjs');
      if (!entries[name]) {
        throw new Error(
          `${path.relative(root, file)} starts a thread from ${entry}, which is no worker entry`,
        );
      }
    }
  }
  return entries;
}

/** `import { a, b as c } from "pkg";` as esbuild writes a package's import at the top of a file. */
const NAMED_IMPORT = /^import\s+(?:[\w$]+\s*,\s*)?\{([^}]*)\}\s+from\s+"([^".][^"]*)";$/gm;

/**
 * The names the compiled files import from packages that the packages do not export to an ES module.
 * tsx lets `import { x } from 'a-commonjs-package'` through where Node itself may not (it sees only
 * the exports it can find in the package's source): such an import fails only when its file loads,
 * perhaps in a worker long after start, so the build loads each package and looks.
 */
export async function missingPackageExports(outdir: string): Promise<string[]> {
  const wanted = new Map<string, Set<string>>();
  for (const file of readdirSync(outdir).filter((name) => name.endsWith('.mjs'))) {
    for (const [, names, specifier] of readFileSync(path.join(outdir, file), 'utf8').matchAll(NAMED_IMPORT)) {
      if (!specifier || !names || specifier.startsWith('node:')) continue;
      const set = wanted.get(specifier) ?? new Set<string>();
      for (const name of names.split(',')) set.add(name.trim().split(/\s+as\s+/)[0] ?? '');
      wanted.set(specifier, set);
    }
  }
  // In a plain Node (no tsx), from the project's directory: as the compiled files see the packages.
  const check = `
    const wanted = JSON.parse(process.argv[1]);
    const missing = [];
    for (const [specifier, names] of wanted) {
      const exported = await import(specifier);
      for (const name of names) if (name && !(name in exported)) missing.push(specifier + ': ' + name);
    }
    console.log(JSON.stringify(missing));`;
  const result = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      check,
      JSON.stringify([...wanted].map(([key, names]) => [key, [...names]])),
    ],
    { cwd: path.resolve(outdir, '../..'), encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
  );
  if (result.status !== 0) throw new Error(`could not load the server's packages:\n${result.stderr}`);
  const missing = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '[]') as string[];
  return missing;
}

/** Compile the server, the tools and the worker threads into dist/node, and record what they were made from. */
export async function buildServer(root = process.cwd()): Promise<void> {
  const outdir = path.join(root, SERVER_OUT);
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { ...PROGRAMS, ...workerEntries(root) },
    outdir,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outExtension: { '.js': '.mjs' },
    // Flat, beside the programs: code that starts a thread may land in a chunk.
    chunkNames: 'chunk-[hash]',
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
  });
  const missing = await missingPackageExports(outdir);
  if (missing.length > 0) {
    rmSync(outdir, { recursive: true, force: true });
    throw new Error(
      `the server imports names these packages do not export to an ES module (import the default export and read them from it):\n  ${missing.join('\n  ')}`,
    );
  }
  const bundled = Object.keys(result.metafile.inputs).filter(
    (input) => !input.startsWith('node_modules/') && !/^(server|common)\//.test(input),
  );
  const sources = [...new Set([...ALWAYS_SOURCES, ...bundled])].sort();
  writeFileSync(path.join(root, SERVER_MANIFEST), `${JSON.stringify({ sources }, null, 2)}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const started = performance.now();
  await buildServer();
  console.log(`Compiled the server into ${SERVER_OUT} in ${Math.round(performance.now() - started)} ms`);
}
