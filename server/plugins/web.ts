import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendNotFound } from './error-handler';

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

/**
 * Serves the web app: in production the built files (hashed assets cached for a year, index.html
 * never cached) with an SPA fallback for client routes; in development Vite's middleware with hot reload.
 * Unknown API routes and missing files get a JSON 404.
 */
export async function webPlugin(
  app: FastifyInstance,
  { distDir = WEB_DIST, devServer = false }: { distDir?: string; devServer?: boolean } = {},
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
  const indexHtml = readFileSync(indexFile);
  await app.register(fastifyStatic, {
    root: distDir,
    prefix: '/',
    index: false,
    // One route per built file (globbed at start); every other path falls through to the SPA fallback.
    wildcard: false,
    schemaHide: true,
    setHeaders(reply, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      const header = immutable ? 'public, max-age=31536000, immutable' : 'no-cache';
      reply.header('cache-control', header);
    },
  });
  app.setNotFoundHandler(async (request, reply) => {
    if (!wantsHtml(request)) return sendNotFound(request, reply);
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
  });
}
