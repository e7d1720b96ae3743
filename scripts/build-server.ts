/**
 * The server and its command-line tools compiled to JavaScript (ADR 071): `npm run build:server`
 * (and `npm start`, `npm run circles` and the other tools through scripts/run.mjs when the build is
 * missing or older than its sources). esbuild bundles server/main.ts, the tools and every worker
 * thread's entry into dist/node, one file per program with the code they share in chunks beside
 * them, and the plain-JavaScript packages they import with them (ADR 101): a start then reads a few
 * dozen files, not some 1,700 of node_modules one by one. Packages that find files of their own at
 * run time (native modules, WebAssembly, model weights, worker scripts) stay in node_modules,
 * imported at run time (RUN_TIME_PACKAGES), and the build refuses a bundled package that looks for
 * its own files (`ownFileReferences`). Everything lands in one
 * directory two levels under the project (as server/<dir>/), so the relative paths the server
 * computes from `import.meta.url` (dist/web, drizzle/, web/locales) and `new URL('./x.mjs', ...)`
 * of a worker's entry name the same files from the sources and from the build.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type BuildOptions, build, type Plugin } from 'esbuild';
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

/**
 * Packages left in node_modules and imported at run time, each for a file it finds beside itself:
 * a bundled copy would look for it beside dist/node instead.
 */
export const RUN_TIME_PACKAGES: Readonly<Record<string, string>> = {
  sharp: 'its native module (libvips)',
  '@node-rs/*': 'native modules (argon2)',
  '@electric-sql/pglite': "PostgreSQL's WebAssembly and data files",
  highs: 'its WebAssembly solver',
  '@tensorflow/*': 'WebAssembly backends',
  nsfwjs: "the photo screener's model weights",
  'tesseract.js': 'its worker script and language data',
  piscina: 'its worker script',
  pino: 'transports run as worker scripts (thread-stream)',
  '@aws-sdk/*': 'loaded only when photos go to S3; large, and reads its own settings files',
  // The development server's tools (`npm run dev`), never in production.
  vite: 'development only',
  '@vitejs/*': 'development only',
  tsx: 'development only',
  esbuild: 'development only',
  'pg-native': "pg's optional native client, not installed",
  // CommonJS imported with import(): bundled, they would lose their names (`refuseWhatBundlingBreaks`).
  '@zxcvbn-ts/*': "the password estimator's dictionaries, loaded in the worker pool at the first password",
  '@fastify/middie': 'development only',
};

/** Whether a package name or import specifier is one of RUN_TIME_PACKAGES (`@scope/*` covers a scope). */
export function isRunTimePackage(specifier: string): boolean {
  const name = specifier.startsWith('@')
    ? specifier.split('/').slice(0, 2).join('/')
    : specifier.split('/')[0];
  if (!name) return false;
  return name in RUN_TIME_PACKAGES || `${name.split('/')[0]}/*` in RUN_TIME_PACKAGES;
}

/**
 * Bundled packages whose sources mention their own place, each checked by hand: why the bundled copy
 * still works. Any other mention fails the build (`ownFileReferences`).
 */
export const CHECKED_OWN_FILE_REFERENCES: Readonly<Record<string, string>> = {
  '@fastify/swagger':
    "reads its package.json for an API description's missing title and version, inside try/catch; the server names both",
};

/** What in a module's source finds a file by the module's own place. */
const OWN_PLACE =
  /\b__dirname\b|\b__filename\b|\brequire\.resolve\b|\bimport\.meta\.(?:url|dirname|filename)\b/g;

/** The package a file under node_modules belongs to (the innermost, for nested installs). */
export function packageOf(file: string): string | null {
  const parts = file.split(/[\\/]/);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0 || at + 1 >= parts.length) return null;
  const name = parts[at + 1] ?? '';
  return name.startsWith('@') ? `${name}/${parts[at + 2] ?? ''}` : name;
}

/** The ways a module's source refers to its own place (`__dirname`, `import.meta.url`...), in order. */
export function ownFileReferences(source: string): string[] {
  return [...source.matchAll(OWN_PLACE)].map((match) => match[0]);
}

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

