import { sql } from 'drizzle-orm';
import { type FeedDefinition, plainPage, RANKINGS_KEPT, sortedOrder } from '../features/feed';

/**
 * A feed of services only, for the registry's test (server/features/feed/feed-registry.test.ts):
 * what adding a feed takes, one definition built from the published candidate sources.
 */
export const servicesFeed: FeedDefinition = {
  name: 'services',
  reason: 'Services other members offer within the distance.',
  order: sortedOrder,
  candidates: (params, order) => plainPage(params, order, { where: sql`i.is_service` }),
  prepared: (params) => !params.q,
  searchPostings: false,
  caching: RANKINGS_KEPT,
};
