import type { CookieSerializeOptions } from '@fastify/cookie';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

/** Attributes every cookie of ours carries: httpOnly, SameSite=Lax, Secure behind https. */
export function cookieOptions(config: Config): CookieSerializeOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.publicUrl.startsWith('https://'),
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
        imgSrc: ["'self'", 'data:', 'blob:'],
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
