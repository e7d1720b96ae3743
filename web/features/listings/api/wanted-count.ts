import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { WantedCount } from '#common/schemas/alerts.ts';
import { apiGet } from '#web/lib/api-client.ts';
import { alertKeys } from '#web/lib/query-keys.ts';

/** The shortest title the form asks about: fewer letters find too much to mean anything. */
export const WANTED_COUNT_MIN_TITLE = 3;

/**
 * GET /api/alerts/wanted-count for the item form's draft (ADR 084): how many neighbours nearby want
 * a thing like it, never who. Off until the title has WANTED_COUNT_MIN_TITLE letters, and for a
 * member without a location (nobody is within a distance of them); the caller passes the draft once
 * typing pauses.
 */
export function useWantedCount(
  draft: { title: string; category: string; isService: boolean },
  { located }: { located: boolean },
) {
  const title = draft.title.trim();
  const params = new URLSearchParams({ title, isService: String(draft.isService) });
  if (draft.category) params.set('category', draft.category);
  return useQuery({
    queryKey: alertKeys.wantedCount({ ...draft, title }),
    queryFn: () => apiGet<WantedCount>(`/api/alerts/wanted-count?${params.toString()}`),
    enabled: located && title.length >= WANTED_COUNT_MIN_TITLE,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    // A 429 or a lost connection leaves the line out; the form works without it.
    retry: false,
  });
}
