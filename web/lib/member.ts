import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { FeedItem } from '#common/schemas/feed.ts';
import type { MemberProfile, MemberRating, MemberWant } from '#common/schemas/members.ts';
import { apiGet } from './api-client';
import { fetchOwnListPage, nextOwnListOffset } from './own-list';
import { memberKeys } from './query-keys';

const memberPath = (id: string) => `/api/members/${encodeURIComponent(id)}`;

/** GET /api/members/:id: name, picture, area, member since and trade record (404: no such member). */
export const memberQuery = (id: string) =>
  queryOptions({
    queryKey: memberKeys.profile(id),
    queryFn: async () => {
      const member = await apiGet<MemberProfile>(memberPath(id));
      if (!member) throw new Error('No member');
      return member;
    },
  });

export function useMember(id: string) {
  return useQuery(memberQuery(id));
}

/** GET /api/members/:id/items: their listed items as feed cards, a page at a time with the total. */
export const memberItemsQuery = (id: string) =>
  infiniteQueryOptions({
    queryKey: memberKeys.items(id),
    initialPageParam: 0,
    queryFn: ({ pageParam }) => fetchOwnListPage<FeedItem>(`${memberPath(id)}/items`, pageParam),
    getNextPageParam: nextOwnListOffset,
  });

export function useMemberItems(id: string) {
  return useInfiniteQuery(memberItemsQuery(id));
}

/** GET /api/members/:id/ratings: ratings they received, newest first, a page at a time with the total. */
export const memberRatingsQuery = (id: string) =>
  infiniteQueryOptions({
    queryKey: memberKeys.ratings(id),
    initialPageParam: 0,
    queryFn: ({ pageParam }) => fetchOwnListPage<MemberRating>(`${memberPath(id)}/ratings`, pageParam),
    getNextPageParam: nextOwnListOffset,
  });

export function useMemberRatings(id: string) {
  return useInfiniteQuery(memberRatingsQuery(id));
}

/** GET /api/members/:id/wants: their active wants, newest first. */
export const memberWantsQuery = (id: string) =>
  queryOptions({
    queryKey: memberKeys.wants(id),
    queryFn: async () => (await apiGet<MemberWant[]>(`${memberPath(id)}/wants`)) ?? [],
  });

export function useMemberWants(id: string) {
  return useQuery(memberWantsQuery(id));
}
