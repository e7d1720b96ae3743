import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config';

/** True when the site is served over https (PUBLIC_URL), so cookies can be Secure and prefixed. */
function isHttps(config: Config): boolean {
  return config.publicUrl.startsWith('https://');
}

/**
 * The name a cookie of ours goes by: `__Host-` + name when the site is https, so the browser accepts
 * it only when Secure, for Path=/ and without Domain (no subdomain or plain-http page can plant or
 * overwrite it); the plain name over http, where browsers refuse prefixed cookies. A cookie scoped
 * to a narrower path takes `__Secure-` instead (`narrowPath`).
 */
export function cookieName(config: Config, name: string, narrowPath = false): string {
  if (!isHttps(config)) return name;
  return `${narrowPath ? '__Secure-' : '__Host-'}${name}`;
}

/** Attributes every cookie of ours carries: httpOnly, SameSite=Lax, Secure behind https. */
export function cookieOptions(config: Config): CookieSerializeOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttps(config),
    path: '/',
  };
}

/**
 * The headers helmet sets on every response, computed once: our options are fixed at start (no
 * per-request nonce), so the CSP and the rest are the same strings for every request.
 */
function securityHeaders(options: HelmetOptions): Array<[name: string, value: string]> {
  const headers = new Map<string, string>();
  const collect = {
    setHeader(name: string, value: string | number) {
      headers.set(name, String(value));
    },
    removeHeader(name: string) {
      headers.delete(name);
    },
  };
  helmet(options)({} as IncomingMessage, collect as unknown as ServerResponse, () => {});
  return [...headers];
}

/**
 * Helmet with a strict CSP: scripts only from our origin (no inline script), no framing.
 * Inline styles stay allowed: Radix positions popovers with style attributes and the printable
 * flyer window is styled inline. Development relaxes script rules for Vite's hot reload.
 *
 * Helmet works the headers out once, here, and each request only sets them (ADR 102):
 * `@fastify/helmet` built helmet's middleware again for every request, and the middleware itself
 * writes the CSP out again each time; together about a tenth of the server's work for a refused
 * sign-in.
 */
export function securityPlugin(app: FastifyInstance, dev: boolean): void {
  const headers = securityHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: dev ? ["'self'", "'unsafe-inline'"] : ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Map tiles (MAP_TILE_URL, ADR 032) are images from the tile server's one origin.
        imgSrc: ["'self'", 'data:', 'blob:', ...(app.config.mapTiles ? [app.config.mapTiles.origin] : [])],
        fontSrc: ["'self'", 'data:'],
        connectSrc: dev ? ["'self'", 'ws:', 'wss:'] : ["'self'"],
        mediaSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(isHttps(app.config) ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    crossOriginEmbedderPolicy: false,
    hsts: isHttps(app.config),
  });
  app.addHook('onRequest', (_request, reply, done) => {
    const raw = reply.raw;
    for (const [name, value] of headers) raw.setHeader(name, value);
    done();
  });
}
