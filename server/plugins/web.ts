import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LOCALES, type Locale } from '#common/locales.ts';
import { requestLocale } from '../lib/request-locale';
import { CRITICAL_CSS_FILE, type CriticalPiece } from './critical-css';
import { sendNotFound } from './error-handler';
import { itemPageHead, withItemHead } from './item-page-meta';
import { type BootScript, createPageRenderer, loadServerEntry } from './page-render';
import { cookieName } from './security';
import { SESSION_COOKIE } from './session';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const WEB_DIST = path.join(ROOT, 'dist/web');
const WEB_SOURCE = path.join(ROOT, 'web');

function wantsHtml(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = request.url.split('?', 1)[0] ?? '/';
  if (pathname.startsWith('/api/') || pathname === '/api') return false;
  // A missing file with an extension (/favicon.png, /assets/x.js) is a real 404, not a client route.
  if (path.extname(pathname) !== '') return false;
  return true;
}

/** The encodings the build writes beside each file (scripts/precompress.ts), best first. */
const ENCODINGS = [
  { name: 'br', extension: '.br' },
  { name: 'gzip', extension: '.gz' },
] as const;
type Encoding = (typeof ENCODINGS)[number]['name'];

/**
 * The best encoding the request accepts among those we have: brotli, then gzip; none for a missing
 * header, `identity` or `q=0`. `*` accepts any encoding not named.
 */
export function chooseEncoding(
  acceptEncoding: string | undefined,
  available: readonly Encoding[],
): Encoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [token = '', ...params] = part.trim().split(';');
    if (!token) continue;
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    const weight = q ? Number.parseFloat(q.slice(2)) : 1;
    weights.set(token.trim(), Number.isNaN(weight) ? 0 : weight);
  }
  let best: Encoding | null = null;
  let bestWeight = 0;
  for (const encoding of available) {
    const weight = weights.get(encoding) ?? weights.get('*') ?? 0;
    if (weight > bestWeight) {
      best = encoding;
      bestWeight = weight;
    }
  }
  return best;
}

/**
 * A member's screens start by asking who is signed in (GET /api/auth/user); with a session cookie the
 * page tells the browser to ask at once, beside the page's scripts, instead of after them (ADR 033).
 * Signed-out visitors get no hint (their answer would be a 401).
 */
export const CURRENT_USER_PRELOAD = '</api/auth/user>; rel=preload; as=fetch; crossorigin=use-credentials';

/**
 * Each language's first-screen messages (ADR 036, scripts/split-catalogues.ts): the page names the
 * one its visitor will read, so it loads beside the entry script instead of after it.
 */
function firstCatalogues(distDir: string): Map<Locale, string> {
  const files = new Map<Locale, string>();
  for (const locale of LOCALES) {
    const file = `locales/${locale}-first.json`;
    // A hand-made dist in tests may have none: no preload, the page still loads its messages.
    if (existsSync(path.join(distDir, file))) files.set(locale, `/${file}`);
  }
  return files;
}

/** The boot script (web/boot.ts), the chunks it imports and its helper, from the build's manifest. */
function bootScriptOf(distDir: string): BootScript | undefined {
  try {
    const manifest = JSON.parse(readFileSync(path.join(distDir, '.vite/manifest.json'), 'utf8')) as Record<
      string,
      { file?: string; imports?: string[] }
    >;
    const boot = manifest['boot.ts'];
    if (!boot?.file) return undefined;
    const imports = (boot.imports ?? []).map((key) => manifest[key]?.file);
    const helper = manifest['lib/import-chunk.ts']?.file;
    return {
      file: boot.file,
      imports: imports.filter((file): file is string => file !== undefined),
      ...(helper ? { helper } : {}),
    };
  } catch {
    return undefined;
  }
}

/**
 * The build's stylesheets' pieces by URL, as the web build cut them (CRITICAL_CSS_FILE, ADR 122); an
 * empty map when the file is missing or unreadable (pages then link their stylesheets as they are).
 */
function builtCriticalCss(distDir: string): Map<string, CriticalPiece[]> {
  try {
    const byUrl = JSON.parse(readFileSync(path.join(distDir, CRITICAL_CSS_FILE), 'utf8')) as Record<
      string,
      CriticalPiece[]
    >;
    return new Map(Object.entries(byUrl));
  } catch {
    return new Map();
  }
}

/** A rendered page, compressed as it goes out (brotli at a quick level: pages are 20-60 KB). */
function compressPage(html: string, encoding: Encoding): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
    : gzipSync(html, { level: 6 });
}

/** index.html and its compressed copies, read once at start. */
function readIndexHtml(indexFile: string): { identity: Buffer; encoded: Map<Encoding, Buffer> } {
  const encoded = new Map<Encoding, Buffer>();
  for (const { name, extension } of ENCODINGS) {
    if (existsSync(indexFile + extension)) encoded.set(name, readFileSync(indexFile + extension));
  }
  return { identity: readFileSync(indexFile), encoded };
}

/**
 * Start importing the server's build of the web app from its default place, when it is there
 * (main.ts, while the database opens): the web plugin's page renderer then finds it loaded.
 */
