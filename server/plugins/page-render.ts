/**
 * The server's render of a member's first screens (ADR 037): the feed, the profile, a barter page
 * and an item's page (issue 31), and the landing page, rendered by the web app's own code (web/entry-server.tsx, built into
 * dist/server) with the data the page will ask for, so a phone paints them before any script runs;
 * the browser then hydrates the same tree with the same data.
 *
 * The page's API reads go through `app.inject` with the visitor's cookies: the same routes, checks
 * and answers as from the browser. Renders run one at a time (the web code keeps the language and
 * the API transport as module state) and each is bounded: a render that fails or takes too long, or
 * that load shedding would refuse as costly work, leaves the page to the browser, as without it; a
 * visitor never sees an error for it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { QueryClient } from '@tanstack/react-query';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Locale } from '#common/locales.ts';
import { type CriticalPiece, classesInHtml, criticalCss } from './critical-css';

/** The pages rendered on the server: those a member opens first. Others render in the browser. */
const RENDERED_PAGES = [/^\/$/, /^\/profile$/, /^\/barters\/\d{1,12}$/, /^\/items\/\d{1,12}$/];

/** A render pass that takes longer than this leaves the page to the browser. */
const RENDER_TIMEOUT_MS = 1_500;

/** Renders waiting beyond this many: the page goes to the browser undrawn rather than wait. */
const MAX_QUEUED_RENDERS = 4;

interface EntryServer {
  render(
    request: { url: string; locale: Locale; fetch: typeof fetch; timeoutMs: number },
    createClient: () => QueryClient,
  ): Promise<{ html: string; state: unknown; errors: unknown[] }>;
  createQueryClient(): QueryClient;
  /** Classes the app may draw before the member's first reach: always in a drawn page's styles (ADR 113). */
  UNPROMPTED_CLASSES?: readonly string[];
}

/** `<` and the line separators written so the JSON cannot end its script element or break a line. */
export function jsonForHtml(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The script that starts a drawn page's app (web/boot.ts) and the chunks it imports, as built. */
export interface BootScript {
  /** Its path in the build (`assets/boot-*.js`). */
  file: string;
  /** The paths of the chunks it imports statically. */
  imports: string[];
  /** The path of the helper it imports with the app's chunks (web/lib/import-chunk.ts, ADR 115). */
  helper?: string;
}

/** A stylesheet the drawn pages carry only the needed part of, and the whole of it after their scripts. */
export interface DeferredStylesheet {
  href: string;
  /** Its rules a page with these classes needs (critical-css.ts). */
  critical: (classes: ReadonlySet<string>) => string;
}

/** Where a deferred stylesheet's part goes in the page: the link's place, so the rules' order stays. */
const criticalMarker = (index: number) => `<style data-critical="${index}"></style>`;

/**
 * The page's stylesheets deferred (ADR 094): each `<link rel="stylesheet">` whose pieces `read` gives
 * (cut when the web app was built, ADR 122) becomes a marker its needed part replaces for each page
 * (`withCriticalCss`), and the whole file is asked for by web/boot.ts with the scripts. A link `read`
 * has no pieces for stays as it is.
 */
export function deferStylesheets(
  template: string,
  read: (href: string) => readonly CriticalPiece[] | undefined,
): { page: string; stylesheets: DeferredStylesheet[] } {
  const stylesheets: DeferredStylesheet[] = [];
  const page = template.replace(
    /<link rel="stylesheet" crossorigin href="([^"]+)">/g,
    (tag, href: string) => {
      const pieces = read(href);
      if (pieces === undefined) return tag;
      stylesheets.push({ href, critical: criticalCss(pieces) });
      return criticalMarker(stylesheets.length - 1);
    },
  );
  return { page, stylesheets };
}

/**
 * The page with each deferred stylesheet's part for the classes it uses written in, and for `always`:
 * the classes of what the app may draw on its own before the whole stylesheet applies (ADR 113).
 */
export function withCriticalCss(
  page: string,
  stylesheets: readonly DeferredStylesheet[],
  always: readonly string[] = [],
): string {
  if (stylesheets.length === 0) return page;
  const classes = classesInHtml(page);
  for (const name of always) classes.add(name);
  return stylesheets.reduce(
    (html, stylesheet, index) =>
      html.replace(criticalMarker(index), () => `<style>${stylesheet.critical(classes)}</style>`),
    page,
  );
}

