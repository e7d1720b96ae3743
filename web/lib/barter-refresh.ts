import type { QueryClient } from '@tanstack/react-query';
import {
  barterKeys,
  circleKeys,
  feedKeys,
  itemDetailKeys,
  itemKeys,
  memberKeys,
  savedKeys,
  tradeKeys,
  wantKeys,
} from './query-keys';

/**
 * What a barter's step can change beyond the barter itself: reserved and traded items leave the
 * feeds, saved lists and member pages; the owner's items show "Reserved"; completions and ratings
 * move trade history, stats and every rating line; a trade circle's hand-over completes or cancels
 * its circle; a completion fulfils the receivers' wants or asks about them (issue 30). Marked stale
 * (screens on show read again; the others on their next visit), since queries never go stale by
 * themselves here. Used for the member's own steps and, through live events, for the other member's.
 */
export function refreshAfterBarterChange(queryClient: QueryClient) {
  return Promise.all(
    [
      barterKeys.lists(),
      itemKeys.all,
      feedKeys.all,
      // An item's detail says whether the member has an open barter on it (issue 28).
      itemDetailKeys.all,
      savedKeys.all,
      tradeKeys.all,
      memberKeys.all,
      circleKeys.all,
      // A completed trade fulfils wants or asks about them (issue 30).
      wantKeys.all,
    ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}
