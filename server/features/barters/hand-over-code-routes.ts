import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { barterSchema } from '#common/schemas/barters.ts';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import {
  enterHandOverCodeSchema,
  HAND_OVER_CODE_LOCK_MINUTES,
  HAND_OVER_CODE_MAX_WRONG,
  handOverCodeSchema,
} from '#common/schemas/hand-over-codes.ts';
import { listingIdParamsSchema } from '#common/schemas/listings.ts';
import { presentBarter } from './barters-presenter';
import { getBarter } from './barters-service';
import { enterHandOverCode, myHandOverCode } from './hand-over-codes';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };

/** Confirm on the spot (issue 30, ADR 075): the viewer's hand-over code, and entering the other's. */
export async function handOverCodeRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/barter-requests/:id/hand-over-code',
    {
      schema: {
        tags: ['barters'],
        summary: 'Your hand-over code for an accepted barter, to show the other member (with its QR)',
        description:
          'Made on first ask: six characters, the link to the barter’s page with it and that link’s QR ' +
          '(SVG). null when the barter is not accepted (no code to show). A barter you are not part of answers 404.',
        params: listingIdParamsSchema,
        response: { 200: handOverCodeSchema.nullable(), ...errors },
      },
    },
    async (request) => myHandOverCode(app.db, request.member, request.params.id, app.config.publicUrl),
  );

  routes.post(
    '/api/barter-requests/:id/hand-over-code',
    {
      schema: {
        tags: ['barters'],
        summary: 'Enter the other member’s hand-over code: the right one completes the barter at once',
        description:
          'Case, spaces and dashes do not matter. 400 VALIDATION_FAILED: not six letters and digits. ' +
          '400 HAND_OVER_CODE_OWN: your own code. 400 HAND_OVER_CODE_WRONG: not their code (the ' +
          'message says how many tries are left, and reason the number); the ' +
          `${HAND_OVER_CODE_MAX_WRONG}th wrong one locks your ` +
          `code entry on this barter for ${HAND_OVER_CODE_LOCK_MINUTES} minutes: 429 HAND_OVER_CODE_LOCKED ` +
          'with Retry-After. 409 BARTER_TRANSITION: not accepted (already completed, cancelled). ' +
          'A barter you are not part of answers 404.',
        params: listingIdParamsSchema,
        body: enterHandOverCodeSchema,
        response: { 200: barterSchema, ...errors, 429: apiErrorSchema },
      },
    },
    async (request) => {
      await enterHandOverCode(app.db, request.member, request.params.id, request.body.code);
      const view = await getBarter(app.db, request.member, request.params.id);
      return presentBarter(view, request.member.id, new Date());
    },
  );
}
