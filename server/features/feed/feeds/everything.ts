import { distancePage, plainPage, sortedOrder } from '../feed-candidates';
import { type FeedDefinition, type FeedPageParams, RANKINGS_KEPT } from '../feed-definition';

/** The page is a nearest-first walk of members (by distance, without search text). */
function walksMembers(params: FeedPageParams): boolean {
  return params.sort === 'distance' && params.origin !== null && !params.q;
}

/** Everything (docs/matching.md): every listed item of other members, in the member's chosen sort. */
export const everything: FeedDefinition = {
  name: 'everything',
  reason: 'Every listed item of other members within the distance.',
  order: sortedOrder,
  candidates: (params, order) =>
    walksMembers(params) && params.origin
      ? distancePage({ ...params, origin: params.origin }, order)
      : plainPage(params, order),
  prepared: () => true,
  searchPostings: true,
  // Short from the nearest members alone (some list nothing): the end of the feed, or more members.
  readAgain: (params) => (walksMembers(params) ? { memberLimit: null } : null),
  caching: RANKINGS_KEPT,
};
