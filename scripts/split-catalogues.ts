/**
 * The build's message catalogues, in two parts per language (ADR 036):
 *
 * - `locales/<locale>-first.json`: every message the first screens use (the entry chunk, the pages
 *   named in `firstScreens` and everything they import statically, found by the message ids in
 *   their code) and the category names the server sends. The page loads it before its first render,
 *   so it counts in the route's budget (scripts/bundle-budget.ts).
 * - `locales/<locale>-rest.json`: all the other messages, loaded beside the first render; every
 *   lazily loaded screen or dialog waits for it (`withMessages`, web/i18n/i18n.ts).
 *
 * The build fails when the code uses a message the catalogue lacks or a language lacks a
 * translation. `vite serve` and the tests import the whole `.po` files instead (@lingui/vite-plugin).
 */
import path from 'node:path';
import { createCompiledCatalog, getCatalogs } from '@lingui/cli/api';
import { getConfig } from '@lingui/conf';
import type { OutputChunk } from 'rolldown';
import type { Plugin } from 'vite';
import { GOODS_CATEGORIES, SERVICE_CATEGORIES } from '#common/categories.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Where the built catalogues are served from (outside /assets/: their names carry no hash). */
export const CATALOGUE_PATH = (locale: string, part: 'first' | 'rest') => `locales/${locale}-${part}.json`;

/**
 * Message ids in built code: the macros leave `{id:"…"}` objects (`i18n._`, `t`) and `id` props
 * (`<Trans id="…">`), in any quotes. Other `id:` strings are harmless: only catalogue ids count.
 */
export function messageIdsIn(code: string): Set<string> {
  const ids = new Set<string>();
  for (const match of code.matchAll(/\bid:\s*(["'`])((?:\\.|(?!\1)[^\\])+)\1/g)) ids.add(match[2] as string);
  return ids;
}

/** The chunks a page loads before its first render: the entries' and `pages`' static imports. */
export function firstScreenChunks(chunks: OutputChunk[], pages: readonly string[]): OutputChunk[] {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const isPage = (chunk: OutputChunk, page: string) =>
    chunk.facadeModuleId?.split(path.sep).join('/').endsWith(page) === true;
  const starts = chunks.filter((chunk) => chunk.isEntry || pages.some((page) => isPage(chunk, page)));
  const missing = pages.filter((page) => !starts.some((chunk) => isPage(chunk, page)));
  if (missing.length > 0 || !starts.some((chunk) => chunk.isEntry)) {
    throw new Error(
      `Expected the entry and ${pages.join(', ')} among the chunks; missing ${missing.join(', ')}`,
    );
  }
  const seen = new Set<OutputChunk>();
  const visit = (chunk: OutputChunk | undefined) => {
    if (!chunk || seen.has(chunk)) return;
    seen.add(chunk);
    for (const file of chunk.imports) visit(byFile.get(file));
  };
  for (const chunk of starts) visit(chunk);
  return [...seen];
}

export function splitCatalogues({ firstScreens }: { firstScreens: string[] }): Plugin {
  return {
    name: 'barterhood:split-catalogues',
    apply: 'build',
    // The browser's build only, not the server's render (vite.config.ts).
    applyToEnvironment: (environment) => environment.name === 'client',
    async generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((file): file is OutputChunk => file.type === 'chunk');
      const firstIds = new Set<string>([...GOODS_CATEGORIES, ...SERVICE_CATEGORIES]);
      for (const chunk of firstScreenChunks(chunks, firstScreens)) {
        for (const id of messageIdsIn(chunk.code)) firstIds.add(id);
      }
      const usedIds = new Set<string>();
      for (const chunk of chunks) for (const id of messageIdsIn(chunk.code)) usedIds.add(id);

      const config = getConfig({ cwd: ROOT, skipValidation: true });
      const [catalog] = await getCatalogs(config);
      if (!catalog) throw new Error('lingui.config.ts names no catalogue');
      for (const locale of config.locales) {
        const { messages, missing } = await catalog.getTranslations(locale, {
          sourceLocale: config.sourceLocale ?? 'en',
          fallbackLocales: {},
        });
        if (missing.length > 0) {
          this.error(
            `${missing.length} messages have no ${locale} translation, e.g. "${missing[0]?.source ?? missing[0]?.id}". ` +
              'Run npm run i18n:extract and translate them in web/locales/.',
          );
        }
        if (locale === config.sourceLocale) {
          // Ids are hashes of messages the catalogue has; one the code uses but the catalogue lacks
          // means the catalogues were not extracted after a text changed.
          // (A lower-case word like "dialog" may be a DOM id: not checked.)
          const unknown = [...usedIds].filter(
            (id) => /^[A-Za-z0-9+/]{6}$/.test(id) && !/^[a-z]+$/.test(id) && !(id in messages),
          );
          if (unknown.length > 0) {
            this.error(
              `The code uses ${unknown.length} messages the catalogues lack: run npm run i18n:extract.`,
            );
          }
        }
        const parts = { first: {} as Record<string, string>, rest: {} as Record<string, string> };
        for (const [id, text] of Object.entries(messages))
          parts[firstIds.has(id) ? 'first' : 'rest'][id] = text;
        for (const part of ['first', 'rest'] as const) {
          const { source, errors } = createCompiledCatalog(locale, parts[part], {
            namespace: 'json',
            strict: true,
          });
          if (errors.length > 0) {
            this.error(`A ${locale} message does not compile: "${errors[0]?.source}" (${errors[0]?.error})`);
          }
          this.emitFile({ type: 'asset', fileName: CATALOGUE_PATH(locale, part), source });
        }
      }
    },
  };
}
