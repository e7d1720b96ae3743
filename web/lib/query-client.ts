import { QueryClient } from '@tanstack/react-query';

/**
 * Spec section 9: no retries, no polling, no refetch on window focus, data never stale. Offline (ADR
 * 034), reads still go out, since the service worker may answer them with the last-seen copy, and writes
 * still start, so the API client refuses them with a message instead of TanStack Query holding them
 * paused and sending them later.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: false,
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Number.POSITIVE_INFINITY,
        networkMode: 'offlineFirst',
      },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}
