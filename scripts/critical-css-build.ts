/**
 * The drawn pages' stylesheet pieces, cut when the web app is built (ADR 122): once `vite build` has
 * written the browser's app, each stylesheet under assets/ is cut into its pieces
 * (server/plugins/critical-css-pieces.ts) and they are written to dist/web/.vite/critical-css.json by
 * the stylesheet's URL. The server reads that file at start instead of parsing the stylesheet
 * (server/plugins/web.ts). A stylesheet postcss cannot read, or whose text would end a style element,
 * is left out: pages link it as it is.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';
import { CRITICAL_CSS_FILE, type CriticalPiece } from '../server/plugins/critical-css';
import { criticalPieces } from '../server/plugins/critical-css-pieces';

/** Every stylesheet under `outDir`/assets cut into pieces, by its URL; written to CRITICAL_CSS_FILE. */
export async function writeCriticalCss(outDir: string): Promise<Record<string, CriticalPiece[]>> {
  const assets = path.join(outDir, 'assets');
  const byUrl: Record<string, CriticalPiece[]> = {};
  for (const name of (await readdir(assets)).filter((file) => file.endsWith('.css')).sort()) {
    const css = await readFile(path.join(assets, name), 'utf8');
    if (/<\/style/i.test(css)) continue;
    try {
      byUrl[`/assets/${name}`] = criticalPieces(css);
    } catch {
      // Not a stylesheet postcss can read: linked as it is.
    }
  }
  const file = path.join(outDir, CRITICAL_CSS_FILE);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(byUrl));
  return byUrl;
}

/** The Vite plugin: after the browser's build is written (not the server's render). */
export function criticalCssBuild(): Plugin {
  let config: ResolvedConfig | undefined;
  return {
    name: 'barterhood:critical-css',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        if (!config || config.build.ssr) return;
        await writeCriticalCss(path.resolve(config.root, config.build.outDir));
      },
    },
  };
}
