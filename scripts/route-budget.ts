/**
 * The JavaScript a route loads before it can paint (ADR 033), read from Vite's build manifest: the
 * entry chunk, the route's lazy page chunks, and every chunk those import statically, each once.
 * Dynamic imports (dialogs, forms, other pages) load later and do not count.
 */

/** One chunk of `dist/web/.vite/manifest.json`. */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

export type Manifest = Record<string, ManifestChunk>;

/** A route as the router loads it: the entry, then its page chunks (keys of the manifest). */
export interface RouteDefinition {
  name: string;
  /** Manifest keys of the lazy chunks the route renders, e.g. `app/pages/home-page.tsx`. */
  pages: string[];
  /** Whether going over the budget fails the check (otherwise it is reported only). */
  enforced: boolean;
}

/** The manifest key of the page's entry chunk (index.html's script). */
export function entryKey(manifest: Manifest): string {
  const entries = Object.entries(manifest).filter(
    ([key, chunk]) => chunk.isEntry && key.endsWith('index.html'),
  );
  if (entries.length !== 1)
    throw new Error(`Expected one index.html entry chunk in the Vite manifest, found ${entries.length}`);
  return (entries[0] as [string, ManifestChunk])[0];
}

/** The script that starts a page the server drew (web/boot.ts, ADR 037), when the build has one. */
const BOOT_KEY = 'boot.ts';

/**
 * The JavaScript files a route loads before its first paint: the entry and `pages`, and everything
 * they import statically (transitively, each once, in the order first reached). Throws for a page
 * the manifest does not have, so a renamed page cannot slip out of the check.
 */
export function routeChunks(manifest: Manifest, pages: readonly string[]): string[] {
  const roots = [entryKey(manifest), ...(manifest[BOOT_KEY] ? [BOOT_KEY] : []), ...pages];
  return staticClosure(manifest, roots)
    .map((key) => (manifest[key] as ManifestChunk).file)
    .filter((file) => file.endsWith('.js') || file.endsWith('.mjs'));
}

/** The manifest keys of `roots` and of all they import statically (transitively, each once, in the order first reached). */
function staticClosure(manifest: Manifest, roots: readonly string[]): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The Vite manifest has no chunk "${key}"`);
    seen.add(key);
    for (const next of chunk.imports ?? []) visit(next);
  };
  for (const root of roots) visit(root);
  return [...seen];
}

/**
 * What the boot script and its static imports weigh: the page names them in its head (modulepreload,
 * server/plugins/page-render.ts), so they travel beside the first screen's text and photo. A build
 * that put the boot script's helper into the app's chunk made every page preload the whole app
 * before its first paint (FCP 1.05 s to 1.65 s in Lighthouse, 2026-11-30).
 */
export function bootChunks(manifest: Manifest): string[] {
  if (!manifest[BOOT_KEY]) return [];
  return staticClosure(manifest, [BOOT_KEY]).map((key) => (manifest[key] as ManifestChunk).file);
}

/** The stylesheets the same chunks bring (reported beside the script). */
export function routeStylesheets(manifest: Manifest, pages: readonly string[]): string[] {
  const files = new Set(routeChunks(manifest, pages));
  const css = new Set<string>();
  for (const chunk of Object.values(manifest)) {
    if (files.has(chunk.file)) for (const sheet of chunk.css ?? []) css.add(sheet);
  }
  return [...css];
}

/**
 * The entry's imports as the page lists them (index.html's module preloads, which web/boot.ts
 * evaluates one a task before the entry, ADR 105) that come before a chunk they import: such a
 * chunk would be evaluated with its importer, in the same task. Empty when every chunk comes after
 * all it imports.
 */
export function stagesOutOfOrder(manifest: Manifest, preloads: readonly string[]): string[] {
  const keyOf = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));
  const problems: string[] = [];
  preloads.forEach((file, index) => {
    const key = keyOf.get(file);
    if (!key) {
      problems.push(`${file} is not in the build's manifest`);
      return;
    }
    for (const imported of staticClosure(manifest, [key]).slice(1)) {
      const importedFile = (manifest[imported] as ManifestChunk).file;
      if (preloads.indexOf(importedFile) > index)
        problems.push(`${file} comes before ${importedFile}, which it imports`);
    }
  });
  return problems;
}