export function preloadServerEntry(distDir = WEB_DIST): void {
  const serverDir = path.join(distDir, '../server');
  // A failed import is reported where the page renderer awaits it; never unhandled here.
  if (existsSync(path.join(serverDir, 'entry-server.js'))) loadServerEntry(serverDir).catch(() => {});
}

/**
 * Serves the web app: in production the built files (hashed assets cached for a year, index.html
 * never cached) with an SPA fallback for client routes, each sent brotli- or gzip-compressed from the
 * copies the build wrote (ADR 033); in development Vite's middleware with hot reload.
 * Unknown API routes and missing files get a JSON 404.
 */
export async function webPlugin(
  app: FastifyInstance,
  {
    distDir = WEB_DIST,
    serverDir,
    devServer = false,
  }: { distDir?: string; serverDir?: string; devServer?: boolean } = {},
): Promise<void> {
  if (devServer) {
    const { default: middie } = await import('@fastify/middie');
    const { createServer } = await import('vite');
    await app.register(middie);
    const vite = await createServer({
      configFile: path.join(ROOT, 'vite.config.ts'),
      server: { middlewareMode: true, hmr: { server: app.server } },
      appType: 'custom',
    });
    app.use(vite.middlewares);
    app.addHook('onClose', async () => vite.close());
    app.setNotFoundHandler(async (request, reply) => {
      if (!wantsHtml(request)) return sendNotFound(request, reply);
      const template = readFileSync(path.join(WEB_SOURCE, 'index.html'), 'utf8');
      const html = await vite.transformIndexHtml(request.url, template);
      return reply.type('text/html; charset=utf-8').send(html);
    });
    return;
  }

  const indexFile = path.join(distDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn(`No web build at ${distDir}; run "npm run build". Serving the API only.`);
    app.setNotFoundHandler(async (request, reply) => sendNotFound(request, reply));
    return;
  }
  const indexHtml = readIndexHtml(indexFile);
  const catalogues = firstCatalogues(distDir);
  const criticalCss = builtCriticalCss(distDir);
  const renderPage = await createPageRenderer(app, {
    serverDir: serverDir ?? path.join(distDir, '../server'),
    template: indexHtml.identity.toString('utf8'),
    bootScript: bootScriptOf(distDir),
    readStylesheet: (href) => criticalCss.get(href),
  });
  await app.register(fastifyStatic, {
    root: distDir,
    prefix: '/',
    index: false,
    // One route per built file (globbed at start); every other path falls through to the SPA fallback.
    wildcard: false,
    // The .br and .gz copies are sent for their file (Vary: Accept-Encoding), never at their own path.
    preCompressed: true,
    globIgnore: ['**/*.br', '**/*.gz'],
    schemaHide: true,
    setHeaders(reply, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      const header = immutable ? 'public, max-age=31536000, immutable' : 'no-cache';
      reply.header('cache-control', header);
    },
  });
  app.setNotFoundHandler(async (request, reply) => {
    if (!wantsHtml(request)) return sendNotFound(request, reply);
    const encoding = chooseEncoding(request.headers['accept-encoding'], [...indexHtml.encoded.keys()]);
    reply
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding, accept-language, cookie')
      .type('text/html; charset=utf-8');
    const locale = requestLocale(request);
    // An item's page (issue 31): 404 when there is no such item to show, and its link preview's tags.
    const itemHead = await itemPageHead(app, request);
    if (itemHead) reply.code(itemHead.status);
    const rendered = renderPage && request.method === 'GET' ? await renderPage(request, locale) : null;
    if (rendered !== null) {
      const html = itemHead ? withItemHead(rendered.html, itemHead) : rendered.html;
      // The page carries the member's data: never kept by a shared cache or the browser's. Its
      // messages are asked for with its scripts, after the first paint (web/boot.ts), not with it;
      // its first photo beside it.
      reply.header('cache-control', 'private, no-store');
      if (rendered.firstPhoto) {
        reply.header('link', `<${rendered.firstPhoto}>; rel=preload; as=image; fetchpriority=high`);
      }
      if (!encoding) return reply.send(html);
      return reply.header('content-encoding', encoding).send(compressPage(html, encoding));
    }
    const links: string[] = [];
    const catalogue = catalogues.get(locale);
    if (catalogue) links.push(`<${catalogue}>; rel=preload; as=fetch; crossorigin`);
    if (request.cookies?.[cookieName(app.config, SESSION_COOKIE)]) links.push(CURRENT_USER_PRELOAD);
    if (links.length > 0) reply.header('link', links.join(', '));
    if (itemHead?.tags) {
      // The preview's tags are this item's: the page is written for it, not the shared copy.
      const html = withItemHead(indexHtml.identity.toString('utf8'), itemHead);
      if (!encoding) return reply.send(html);
      return reply.header('content-encoding', encoding).send(compressPage(html, encoding));
    }
    if (!encoding) return reply.send(indexHtml.identity);
    return reply.header('content-encoding', encoding).send(indexHtml.encoded.get(encoding));
  });
}
