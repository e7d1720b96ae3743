import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUserSchema } from '#common/schemas/auth.ts';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import { bioSchema } from '#common/schemas/members.ts';
import { profileFormSchema } from '#common/schemas/profile.ts';
import { unauthorized } from '../../errors';
import { HOUR_MS, memberRateLimit } from '../../plugins/member-rate-limit';
import { presentCurrentUser, updateUserRow } from '../auth';
import { assertAppropriateFor } from '../safety';
import { locationChangeLimit } from './location-limit';
import { updateProfile } from './profile-repository';

/** The member's own profile settings (spec sections 5 and 7). */
export async function profileRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.put(
    '/api/user/profile',
    {
      // After validation (it needs the body), before anything is written.
      preHandler: locationChangeLimit(app),
      schema: {
        tags: ['profile'],
        summary: "Update the signed-in member's location and max travel distance",
        description:
          'Coordinates are optional but come in pairs; left out, they are cleared. ' +
          'They are stored for distance computation and never sent to other members: the distances ' +
          'others see are measured to a public point within about a mile of them. Changing them is ' +
          'limited per member (LOCATION_CHANGE_RATE_LIMIT an hour; then 429 RATE_LIMITED with Retry-After).',
        body: profileFormSchema,
        response: {
          200: currentUserSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          429: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const user = request.member;
      // The account may have been deleted since the session was read.
      const updated = await updateProfile(app.db, user.id, request.body);
      if (!updated) throw unauthorized();
      return presentCurrentUser(updated);
    },
  );

  routes.put(
    '/api/user/bio',
    {
      config: memberRateLimit({ name: 'bio', max: 30, windowMs: HOUR_MS, what: 'changes to your bio' }),
      schema: {
        tags: ['profile'],
        summary: 'A few words about yourself, shown on your member page (blank removes them)',
        description: 'Moderated like listings: 400 CONTENT_NOT_ALLOWED for wording that breaks the Terms.',
        body: bioSchema,
        response: {
          200: z.object({ bio: z.string().nullable() }),
          400: apiErrorSchema,
          401: apiErrorSchema,
          429: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const bio = request.body.bio.trim() || null;
      await assertAppropriateFor(app.db, request.member.id, 'profile', bio);
      await updateUserRow(app.db, request.member.id, { bio });
      return { bio };
    },
  );
}
