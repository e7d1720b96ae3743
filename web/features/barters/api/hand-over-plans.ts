import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { HandOverPlan, RunningLateMinutes } from '#common/schemas/hand-over-plans.ts';
import type { HandOverPlaces } from '#common/schemas/public-spots.ts';
import { apiGet, apiRequest } from '#web/lib/api-client.ts';
import { storeAnswer } from '#web/lib/query-client.ts';
import { barterKeys } from '#web/lib/query-keys.ts';

// Planning the hand-over (issue 30, ADR 077). The plan's key sits under the barter's, so the 'barter'
// live event (sent to both members on every change of the plan) reads it again.

export const handOverPlanKey = (id: number) => [...barterKeys.detail(id), 'hand-over-plan'] as const;
const url = (id: number, tail = '') => `/api/barter-requests/${id}/hand-over-plan${tail}`;

/** GET .../hand-over-plan: the current plan, or null (none yet, or the barter is no longer accepted). */
export const handOverPlanQuery = (id: number) =>
  queryOptions({
    queryKey: handOverPlanKey(id),
    queryFn: () => apiGet<HandOverPlan>(url(id)),
  });

export function useHandOverPlan(id: number) {
  return useQuery(handOverPlanQuery(id));
}

/**
 * GET .../hand-over-plan/places (ADR 080): public spots near both members, fairest first, or the
 * fairest named area between them. Read when the plan's form opens.
 */
export const handOverPlacesQuery = (id: number) =>
  queryOptions({
    queryKey: [...handOverPlanKey(id), 'places'] as const,
    queryFn: () => apiGet<HandOverPlaces>(url(id, '/places')),
  });

export function useHandOverPlaces(id: number) {
  return useQuery(handOverPlacesQuery(id));
}

export interface PlanProposal {
  startsAt: string;
  endsAt: string;
  place: string;
  replaces: number | null;
  /** A moderators' public spot chosen from the list; its name is the place. */
  spotId?: number | null;
}

export type PlanChange =
  | { kind: 'propose'; proposal: PlanProposal }
  | { kind: 'accept'; version: number }
  | { kind: 'late'; version: number; minutes: RunningLateMinutes };

/** Propose (or replace), accept, or say "running late": the answer is the plan as it now is. */
export function useChangeHandOverPlan(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: PlanChange): Promise<HandOverPlan> => {
      const response =
        change.kind === 'propose'
          ? await apiRequest('PUT', url(id), change.proposal)
          : change.kind === 'accept'
            ? await apiRequest('POST', url(id, '/accept'), { version: change.version })
            : await apiRequest('POST', url(id, '/late'), {
                version: change.version,
                minutes: change.minutes,
              });
      return (await response.json()) as HandOverPlan;
    },
    onSuccess: (plan) => storeAnswer(queryClient, handOverPlanKey(id), plan),
    // A plan that changed meanwhile (409): read it again, so the page shows the current one.
    onError: () => queryClient.invalidateQueries({ queryKey: handOverPlanKey(id) }),
  });
}
