/**
 * Feed names and the random-barter seed range, without zod: the home feed's first paint needs them,
 * not the request schemas of common/schemas/feed.ts (which re-exports them) (ADR 033).
 */

/** The three feeds of the home screen (docs/product.md names, docs/matching.md contents). */
export const FEED_NAMES = ['barter-match', 'random-barter', 'everything'] as const;
export type FeedName = (typeof FEED_NAMES)[number];

/** Largest random-barter seed; the web draws one per browsing session (crypto.getRandomValues). */
export const FEED_SEED_MAX = 2_147_483_647;