/**
 * On a touch phone, a drawn page's scroll indicator is not drawn while the page starts (ADR 112): a
 * page that scrolls when first drawn shows its overlay scrollbar and fades it out, about twenty
 * frames composed in the 350 ms the app's scripts start in. web/boot.ts removes this style with the
 * whole stylesheet, at the member's first touch, key, focus or history step, or once the page has
 * settled; from then on the indicator shows whenever the member scrolls, as before. Without
 * JavaScript (nothing would remove it) the style does not apply.
 */
export const STARTING_STYLE =
  '<style data-starting>@media (hover: none) and (pointer: coarse) and (scripting: enabled) { html { scrollbar-width: none } }</style>';

/**
 * The page with its scripts asked for after it has painted (web/boot.ts): the entry script and its
 * module preloads leave the head for a list the boot script reads, with the deferred stylesheets, the
 * classes their parts are written for beyond the page's own (`unprompted`) and the web app manifest.
 * Without this, a phone on a slow line shares it between the page and 150 KB of script before
 * anything shows. The boot script's own imports are preloaded beside it, so the browser asks for
 * them with it and not after it has arrived: one round trip less before the app starts.
 */
export function deferScripts(
  template: string,
  boot: BootScript,
  styles: readonly string[] = [],
  unprompted: readonly string[] = [],
): string {
  const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(template);
  if (!entry?.[1]) throw new Error('The page has no entry script');
  const preload: string[] = [];
  const page = template
    .replace(entry[0], '')
    .replace(/<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g, (_tag, href: string) => {
      preload.push(href);
      return '';
    });
  // The web app manifest is for installing the app, not for painting the page: listed for the app,
  // which links it a few seconds after it has started (web/main.tsx, ADR 109).
  let manifest: string | undefined;
  const withoutManifest = page.replace(/<link rel="manifest" href="([^"]+)">\s*/, (_tag, href: string) => {
    manifest = href;
    return '';
  });
  const bootImports = boot.imports.map((file) => `<link rel="modulepreload" href="/${file}">`).join('');
  const scripts = {
    entry: entry[1],
    ...(boot.helper ? { helper: `/${boot.helper}` } : {}),
    preload,
    styles,
    // The classes each page's part is written for beyond its own (withCriticalCss's `always`): boot
    // applies the whole stylesheet at once when the app draws any other (web/boot.ts, ADR 119).
    ...(styles.length > 0 && unprompted.length > 0 ? { unprompted } : {}),
    ...(manifest ? { manifest } : {}),
  };
  return withoutManifest
    .replace('</head>', () => `${STARTING_STYLE}</head>`)
    .replace(
      '</body>',
      () =>
        `<script type="application/json" id="app-scripts">${jsonForHtml(scripts)}</script>` +
        `${bootImports}<script type="module" src="/${boot.file}"></script></body>`,
    );
}

/**
 * The page with the drawn screen and its data in place. Replaced through functions: a member's text
 * in the screen or the data (an item called "$'", say) is never read as a replacement pattern.
 */
export function assemblePage(page: string, locale: Locale, html: string, state: unknown): string {
  return page
    .replace('<html lang="en">', () => `<html lang="${locale}">`)
    .replace(
      '<div id="root"></div>',
      () =>
        `<div id="root">${html}</div><script type="application/json" id="page-data">${jsonForHtml(state)}</script>`,
    );
}

export function isRenderedPage(url: string): boolean {
  const pathname = url.split('?', 1)[0] ?? '';
  return RENDERED_PAGES.some((pattern) => pattern.test(pathname));
}

/** A drawn page, and the photo its first screen shows first (to name in a preload header). */
export interface RenderedPage {
  html: string;
  firstPhoto: string | null;
}

export type PageRenderer = (request: FastifyRequest, locale: Locale) => Promise<RenderedPage | null>;

/**
 * The photo the screen marks as its first (`fetchpriority="high"`, the feed's first card), when it
 * is one of ours: the page names it in a `Link` header so it loads beside the page, not after it.
 */
