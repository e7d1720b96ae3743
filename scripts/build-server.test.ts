import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BUNDLING,
  isEsModule,
  isRunTimePackage,
  ownFileReferences,
  packageOf,
  RUN_TIME_PACKAGES,
} from './build-server';

/** What the server's build bundles, and what it leaves in node_modules (ADR 101). */
describe('the compiled server bundles packages that do not look for their own files', () => {
  it("names the package of a file under node_modules, the innermost of a nested install's", () => {
    expect(packageOf('/app/node_modules/zod/v4/index.js')).toBe('zod');
    expect(packageOf('/app/node_modules/@fastify/swagger/lib/util/read-package-json.js')).toBe(
      '@fastify/swagger',
    );
    expect(
      packageOf('/app/node_modules/@radix-ui/react-toast/node_modules/@radix-ui/primitive/dist/index.mjs'),
    ).toBe('@radix-ui/primitive');
    expect(packageOf('C:\\app\\node_modules\\pg\\lib\\index.js')).toBe('pg');
    expect(packageOf('/app/server/main.ts')).toBeNull();
  });

  it("finds each way a module's source finds a file by its own place", () => {
    const source = [
      "const worker = path.join(__dirname, 'worker.js');",
      'const self = __filename;',
      "const wasm = require.resolve('./solver.wasm');",
      "const data = new URL('./data.bin', import.meta.url);",
      'const here = import.meta.dirname;',
    ].join('\n');
    expect(ownFileReferences(source)).toEqual([
      '__dirname',
      '__filename',
      'require.resolve',
      'import.meta.url',
      'import.meta.dirname',
    ]);
  });

  it('does not mistake names that only contain those words', () => {
    expect(
      ownFileReferences('const my__dirname2 = 1; const dirname = path.dirname(file); import.meta.env;'),
    ).toEqual([]);
  });

  it('leaves the native, WebAssembly and worker-script packages the server uses in node_modules', () => {
    for (const name of [
      'sharp',
      '@node-rs/*',
      '@electric-sql/pglite',
      'highs',
      'tesseract.js',
      'nsfwjs',
      'piscina',
    ])
      expect(RUN_TIME_PACKAGES).toHaveProperty([name]);
  });
});

describe('what the build leaves to Node', () => {
  it('an import() of a CommonJS package is left to Node: bundled, its names would be lost', () => {
    expect(isRunTimePackage('@zxcvbn-ts/core')).toBe(true);
    expect(isRunTimePackage('@zxcvbn-ts/language-en')).toBe(true);
    expect(isRunTimePackage('sharp')).toBe(true);
    expect(isRunTimePackage('@node-rs/argon2')).toBe(true);
    expect(isRunTimePackage('pino/file')).toBe(true);
    expect(isRunTimePackage('zod')).toBe(false);
    expect(isRunTimePackage('@fastify/cookie')).toBe(false);
    // `cookie` is an ES module (package type module), which @fastify/cookie imports with import();
    // @zxcvbn-ts/core's main is CommonJS.
    expect(isEsModule(path.resolve('node_modules/cookie/dist/index.js'))).toBe(true);
    expect(isEsModule(path.resolve('node_modules/@zxcvbn-ts/core/dist/index.cjs'))).toBe(false);
    expect(isEsModule(path.resolve('node_modules/pg/lib/index.js'))).toBe(false);
  });
});

/** The server compiled as scripts/build-server.ts compiles it, in memory: its chunks and their imports. */
async function compiledServer() {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: { main: 'server/main.ts' },
    outdir: '/tmp/barterhood-first-modules',
    write: false,
    ...BUNDLING,
    metafile: true,
    logLevel: 'silent',
  });
  const outputs = result.metafile.outputs;
  /** What loading `file` loads before any of its code runs: its static imports, followed. */
  const staticClosure = (file: string) => {
    const inputs = new Set<string>();
    const externals = new Set<string>();
    const seen = new Set<string>();
    const visit = (at: string) => {
      if (seen.has(at)) return;
      seen.add(at);
      const output = outputs[at];
      if (!output) return;
      for (const input of Object.keys(output.inputs)) inputs.add(input);
      for (const imported of output.imports) {
        if (imported.kind !== 'import-statement') continue;
        if (imported.external) externals.add(imported.path);
        else visit(imported.path);
      }
    };
    visit(file);
    return { inputs, externals };
  };
  const outputOf = (input: string) =>
    Object.keys(outputs).find((file) => Object.keys(outputs[file]?.inputs ?? {}).includes(input)) ?? '';
  return { staticClosure, outputOf };
}

/**
 * What a start loads before PGlite's thread starts (ADR 122): main.ts's static imports, followed
 * through the compiled chunks. Drizzle, pg, Fastify and the app load after, while the thread opens
 * the database; so do pino, sharp and PGlite's own module (in its thread). And what the app loads on
 * the embedded database: neither node-postgres nor pg-boss, nor sharp or tesseract.js before a photo,
 * nor Lingui's PO reader before the e-mail catalogues are read.
 */
describe("a start's modules", () => {
  it("start PGlite's thread without loading the database client, the app or the logger", async () => {
    const { staticClosure, outputOf } = await compiledServer();
    const { inputs, externals } = staticClosure(outputOf('server/main.ts'));
    expect(inputs).toContain('server/db/pglite-thread-client.ts');
    expect(inputs).toContain('server/config.ts');
    const heavy = [...inputs].filter(
      (input) =>
        /^node_modules\/(drizzle-orm|pg|pg-boss|fastify|@fastify\/[^/]+|postcss|@lingui\/[^/]+)\//.test(
          input,
        ) || /^server\/(app|db\/client|db\/migrate|db\/schema\/.*)\.ts$/.test(input),
    );
    expect(heavy).toEqual([]);
    expect([...externals].filter((name) => !name.startsWith('node:'))).toEqual([]);

    // The app, on either database: node-postgres and pg-boss are imported for PostgreSQL only.
    const app = staticClosure(outputOf('server/app.ts'));
    expect(app.inputs).toContain('server/db/client.ts');
    expect(
      [...app.inputs].filter(
        (input) =>
          /^node_modules\/(pg|pg-boss|pg-pool|postcss|@lingui\/format-po|date-fns)\//.test(input) ||
          /^server\/(db\/postgres|jobs\/pg-boss-jobs)\.ts$/.test(input),
      ),
    ).toEqual([]);
    expect([...app.externals].filter((name) => ['sharp', 'tesseract.js'].includes(name))).toEqual([]);
  });
});
