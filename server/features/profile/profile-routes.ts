import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUserSchema } from '../../../common/schemas/auth';
import { apiErrorSchema } from '../../../common/schemas/errors';
import { profileFormSchema } from '../../../common/schemas/profile';
import { unauthorized } from '../../errors';
import { presentCurrentUser } from '../auth/user-presenter';
import { locationChangeLimit } from './location-limit';
import { updateProfile } from './profile-repository';

/** The member's own profile settings (spec sections 5 and 7). */
export async function profileRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().put(
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
}
