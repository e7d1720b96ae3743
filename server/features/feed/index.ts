/**
 * The feeds' published surface (ADR 064): the routes and caches the app mounts, the registry and
 * what a feed's definition is made of, and the card rows other lists of items (saved items, a
 * member's items) read and present the same way.
 */
export { feedCachePlugin } from './feed-cache';
export { distanceOrNull, plainPage, sortedOrder } from './feed-candidates';
export { readCardPage, readPageState } from './feed-cards';
export { type FeedDefinition, type FeedPageParams, RANKINGS_KEPT } from './feed-definition';
export { feedMapRoutes } from './feed-map-routes';
export { presentFeedItem } from './feed-presenter';
export { feedRankingQuery, readListingVersion, withSearch } from './feed-ranking';
export { findFeed, registeredFeeds, registerFeed } from './feed-registry';
export { feedRoutes, publicItemRoutes } from './feed-routes';
export type { FeedRow } from './feed-types';
export { resolveSearch, type Search, searchMatch } from './search';
