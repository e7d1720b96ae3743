import type { FeedDefinition } from './feed-definition';
import { barterMatch } from './feeds/barter-match';
import { everything } from './feeds/everything';
import { randomBarter } from './feeds/random-barter';

/**
 * The one table of feeds (ADR 064): the route serves, the caches keep and search finds the feeds
 * registered here. Adding a feed is a file in feeds/ and a line in BUILT_IN.
 */

/** The feeds of the home screen (common/feed-names.ts names them for the web). */
const BUILT_IN: readonly FeedDefinition[] = [barterMatch, randomBarter, everything];

const feeds = new Map<string, FeedDefinition>();

/** Register a feed; the function returned takes it out again (for a test's own feed). */
export function registerFeed(feed: FeedDefinition): () => void {
  if (feeds.has(feed.name)) throw new Error(`registerFeed: there is already a feed named ${feed.name}`);
  feeds.set(feed.name, feed);
  return () => {
    if (feeds.get(feed.name) === feed) feeds.delete(feed.name);
  };
}

for (const feed of BUILT_IN) registerFeed(feed);

/** The registered feed of that name, if any. */
export function findFeed(name: string): FeedDefinition | undefined {
  return feeds.get(name);
}

/** The registered feed of that name; an unknown name is a programming error here. */
export function feedDefinition(name: string): FeedDefinition {
  const feed = feeds.get(name);
  if (!feed) throw new Error(`No feed is registered as ${name}`);
  return feed;
}

/** Every registered feed, in the order registered. */
export function registeredFeeds(): FeedDefinition[] {
  return [...feeds.values()];
}
