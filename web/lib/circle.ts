import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Circle } from '#common/schemas/circles.ts';
import { apiGet } from './api-client';
import { circleKeys } from './query-keys';

/**
 * GET /api/circles/:id: a circle the member is part of, as they see it (404 otherwise). Read by the
 * circle's page and by a barter's page when the barter is one of the circle's hand-overs (ADR 068).
 */
export const circleQuery = (id: number) =>
  queryOptions({
    queryKey: circleKeys.detail(id),
    queryFn: async () => (await apiGet<Circle>(`/api/circles/${id}`)) as Circle,
  });

/** The circle; `id` null (a barter outside any circle) reads nothing. */
export function useCircle(id: number | null) {
  return useQuery({ ...circleQuery(id ?? 0), enabled: id !== null });
}
