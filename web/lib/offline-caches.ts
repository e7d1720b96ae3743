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

/**
 * Sent by the page with a cached read it has already had an answer for (web/lib/api-client.ts): the
 * worker then waits for the network, and gives the cached copy only when the network fails, never
 * because it is slow. The page already shows at least that copy, and often newer data (a write's
 * answer), which an older copy must not replace (ADR 108).
 */
export const READ_AGAIN_HEADER = 'x-barterhood-read-again';

/**
 * The worker's matcher of the cached reads sent with READ_AGAIN_HEADER. Workbox writes a matcher into
 * the worker as its source text, so it may name nothing outside itself: it is built here from
 * CACHED_API_READS and the header's name. Called by the build only (a page's CSP allows no `Function`).
 */
export function readAgainMatcher(): (context: { url: URL; request: Request }) => boolean {
  return new Function(
    '{ url, request }',
    `return ${CACHED_API_READS.toString()}.test(url.href) && request.headers.has(${JSON.stringify(READ_AGAIN_HEADER)});`,
  ) as (context: { url: URL; request: Request }) => boolean;
}
