import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import {
  acceptHandOverPlanSchema,
  handOverPlanSchema,
  proposeHandOverPlanSchema,
  RUNNING_LATE_MINUTES,
  runningLateSchema,
} from '#common/schemas/hand-over-plans.ts';
import { listingIdParamsSchema } from '#common/schemas/listings.ts';
import { handOverPlacesSchema, PUBLIC_SPOT_ERROR_CODES } from '#common/schemas/public-spots.ts';
import { handOverPlaces } from './hand-over-places';
import { handOverPlanIcs } from './hand-over-plan-ics';
import {
  acceptHandOverPlan,
  getHandOverPlan,
  planForCalendar,
  proposeHandOverPlan,
  runningLate,
} from './hand-over-plans';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };
const STATE_409 =
  '409 BARTER_TRANSITION: the barter is not accepted. 409 HAND_OVER_PLAN_CHANGED: the plan is no longer ' +
  'the version named (reason: the current version). A barter you are not part of answers 404.';

/** Planning the hand-over (issue 30, ADR 077): an accepted barter's plan, its answers and its calendar file. */
export async function handOverPlanRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/barter-requests/:id/hand-over-plan';

  routes.get(
    base,
    {
      schema: {
        tags: ['barters'],
        summary: 'The hand-over plan of an accepted barter (time window and place), or null',
        description: 'null when no plan is proposed yet or the barter is not accepted. Others: 404.',
        params: listingIdParamsSchema,
        response: { 200: handOverPlanSchema.nullable(), ...errors },
      },
    },
    async (request) => getHandOverPlan(app.db, request.member, request.params.id),
  );

  routes.put(
    base,
    {
      schema: {
        tags: ['barters'],
        summary: 'Propose a hand-over window and place, or another one instead of the current plan',
        description:
          '`replaces` is the version you saw (null: none). The plan becomes yours, waiting for the other ' +
          'member; replacing an agreed plan is a reschedule (they are told at once). 400 VALIDATION_FAILED: ' +
          `a window not in the future, over 60 days ahead, shorter than 15 minutes or longer than 12 hours; no place. ` +
          `\`spotId\` (optional) chooses a moderators' public spot, whose name becomes the place: 400 ` +
          `${PUBLIC_SPOT_ERROR_CODES.unknown} when there is no such spot, 409 ${PUBLIC_SPOT_ERROR_CODES.removed} when ` +
          `moderators removed it. ${STATE_409}`,
        params: listingIdParamsSchema,
        body: proposeHandOverPlanSchema,
        response: { 200: handOverPlanSchema, ...errors },
      },
    },
    async (request) => proposeHandOverPlan(app.db, request.member, request.params.id, request.body),
  );

  routes.get(
    `${base}/places`,
    {
      schema: {
        tags: ['barters'],
        summary: 'Where to meet: public spots near both members, fairest first, or the fairest named area',
        description:
          'Spots within each member’s travel distance of their public point, ordered by the larger of the ' +
          'two distances, then the sum; names only, no distances. When none is near, `fairestArea` is the ' +
          'neighbourhood or town whose centre minimises the larger distance to every member (of the circle, ' +
          `for a circle's hand-over), from public points. ${STATE_409}`,
        params: listingIdParamsSchema,
        response: { 200: handOverPlacesSchema, ...errors },
      },
    },
    async (request) => handOverPlaces(app.db, request.member, request.params.id),
  );

  routes.post(
    `${base}/accept`,
    {
      schema: {
        tags: ['barters'],
        summary: 'Accept the other member’s proposed plan, naming its version',
        description: `409 HAND_OVER_PLAN_STATE: no plan, already agreed, or your own proposal. ${STATE_409}`,
        params: listingIdParamsSchema,
        body: acceptHandOverPlanSchema,
        response: { 200: handOverPlanSchema, ...errors },
      },
    },
    async (request) => acceptHandOverPlan(app.db, request.member, request.params.id, request.body.version),
  );

  routes.post(
    `${base}/late`,
    {
      schema: {
        tags: ['barters'],
        summary: '“I’m running late”: tell the other member at once, with the minutes',
        description: `minutes: one of ${RUNNING_LATE_MINUTES.join(', ')}. 409 HAND_OVER_PLAN_STATE: the plan is not agreed. ${STATE_409}`,
        params: listingIdParamsSchema,
        body: runningLateSchema,
        response: { 200: handOverPlanSchema, ...errors },
      },
    },
    async (request) =>
      runningLate(app.db, request.member, request.params.id, request.body.version, request.body.minutes),
  );

  routes.get(
    `${base}.ics`,
    {
      schema: {
        tags: ['barters'],
        summary: 'The agreed hand-over plan as a calendar file (text/calendar)',
        description: `409 HAND_OVER_PLAN_STATE: no agreed plan. ${STATE_409}`,
        params: listingIdParamsSchema,
        response: { 200: z.string(), ...errors },
      },
    },
    async (request, reply) => {
      const plan = await planForCalendar(app.db, request.member, request.params.id);
      return reply
        .header('Content-Type', 'text/calendar; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="hand-over-${request.params.id}.ics"`)
        .header('Cache-Control', 'private, no-store')
        .send(handOverPlanIcs(plan, app.config.publicUrl));
    },
  );
}