/** Marks the plugin's own resolution of a specifier, so that it does not look at it twice. */
const SELF = Symbol('refuse-what-bundling-breaks');

/** Whether a JavaScript file is an ES module: `.mjs`, or `.js` under a package.json of type module. */
export function isEsModule(file: string): boolean {
  if (file.endsWith('.mjs')) return true;
  if (!file.endsWith('.js')) return false;
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { type?: string };
      return manifest.type === 'module';
    } catch {
      if (path.dirname(dir) === dir) return false;
    }
  }
}

/**
 * An esbuild plugin that records, into `found`, what a bundled copy would get wrong:
 * - a bundled package's module that refers to its own place, unless checked;
 * - an `import()` of a package that would be bundled: with code splitting its CommonJS build becomes
 *   a chunk with a default export alone, so `(await import('pkg')).name` is undefined where Node
 *   gives the name (it happened to `@zxcvbn-ts/core`); such packages stay in RUN_TIME_PACKAGES.
 */
function refuseWhatBundlingBreaks(found: Map<string, Set<string>>): Plugin {
  return {
    name: 'refuse-what-bundling-breaks',
    setup(builder) {
      builder.onResolve({ filter: /^[^./#]/ }, async (args) => {
        if (args.kind !== 'dynamic-import' || args.pluginData === SELF) return undefined;
        if (args.path.startsWith('node:') || isRunTimePackage(args.path)) return undefined;
        const resolved = await builder.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: SELF,
        });
        // An ES module's chunk keeps its names (`@fastify/cookie` imports `cookie` so).
        if (resolved.errors.length === 0 && isEsModule(resolved.path)) return undefined;
        const where = found.get(args.path) ?? new Set<string>();
        where.add(`import() of CommonJS in ${path.relative(process.cwd(), args.importer)}`);
        found.set(args.path, where);
        return undefined;
      });
      builder.onLoad({ filter: /[\\/]node_modules[\\/].*\.[cm]?js$/ }, (args) => {
        const pkg = packageOf(args.path);
        if (!pkg || pkg in CHECKED_OWN_FILE_REFERENCES) return undefined;
        const references = ownFileReferences(readFileSync(args.path, 'utf8'));
        if (references.length > 0) {
          const where = found.get(pkg) ?? new Set<string>();
          where.add(`${references[0]} in ${args.path.split(/node_modules[\\/]/).pop()}`);
          found.set(pkg, where);
        }
        return undefined;
      });
    },
  };
}

/** How the server's modules are bundled: what `buildServer` compiles with, and what its tests follow. */
export const BUNDLING = {
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: Object.keys(RUN_TIME_PACKAGES),
} as const satisfies BuildOptions;

/** Compile the server, the tools and the worker threads into dist/node, and record what they were made from. */
export async function buildServer(root = process.cwd()): Promise<void> {
  const outdir = path.join(root, SERVER_OUT);
  rmSync(outdir, { recursive: true, force: true });
  const unchecked = new Map<string, Set<string>>();
  const result = await build({
    absWorkingDir: root,
    entryPoints: { ...PROGRAMS, ...workerEntries(root) },
    outdir,
    ...BUNDLING,
    // A bundled CommonJS package's `require` of a built-in or of a run-time package.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    plugins: [refuseWhatBundlingBreaks(unchecked)],
    outExtension: { '.js': '.mjs' },
    // Flat, beside the programs: code that starts a thread may land in a chunk.
    chunkNames: 'chunk-[hash]',
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
  });
  if (unchecked.size > 0 || result.warnings.length > 0) {
    rmSync(outdir, { recursive: true, force: true });
    const found = [...unchecked].map(([pkg, where]) => `${pkg}: ${[...where].slice(0, 3).join(', ')}`);
    throw new Error(
      `bundled packages would look for files beside dist/node, or be imported with import() (add them to RUN_TIME_PACKAGES, or to CHECKED_OWN_FILE_REFERENCES once read):\n  ${[
        ...found,
        ...result.warnings.map((warning) => warning.text),
      ].join('\n  ')}`,
    );
  }
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
