import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CurrentUser } from '#common/schemas/auth.ts';
import { apiGet } from './api-client';
import { authKeys } from './query-keys';

/**
 * GET /api/auth/user: the signed-in member, or null when signed out (spec section 4: fetched once; no
 * retry but the one every read gets after a 503, ADR 052, so a busy moment does not look like signing out).
 */
export const userQuery = () =>
  queryOptions({
    queryKey: authKeys.user,
    queryFn: () => apiGet<CurrentUser>('/api/auth/user', { on401: 'returnNull' }),
  });

/** The current member: `user` is null when signed out; `isLoading` while the first fetch runs. */
export function useUser() {
  const query = useQuery(userQuery());
  return { user: query.data ?? null, isLoading: query.isLoading, isAuthenticated: Boolean(query.data) };
}
