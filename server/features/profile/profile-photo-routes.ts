import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUserSchema } from '#common/schemas/auth.ts';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import { badRequest } from '../../errors';
import {
  PHOTO_FILE_FIELD,
  photoUploadHooks,
  photoUploadOf,
  storeUploadedPhoto,
} from '../../photos/photo-upload';
import { HOUR_MS, memberRateLimit } from '../../plugins/member-rate-limit';
import { presentCurrentUser, updateUserRow } from '../auth';
import { logUnscreened, photoScreeningPolicy, profilePhotoScreening } from '../safety';

/**
 * The member's profile photo through the listings' photo pipeline (ADR 008, 013): checked, EXIF
 * stripped, re-encoded, stored by content; the feed-size WebP is what pages show. A photo no
 * longer shown stays stored (files are shared by content, and an orphan is harmless).
 */
export async function profilePhotoRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  await app.register(multipart);
  const photoHooks = photoUploadHooks();
  const screening = photoScreeningPolicy(app.config);
  const setPhoto = (userId: string, url: string | null) =>
    updateUserRow(app.db, userId, { profileImageUrl: url });

  routes.post(
    '/api/user/photo',
    {
      ...photoHooks,
      config: memberRateLimit({
        name: 'profile-photo',
        max: 20,
        windowMs: HOUR_MS,
        what: 'new profile photos',
      }),
      schema: {
        tags: ['profile'],
        summary: 'Set your profile photo',
        description:
          `multipart/form-data with the photo as a file part named "${PHOTO_FILE_FIELD}". 413 PHOTO_TOO_LARGE, ` +
          '400 INVALID_PHOTO, 400 PHOTO_TOO_MANY_PIXELS, 503 PHOTO_QUEUE_FULL as for item photos; 400 ' +
          'CONTENT_NOT_ALLOWED when the screening finds it likely explicit (ADR 027): it is not stored.',
        body: z.object({}).optional(),
        response: {
          200: currentUserSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          413: apiErrorSchema,
          429: apiErrorSchema,
          503: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const upload = photoUploadOf(request);
      if (!upload.file) throw badRequest(`Send the photo as a file part named "${PHOTO_FILE_FIELD}".`);
      const stored = await storeUploadedPhoto(
        app.photoStore,
        { file: upload.file },
        { ticket: upload.ticket, screening: profilePhotoScreening(app.db, request.member.id, screening) },
      );
      logUnscreened(request.log, stored.screening);
      const row = await setPhoto(request.member.id, stored.thumbnailUrl);
      return presentCurrentUser(row ?? request.member);
    },
  );

  routes.delete(
    '/api/user/photo',
    {
      schema: {
        tags: ['profile'],
        summary: 'Remove your profile photo (your initials show instead)',
        response: { 200: currentUserSchema, 401: apiErrorSchema },
      },
    },
    async (request) => presentCurrentUser((await setPhoto(request.member.id, null)) ?? request.member),
  );
}
