/**
 * The service worker's runtime cache of API reads (ADR 034), shared by the build (pwa.config.ts, which
 * writes the Workbox routes) and the page (web/lib/offline.ts, which empties it on sign-in and sign-out).
 * Pure values only: the build imports this file in Node.
 */

/** The Cache Storage name of the API reads kept for offline use. */
export const API_CACHE_NAME = 'barterhood-api';

/**
 * The GET reads the feed, barters and messages screens (and the member layout around them) make, and
 * nothing else: the current member, site settings, feeds, item details, saved items, barters and
 * their conversations, trade circles, unread counts and the guided start. Never the event stream,
 * sign-in, account or moderation routes. Matched against the whole URL (Workbox tests RegExps on it).
 */
export const CACHED_API_READS =
  /^https?:\/\/[^/]+\/api\/(?:auth\/user|site|feed\/[\w-]+|items\/[\w-]+|saved-items|barter-requests(?:\/[\w-]+(?:\/messages)?)?|circles(?:\/[\w-]+)?|(?:notifications|messages)\/unread-count|account\/getting-started)(?:\?[^#]*)?$/;

/** How long a read waits for the network before the cached copy is shown (seconds). */
export const API_NETWORK_TIMEOUT_SECONDS = 3;
