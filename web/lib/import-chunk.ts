/**
 * Every `import()` in the web app goes through `importChunk` (issue 27, ADR 052;
 * web/i18n/lazy-imports.test.ts holds every file to it): a script chunk that fails to arrive (a
 * busy server's 503, a phone's dropped connection, a deploy that replaced the files) is asked for
 * once more, then the page says so with a Reload button (web/components/layout/route-error-boundary.tsx)
 * instead of staying blank.
 *
 * The browser keeps a failed module in its module map: importing the same URL again fails at once
 * without a request. So the second try imports the URL the browser named in its error with a query
 * added (`?retry=...`), which is a new module to the browser and a fresh request to the server; the
 * chunks it imports in turn keep their URLs, so they are the same modules as everywhere else. A
 * browser whose error names no URL (Safari) gets the same import asked for again.
 */

/** A chunk that did not arrive, twice: only a full reload brings the app's code back together. */
export class ChunkLoadError extends Error {
  override name = 'ChunkLoadError';
  constructor(
    /** The module's URL, when the browser named it. */
    readonly url: string | undefined,
    cause: unknown,
  ) {
    super(`A part of the app did not load${url ? ` (${url})` : ''}`, { cause });
  }
}

/** Fired on `window` when a chunk failed twice (the page shows the Reload message, ADR 052). */
export const CHUNK_FAILED_EVENT = 'barterhood:chunk-failed';

/** How the second try imports a URL, and how the page reloads; tests replace them (they need a browser). */
export const chunkTransport: { importUrl: (url: string) => Promise<unknown>; reload: () => void } = {
  importUrl: (url) => import(/* @vite-ignore */ url),
  reload: () => window.location.reload(),
};

/** Second tries that arrived, by the module's URL: a module is evaluated once, however often asked for. */
const arrived = new Map<string, Promise<unknown>>();

/**
 * The module's URL from the browser's error: Chromium's "Failed to fetch dynamically imported
 * module: URL", Firefox's "error loading dynamically imported module: URL". Only a script of this
 * page's own origin is asked for again.
 */
export function failedModuleUrl(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : String(error);
  const found = /\b(https?:\/\/[^\s'"]+)/.exec(message)?.[1]?.replace(/[.,;:)]+$/, '');
  if (!found || typeof location === 'undefined') return undefined;
  try {
    const url = new URL(found);
    return url.origin === location.origin ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function withRetryQuery(url: string): string {
  const fresh = new URL(url);
  fresh.searchParams.set('retry', Date.now().toString(36));
  return fresh.href;
}

function secondTry<T>(load: () => Promise<T>, url: string | undefined): Promise<T> {
  if (!url) return load();
  let second = arrived.get(url);
  if (!second) {
    second = chunkTransport.importUrl(withRetryQuery(url));
    arrived.set(url, second);
    second.catch(() => arrived.delete(url));
  }
  return second as Promise<T>;
}

/**
 * A part of the app that did not arrive (its code, twice, or its messages): the error the Reload
 * message is shown for, and, unless `quiet`, CHUNK_FAILED_EVENT for the page's notice.
 */
export function chunkFailed(url: string | undefined, cause: unknown, { quiet = false } = {}): ChunkLoadError {
  const error = new ChunkLoadError(url, cause);
  if (!quiet && typeof window !== 'undefined') {
    window.dispatchEvent(new CustomEvent(CHUNK_FAILED_EVENT, { detail: error }));
  }
  return error;
}

/**
 * `load` is `() => import('...')` and nothing more (the retry imports the same module by its URL, so
 * it must resolve to the module itself); pick from the module in a `.then` after it. Rejects with a
 * `ChunkLoadError` (and fires CHUNK_FAILED_EVENT) when the second try fails too; with `quiet`, only
 * rejects (for work nobody sees, such as registering the service worker).
 */
export function importChunk<T>(load: () => Promise<T>, { quiet = false } = {}): Promise<T> {
  return load().catch((first: unknown) =>
    secondTry(load, failedModuleUrl(first)).catch((second: unknown) => {
      throw chunkFailed(failedModuleUrl(first) ?? failedModuleUrl(second), second, { quiet });
    }),
  );
}

/** A full reload: the page and every chunk asked for anew (the Reload button). */
export function reloadPage(): void {
  chunkTransport.reload();
}
