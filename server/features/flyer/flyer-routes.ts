import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import { FLYER_NEIGHBORHOOD_LIMIT, flyerNeighborhoodSchema } from '#common/schemas/flyer.ts';
import type { UserRow } from '../../db/schema/users';
import { viewerPoint } from '../../geo/earth';
import { presentFlyerListing } from './flyer-presenter';
import { type Area, findNearbyOffers, findNearbyWants, type NeighborhoodQuery } from './flyer-repository';

/** The member's travel circle around their public point (ADR 059), or null when they have not set a position. */
function areaOf(user: UserRow): Area | null {
  const centre = viewerPoint(user);
  return centre ? { centre, radiusMiles: user.maxTravelDistance } : null;
}

/** What the neighbourhood offers and wants right now, for the community flyer (issue 8). */
export async function flyerRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/flyer/neighborhood',
    {
      schema: {
        tags: ['flyer'],
        summary: 'Current offers and wants of other members near the asking member',
        description:
          `At most ${FLYER_NEIGHBORHOOD_LIMIT} of each, newest first, of members living within the asking ` +
          "member's max travel distance (measured to their public point, never their exact one); anywhere " +
          'when the member has no location. First names only.',
        response: { 200: flyerNeighborhoodSchema, 401: apiErrorSchema },
      },
    },
    async (request) => {
      const viewer = request.member;
      const query: NeighborhoodQuery = {
        viewerId: viewer.id,
        area: areaOf(viewer),
        limit: FLYER_NEIGHBORHOOD_LIMIT,
      };
      const [offers, wanted] = await Promise.all([
        findNearbyOffers(app.db, query),
        findNearbyWants(app.db, query),
      ]);
      return { offers: offers.map(presentFlyerListing), wants: wanted.map(presentFlyerListing) };
    },
  );
}
