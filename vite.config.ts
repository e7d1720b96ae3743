import path from 'node:path';
import { lingui } from '@lingui/vite-plugin';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { pwa } from './pwa.config';
import { criticalCssBuild } from './scripts/critical-css-build';
import { linguiMacros } from './scripts/lingui-macros';
import { precompress } from './scripts/precompress';
import { splitCatalogues } from './scripts/split-catalogues';

/** The boot script and the modules only it imports: built into its own file (ADR 115, ADR 119). */
const BOOT_ONLY = /(web[\\/]boot|web[\\/]lib[\\/]unstyled-watch|common[\\/]css-classes)\.ts$/;

/** The web app: built into dist/web and served by the Fastify server (server/plugins/web.ts). */
export default defineConfig({
  root: 'web',
  publicDir: 'public',
  // Lingui (ADR 036): macros turned into catalogue lookups by Babel (only in files that import a
  // macro), catalogues compiled on import; a message without a Spanish translation fails the build.
  plugins: [
    react(),
    lingui({ failOnMissing: process.env.LINGUI_ALLOW_MISSING !== '1' }),
    linguiMacros(),
    // The built catalogues in two parts per language: the feed's first screen and the rest.
    splitCatalogues({ firstScreens: ['web/app/pages/home-page.tsx'] }),
    tailwindcss(),
    precompress(),
    // The drawn pages' stylesheet pieces, cut once here rather than at each start (ADR 122).
    criticalCssBuild(),
    ...pwa(),
    {
      // The server's render built with React's production build only (ADR 116): its packages pick
      // their build by process.env.NODE_ENV at run time, so the bundle carried both, and every start
      // of the server compiled the development build's 400 KB too. `npm run dev` keeps both.
      name: 'server-render-production-react',
      apply: 'build',
      configEnvironment(name) {
        if (name === 'ssr') return { define: { 'process.env.NODE_ENV': JSON.stringify('production') } };
        return undefined;
      },
    },
  ],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    target: 'es2022',
    // Lazily loaded code is not preceded by a <link rel=modulepreload> per dependency: adding them
    // to the head cost a drawn page more main-thread time than the round trip it saves (ADR 037).
    modulePreload: { resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []) },
    rollupOptions: {
      // The page, and the small script that starts it on a page the server drew (ADR 037), and the
      // helper that script imports by URL once the page has painted (ADR 115): an entry of its own,
      // so its exports keep their names (a chunk's are renamed) and boot asks for nothing before the
      // paint but itself.
      input: {
        index: path.resolve(import.meta.dirname, 'web/index.html'),
        boot: path.resolve(import.meta.dirname, 'web/boot.ts'),
        'import-chunk': path.resolve(import.meta.dirname, 'web/lib/import-chunk.ts'),
      },
      preserveEntrySignatures: 'exports-only',
      output: {
        // Runtime pieces nearly every screen draws with (the icons and Lingui's <Trans>) in one
        // chunk, whichever lazy screen imports which: left to the automatic split, a screen that
        // uses one and not the other gave each a chunk of its own, one more request and its
        // wrapper on the feed's first screen (ADR 033).
        codeSplitting: {
          groups: [
            // What every page loads before it starts, in the entry's one chunk (ADR 099): left to the
            // automatic split, each module the entry shares with a lazy page had a chunk of its own
            // (17 of them, 0.1-10 KB), each a request, a compile and a link on a page's main thread.
            // The boot script's helper (an entry, above) stays apart: in the app's chunk, every drawn
            // page would ask for the whole app beside its first screen (npm run test:budget checks
            // the boot script's size).
            {
              name: 'import-chunk',
              test: /web[\\/]lib[\\/]import-chunk\.ts$/,
              priority: 3,
            },
            {
              name: 'react',
              tags: ['$initial'],
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/,
              priority: 2,
            },
            {
              name: 'vendor',
              tags: ['$initial'],
              test: /node_modules[\\/]/,
              priority: 2,
            },
            {
              // Not the boot script, nor what it imports alone (web/lib/unstyled-watch.ts and
              // common/css-classes.ts): boot asks for nothing before the paint but itself (ADR 115;
              // npm run test:budget counts what it imports).
              name: 'app',
              tags: ['$initial'],
              test: (id: string) => !BOOT_ONLY.test(id),
              priority: 2,
            },
            {
              name: 'ui-runtime',
              test: /node_modules[\\/](@lingui[\\/]react[\\/]|lucide-react[\\/]dist[\\/]esm[\\/](?!icons[\\/]))/,
            },
          ],
        },
      },
    },
  },
  // `vite build` builds the browser's app, then the server's render of the first screens (ADR 037):
  // web/entry-server.tsx into dist/server, for server/plugins/page-render.ts.
  environments: {
    ssr: {
      resolve: { noExternal: true },
      build: {
        outDir: '../dist/server',
        emptyOutDir: true,
        copyPublicDir: false,
        sourcemap: false,
        target: 'node20',
        rollupOptions: { input: 'entry-server.tsx' },
      },
    },
  },
  builder: {
    async buildApp(builder) {
      for (const name of ['client', 'ssr']) {
        const environment = builder.environments[name];
        if (environment) await builder.build(environment);
      }
    },
  },
});
