import { useQuery } from '@tanstack/react-query';
import type { ShowingFor } from '#common/schemas/feed.ts';
import { apiGet } from '#web/lib/api-client.ts';
import { feedKeys } from '#web/lib/query-keys.ts';

/**
 * GET /api/search/showing-for: the search text as the results read it ("Showing results for
 * guitar", ADR 089); null when no word was corrected or there is no text. Asked once `ready` (the
 * results have come): both correct the text, so asking at once would double that work at the
 * moment the database is busiest with it.
 */
export function useShowingFor(q: string, ready = true) {
  const text = q.trim();
  return useQuery({
    queryKey: feedKeys.showingFor(text),
    queryFn: async () =>
      (await apiGet<ShowingFor>(`/api/search/showing-for?q=${encodeURIComponent(text)}`))?.showingFor ?? null,
    enabled: text.length > 0 && ready,
    staleTime: 60_000,
  });
}
