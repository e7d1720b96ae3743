import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ERROR_CODES } from '#common/error-codes.ts';
import { forbidden } from '../errors';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

/** The origins a browser on our own pages sends: PUBLIC_URL's, and the Host the request came to. */
function allowedOrigins(request: FastifyRequest, publicOrigin: string | null): string[] {
  const allowed = publicOrigin ? [publicOrigin] : [];
  const host = request.headers.host;
  if (host) {
    for (const scheme of ['http', 'https']) {
      const origin = originOf(`${scheme}://${host}`);
      if (origin) allowed.push(origin);
    }
  }
  return allowed;
}

/**
 * Over an encapsulated scope (the API's, in app.ts), never by the URL's text:
 * refuses state-changing API calls that a browser made from another site (403 CROSS_ORIGIN), on top
 * of SameSite=Lax cookies. Browsers always send Origin on cross-origin POST/PUT/PATCH/DELETE, so a
 * request without one (curl, server-to-server, app.inject) is not a cross-site browser request and
 * passes. `Origin: null` (sandboxed frames, some redirects) is refused.
 */
export function originCheck(app: FastifyInstance): void {
  const publicOrigin = originOf(app.config.publicUrl);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (!STATE_CHANGING.has(request.method)) return;
    const origin = request.headers.origin;
    if (origin === undefined) return;
    const normalized = originOf(origin);
    if (normalized && allowedOrigins(request, publicOrigin).includes(normalized)) return;
    throw forbidden('Requests from other sites are not allowed.', ERROR_CODES.crossOrigin);
  });
}
