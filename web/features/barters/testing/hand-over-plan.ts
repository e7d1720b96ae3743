import { HttpResponse, http } from 'msw';
import type { HandOverPlan } from '#common/schemas/hand-over-plans.ts';
import type { HandOverPlaces } from '#common/schemas/public-spots.ts';

/** A hand-over plan as the server answers it (issue 30, ADR 077); a window tomorrow, 14:00 to 15:00 UTC. */
export function handOverPlan(overrides: Partial<HandOverPlan> = {}): HandOverPlan {
  const start = new Date(Date.now() + 24 * 3_600_000);
  start.setUTCHours(14, 0, 0, 0);
  return {
    version: 1,
    state: 'proposed',
    proposedBy: 'other',
    startsAt: start.toISOString(),
    endsAt: new Date(start.getTime() + 3_600_000).toISOString(),
    place: 'Central Library, main entrance',
    agreedAt: null,
    late: null,
    updatedAt: new Date().toISOString(),
    ...overrides,
  };
}

/** An accepted barter's page asks for its hand-over plan: this answers it (none yet, by default). */
export const handOverPlanHandler = (id: number, plan: HandOverPlan | null = null) =>
  http.get(`/api/barter-requests/${id}/hand-over-plan`, () => HttpResponse.json(plan));

/** The plan form asks where to meet (ADR 080): this answers it (nothing near, no area, by default). */
export const handOverPlacesHandler = (
  id: number,
  places: HandOverPlaces = { spots: [], fairestArea: null },
) => http.get(`/api/barter-requests/${id}/hand-over-plan/places`, () => HttpResponse.json(places));
