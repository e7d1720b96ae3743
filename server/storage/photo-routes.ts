import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors';
import { isPhotoName, PHOTO_URL_PREFIX } from './photo-store';

/** A photo's name is a hash of its bytes: the same URL is the same photo forever. */
const CACHE_FOR_A_YEAR = 'private, max-age=31536000, immutable';

/** The strong ETag of a photo: its name (a content hash), so a revalidation needs no store at all. */
const etagOf = (name: string) => `"${name}"`;

/** True when an If-None-Match header names `etag` (or is `*`). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}

/**
 * GET /photos/:name from whichever store the settings chose (ADR 042), in the scope it is registered
 * in (the gated one: photos are for people past the site password). Only names put() makes are
 * looked up, so an encoded path, `..` or a control character is a 404 before any store is asked.
 * Cached for a year, private; a conditional request with the photo's ETag is a 304.
 */
export async function photoRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Params: { name: string } }>(
    `${PHOTO_URL_PREFIX}:name`,
    { schema: { hide: true } },
    async (request, reply) => {
      const { name } = request.params;
      if (!isPhotoName(name)) throw notFound('There is no such photo.');
      const etag = etagOf(name);
      const cached = () => reply.header('cache-control', CACHE_FOR_A_YEAR).header('etag', etag);
      if (matches(request.headers['if-none-match'], etag)) return cached().code(304).send();
      const photo = await app.photoStore.get(name);
      if (!photo) throw notFound('There is no such photo.');
      return cached().type(photo.contentType).header('content-length', photo.bytes).send(photo.body);
    },
  );
}
