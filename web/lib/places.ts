import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { LOCATION_SEARCH_MIN_CHARS } from '#common/constants.ts';
import type { Place } from '#common/schemas/places.ts';
import { apiGet } from '#web/lib/api-client.ts';
import { placeKeys } from '#web/lib/query-keys.ts';

/** GET /api/places/search?q=: up to 5 places whose name starts with the text, best first. */
export async function searchPlaces(query: string): Promise<Place[]> {
  return (await apiGet<Place[]>(`/api/places/search?q=${encodeURIComponent(query)}`)) ?? [];
}

/** GET /api/places/reverse?lat=&lon=: the named place nearest to the point. */
export async function reversePlace(latitude: number, longitude: number): Promise<Place> {
  const params = new URLSearchParams({ lat: String(latitude), lon: String(longitude) });
  const place = await apiGet<Place>(`/api/places/reverse?${params}`);
  if (!place) throw new Error('No place found near this point');
  return place;
}

/** Place search for `query` (already trimmed); it only runs with 3 or more characters (spec section 5). */
export const placeSearchQuery = (query: string) =>
  queryOptions({
    queryKey: placeKeys.search(query),
    queryFn: () => searchPlaces(query),
    enabled: query.length >= LOCATION_SEARCH_MIN_CHARS,
  });

export const reversePlaceQuery = (latitude: number, longitude: number) =>
  queryOptions({
    queryKey: placeKeys.reverse(latitude, longitude),
    queryFn: () => reversePlace(latitude, longitude),
  });

/** Suggestions for the (debounced) search text. */
export function usePlaceSearch(query: string) {
  return useQuery(placeSearchQuery(query));
}

/** A function that looks up the place nearest to a point, through the query cache. */
export function useReversePlace() {
  const queryClient = useQueryClient();
  return useCallback(
    (latitude: number, longitude: number) => queryClient.fetchQuery(reversePlaceQuery(latitude, longitude)),
    [queryClient],
  );
}