export function firstPhotoOf(html: string): string | null {
  const image = /<img\b[^>]*\bfetchpriority="high"[^>]*>/.exec(html)?.[0];
  const src = image ? /\bsrc="([^"]+)"/.exec(image)?.[1] : undefined;
  return src && /^\/photos\/[A-Za-z0-9_-]{1,100}\.(?:webp|jpe?g|png|avif)$/.test(src) ? src : null;
}

/**
 * The server's build of the web app (`entry-server.js` in `serverDir`). Node's module loader imports
 * it once, so main.ts can start the import while the database opens (prepareApp) and
 * createPageRenderer later awaits the same module.
 */
export function loadServerEntry(serverDir: string): Promise<EntryServer> {
  return import(pathToFileURL(path.join(serverDir, 'entry-server.js')).href) as Promise<EntryServer>;
}

/**
 * The renderer for the build in `serverDir`, or null when there is none (a build without it, tests
 * with a hand-made dist). It returns the page's full HTML, or null to send the plain page.
 */
export async function createPageRenderer(
  app: FastifyInstance,
  {
    serverDir,
    template,
    bootScript,
    readStylesheet,
  }: {
    serverDir: string;
    template: string;
    bootScript: BootScript | undefined;
    /** A stylesheet's pieces by its URL, for the part of it the drawn pages carry (`deferStylesheets`). */
    readStylesheet: (href: string) => readonly CriticalPiece[] | undefined;
  },
): Promise<PageRenderer | null> {
  const entryFile = path.join(serverDir, 'entry-server.js');
  if (!existsSync(entryFile) || !bootScript || !template.includes('<div id="root"></div>')) return null;
  let entry: EntryServer;
  try {
    entry = await loadServerEntry(serverDir);
  } catch (error) {
    app.log.warn({ err: error }, 'the server cannot draw pages (dist/server did not load); the browser will');
    return null;
  }
  const deferred = deferStylesheets(template, readStylesheet);
  const unprompted = [...new Set(entry.UNPROMPTED_CLASSES ?? [])];
  const page = deferScripts(
    deferred.page,
    bootScript,
    deferred.stylesheets.map((stylesheet) => stylesheet.href),
    unprompted,
  );
  let queue: Promise<unknown> = Promise.resolve();
  let queued = 0;

  return async (request, locale) => {
    if (!isRenderedPage(request.url)) return null;
    // Under a burst, the browser draws the page: no visitor waits in a line of renders. Nor under
    // load: a render is costly work on the main thread (its reads and React's pass), so when a
    // costly request would be shed the page goes out undrawn, never a 503 (ADR 051).
    if (queued >= MAX_QUEUED_RENDERS || app.loadShedding.wouldShed('costly')) return null;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (request.headers.cookie) headers.cookie = request.headers.cookie;
    if (request.headers['user-agent']) headers['user-agent'] = request.headers['user-agent'];
    const viaServer: typeof fetch = async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      // Only the page's own reads: same-origin paths under /api/.
      if (!url.startsWith('/api/') || (init?.method ?? 'GET') !== 'GET') {
        throw new Error(`The server's render does not call ${init?.method ?? 'GET'} ${url}`);
      }
      const response = await app.inject({ method: 'GET', url, headers, remoteAddress: request.ip });
      return new Response(new Uint8Array(response.rawPayload), {
        status: response.statusCode,
        headers: { 'content-type': String(response.headers['content-type'] ?? 'application/json') },
      });
    };
    queued++;
    const run = queue.then(() =>
      entry.render(
        { url: request.url, locale, fetch: viaServer, timeoutMs: RENDER_TIMEOUT_MS },
        entry.createQueryClient,
      ),
    );
    queue = run
      .catch(() => undefined)
      .finally(() => {
        queued--;
      });
    try {
      const { html, state, errors } = await run;
      for (const error of errors)
        request.log.warn({ err: error }, 'a part of the page was left to the browser');
      return {
        html: withCriticalCss(assemblePage(page, locale, html, state), deferred.stylesheets, unprompted),
        firstPhoto: firstPhotoOf(html),
      };
    } catch (error) {
      request.log.warn({ err: error }, 'the server could not render the page; the browser will');
      return null;
    }
  };
}
