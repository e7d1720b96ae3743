import { QueryClient, type QueryKey, type Updater } from '@tanstack/react-query';
import { ApiError } from './api-client';

/** The longest a read waits for its one retry after a 503, whatever its Retry-After says (ADR 052). */
export const READ_RETRY_MAX_WAIT_S = 10;
/** The wait before that retry when a 503 names none. */
const READ_RETRY_DEFAULT_WAIT_S = 2;

/** A read answered 503 (the server shed it, or is briefly without its database) is tried once more. */
function isBusyAnswer(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 503;
}

/**
 * Spec section 9: no polling, no refetch on window focus, data never stale, and no retries but one
 * (ADR 052): a read answered 503 is asked for once more after its `Retry-After` (at most 10 s), since
 * a read changes nothing and a busy server says when to come back; then the screen shows what
 * happened with Try again. Writes are never retried: the member sees the error and decides. Offline
 * (ADR 034), reads still go out, since the service worker may answer them with the last-seen copy,
 * and writes still start, so the API client refuses them with a message instead of TanStack Query
 * holding them paused and sending them later.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failures, error) => failures < 1 && isBusyAnswer(error),
        retryDelay: (_failures, error) =>
          Math.min(
            READ_RETRY_MAX_WAIT_S,
            (isBusyAnswer(error) ? error.retryAfterSeconds : undefined) ?? READ_RETRY_DEFAULT_WAIT_S,
          ) * 1000,
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Number.POSITIVE_INFINITY,
        networkMode: 'offlineFirst',
      },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}

/**
 * Keep what a write answered as a query's data. A read of the same query still in flight started
 * before the write (a page opened from the cache refreshes it; a live event asks for it again), so
 * its answer is older: it is cancelled first, or it would land after this and bring back the state
 * the write left behind (a "Confirm completed" that stayed after the barter moved on, CI 2026-11-28).
 */
export async function storeAnswer<T>(
  queryClient: QueryClient,
  queryKey: QueryKey,
  data: Updater<T | undefined, T | undefined>,
): Promise<void> {
  await queryClient.cancelQueries({ queryKey, exact: true });
  queryClient.setQueryData<T>(queryKey, data);
}
