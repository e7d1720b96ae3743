/**
 * Precompressed static files (ADR 033): after `vite build`, every text file of the build gets a brotli
 * (`.br`) and a gzip (`.gz`) sibling, which the server sends to browsers that accept them
 * (server/plugins/web.ts, @fastify/static's `preCompressed`). Compressing once at build time lets the
 * slowest settings (brotli 11, gzip 9) cost nothing per request.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Files worth compressing: text. Images and fonts are compressed already. */
export const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml|map)$/i;
/** Below this a compressed copy saves less than a packet. */
export const MIN_BYTES = 1024;

export interface CompressedFile {
  file: string;
  bytes: number;
  br: number | null;
  gzip: number | null;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    // .vite/manifest.json is build metadata, never served (dot files are not).
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await listFiles(full)));
    else if (entry.isFile()) files.push(full);
  }
  return files;
}

/**
 * Writes `file.br` and `file.gz` beside every compressible file of `dir` of at least MIN_BYTES,
 * each only when it is smaller than the file. Returns what it wrote (sizes in bytes, null when the
 * copy would not be smaller).
 */
export async function precompressDirectory(dir: string): Promise<CompressedFile[]> {
  const files = (await listFiles(dir)).filter((file) => COMPRESSIBLE.test(file));
  const results = await Promise.all(
    files.map(async (file): Promise<CompressedFile | null> => {
      const { size } = await stat(file);
      if (size < MIN_BYTES) return null;
      const content = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(content, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: size,
          },
        }),
        gzipAsync(content, { level: 9 }),
      ]);
      const written: CompressedFile = { file: path.relative(dir, file), bytes: size, br: null, gzip: null };
      if (br.length < size) {
        await writeFile(`${file}.br`, br);
        written.br = br.length;
      }
      if (gz.length < size) {
        await writeFile(`${file}.gz`, gz);
        written.gzip = gz.length;
      }
      return written;
    }),
  );
  return results.filter((result): result is CompressedFile => result !== null);
}

/**
 * The Vite plugin: compresses the output directory once everything is written, after any other
 * plugin's files (a service worker written when the bundle closes).
 */
export function precompress(): Plugin {
  let config: ResolvedConfig | undefined;
  return {
    name: 'barterhood:precompress',
    apply: 'build',
    // The browser's build only, not the server's render (vite.config.ts).
    applyToEnvironment: (environment) => environment.name === 'client',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        if (!config || config.build.ssr) return;
        const outDir = path.resolve(config.root, config.build.outDir);
        const written = await precompressDirectory(outDir);
        config.logger.info(`precompressed ${written.length} files (brotli and gzip)`);
      },
    },
  };
}
