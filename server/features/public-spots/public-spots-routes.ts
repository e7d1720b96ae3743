import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import { listingIdParamsSchema } from '#common/schemas/listings.ts';
import { addPublicSpotSchema, editPublicSpotSchema, publicSpotSchema } from '#common/schemas/public-spots.ts';
import { assertModerator } from '../safety';
import { addPublicSpot, editPublicSpot, listPublicSpots, removePublicSpot } from './public-spots';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema };

/** The moderators' list of public spots for hand-overs (issue 30, ADR 080): 403 NOT_MODERATOR for others. */
export async function publicSpotsRoutes(app: FastifyInstance): Promise<void> {
  app.addHook('preHandler', async (request) => assertModerator(request.member));
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/moderation/public-spots',
    {
      schema: {
        tags: ['moderation'],
        summary: 'The public spots members may choose for a hand-over, by area then name',
        response: { 200: z.array(publicSpotSchema), ...errors },
      },
    },
    async () => listPublicSpots(app.db),
  );

  routes.post(
    '/api/moderation/public-spots',
    {
      schema: {
        tags: ['moderation'],
        summary: 'Add a public spot (name, kind, source, and a place chosen in the place search)',
        description:
          'The source (a link or a citation) is required: the list holds only spots someone can check. ' +
          'The area is the town nearest the chosen place. 400 VALIDATION_FAILED otherwise.',
        body: addPublicSpotSchema,
        response: { 201: publicSpotSchema, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await addPublicSpot(app.db, request.member, request.body)),
  );

  routes.put(
    '/api/moderation/public-spots/:id',
    {
      schema: {
        tags: ['moderation'],
        summary: 'Correct a public spot (the whole spot, by the rules of adding one)',
        description:
          'Name, kind, source and a place chosen in the place search, as when adding; the area follows ' +
          'the place. Plans that chose the spot keep the name they agreed on. 404 when the spot is not ' +
          'on the list (removed ones included); 400 VALIDATION_FAILED otherwise.',
        params: listingIdParamsSchema,
        body: editPublicSpotSchema,
        response: { 200: publicSpotSchema, ...errors },
      },
    },
    async (request) => editPublicSpot(app.db, request.params.id, request.body),
  );

  routes.delete(
    '/api/moderation/public-spots/:id',
    {
      schema: {
        tags: ['moderation'],
        summary: 'Remove a public spot: no longer offered nor accepted; plans that chose it keep its name',
        params: listingIdParamsSchema,
        response: { 204: z.undefined(), ...errors },
      },
    },
    async (request, reply) => {
      await removePublicSpot(app.db, request.member, request.params.id);
      return reply.code(204).send();
    },
  );
}
