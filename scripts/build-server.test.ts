import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
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

/**
 * What a start loads before PGlite's thread starts (ADR 122): main.ts's static imports, followed
 * through the compiled chunks. Drizzle, pg, Fastify and the app load after, while the thread opens
 * the database; so do pino, sharp and PGlite's own module (in its thread).
 */
describe("a start's first modules", () => {
  it("start PGlite's thread without loading the database client, the app or the logger", async () => {
    const { build } = await import('esbuild');
    const result = await build({
      entryPoints: { main: 'server/main.ts' },
      outdir: '/tmp/barterhood-first-modules',
      write: false,
      bundle: true,
      splitting: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      external: Object.keys(RUN_TIME_PACKAGES),
      metafile: true,
      logLevel: 'silent',
    });
    const outputs = result.metafile.outputs;
    const entry = Object.keys(outputs).find((file) => outputs[file]?.entryPoint === 'server/main.ts');
    const inputs = new Set<string>();
    const externals = new Set<string>();
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const output = outputs[file];
      if (!output) return;
      for (const input of Object.keys(output.inputs)) inputs.add(input);
      for (const imported of output.imports) {
        if (imported.kind !== 'import-statement') continue;
        if (imported.external) externals.add(imported.path);
        else visit(imported.path);
      }
    };
    visit(entry ?? '');
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
  });
});
