import type { CookieSerializeOptions } from '@fastify/cookie';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
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
 * Helmet with a strict CSP: scripts only from our origin (no inline script), no framing.
 * Inline styles stay allowed: Radix positions popovers with style attributes and the printable
 * flyer window is styled inline. Development relaxes script rules for Vite's hot reload.
 */
export async function securityPlugin(app: FastifyInstance, dev: boolean): Promise<void> {
  await app.register(helmet, {
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
        ...(app.config.publicUrl.startsWith('https://') ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    crossOriginEmbedderPolicy: false,
    hsts: app.config.publicUrl.startsWith('https://'),
  });
}
