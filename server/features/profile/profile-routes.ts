import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUserSchema } from '../../../common/schemas/auth';
import { apiErrorSchema } from '../../../common/schemas/errors';
import { profileFormSchema } from '../../../common/schemas/profile';
import { unauthorized } from '../../errors';
import { presentCurrentUser } from '../auth/user-presenter';
import { updateProfile } from './profile-repository';

/** The member's own profile settings (spec sections 5 and 7). */
export async function profileRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().put(
    '/api/user/profile',
    {
      schema: {
        tags: ['profile'],
        summary: "Update the signed-in member's location and max travel distance",
        description:
          'Coordinates are optional but come in pairs; left out, they are cleared. ' +
          'They are stored for distance computation and never sent to other members.',
        body: profileFormSchema,
        response: { 200: currentUserSchema, 400: apiErrorSchema, 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = request.member;
      // The account may have been deleted since the session was read.
      const updated = await updateProfile(app.db, user.id, request.body);
      if (!updated) throw unauthorized();
      return presentCurrentUser(updated);
    },
  );
}
