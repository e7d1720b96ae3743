/**
 * What each API route costs, for load shedding (ADR 051): declared here in one table, written into
 * each route's `config.cost` as the route is registered (a route may declare its own instead), so
 * the costs can be read and reviewed side by side. `server/plugins/load-shedding.test.ts` checks
 * that every entry names a registered route.
 *
 * - `cheap`: costs less to answer than to refuse and be asked again (a refused request comes back
 *   after its Retry-After): answered from memory or with one small indexed read. Never shed.
 * - `standard`: an ordinary read or write of a few statements. Every API route not named here.
 * - `costly`: CPU-bound work on the main thread (password hashing, image decoding and analysis,
 *   a solver, a PDF), many statements, or a large answer. Shed first.
 */

export type RouteCost = 'cheap' | 'standard' | 'costly';
export const ROUTE_COSTS: readonly RouteCost[] = ['cheap', 'standard', 'costly'];

/**
 * What a page needs to draw itself (the issue 27 list): never shed whatever the pressure (the
 * probes and metrics say so in their own routes). The HTML shell, the drawn pages, the static
 * files and photos are not API routes: they are `cheap` by default and never shed either.
 */
export const PAGE_NEEDS: ReadonlySet<string> = new Set([
  // Who is signed in: every screen asks first.
  'GET /api/auth/user',
  // The live stream's connect (its streams are bounded by EVENT_STREAMS_FULL, not by shedding).
  'GET /api/events',
  // The gate's state and the site's settings: read from memory before any screen draws.
  'GET /api/gate',
  'GET /api/site',
]);

/** `METHOD /pattern` → cost, for the API routes that are not `standard`. HEAD follows GET. */
export const DECLARED_COSTS: Readonly<Record<string, RouteCost>> = {
  'GET /api/auth/user': 'cheap',
  'GET /api/events': 'cheap',
  'GET /api/gate': 'cheap',
  'GET /api/site': 'cheap',
  'POST /api/auth/logout': 'cheap',
  'GET /api/notifications/unread-count': 'cheap',
  'GET /api/messages/unread-count': 'cheap',
  // A feed or a search: the ranked read over many items, the largest answers.
  'GET /api/feed/:feedName': 'costly',
  // A password hashed (argon2, ADR 045): tens of milliseconds of a core each.
  'POST /api/auth/register': 'costly',
  'POST /api/auth/login': 'costly',
  'POST /api/auth/password-reset/confirm': 'costly',
  'PUT /api/account/password': 'costly',
  // An image decoded, resized and analysed.
  'POST /api/analyze-image': 'costly',
  'POST /api/items': 'costly',
  'PATCH /api/items/:id': 'costly',
  'POST /api/user/photo': 'costly',
  // A swap day's solve, its sheet; the printed flyer; everything a member has (the export).
  'POST /api/swap-days/:id/close': 'costly',
  'GET /api/swap-days/:id/sheet': 'costly',
  'GET /api/flyer/neighborhood': 'costly',
  'GET /api/account/export': 'costly',
  // The API's whole description, built on request.
  'GET /api/docs': 'costly',
};

/**
 * Routes whose cost is the CPU and not the database (ADR 114): a password hashed (argon2 on libuv's
 * threads, bounded on its own by `hashingLimit`) or an image analysed in a worker, around a few
 * statements. The database's line judges them at this cost, the event loop at their own: refusing a
 * newcomer's sign-up shortens nobody's wait for the embedded database's connection.
 */
export const DATABASE_COSTS: Readonly<Record<string, RouteCost>> = {
  'POST /api/auth/register': 'standard',
  'POST /api/auth/login': 'standard',
  'POST /api/auth/password-reset/confirm': 'standard',
  'PUT /api/account/password': 'standard',
  'POST /api/analyze-image': 'standard',
};

/** A route's key in the tables above: `METHOD /pattern`, HEAD as GET. */
function routeKey(method: string, url: string): string {
  return `${method === 'HEAD' ? 'GET' : method} ${url}`;
}

/** What a route costs the database's line: declared above, else its cost. */
export function databaseCost(method: string, url: string, cost: RouteCost): RouteCost {
  return DATABASE_COSTS[routeKey(method, url)] ?? cost;
}

/** The cost of a route as registered: declared above, else `standard` for the API and `cheap` for the rest. */
export function routeCost(method: string, url: string): RouteCost {
  const declared = DECLARED_COSTS[routeKey(method, url)];
  if (declared) return declared;
  return url === '/api' || url.startsWith('/api/') ? 'standard' : 'cheap';
}

/** Whether a page needs this route to draw itself (never shed). */
export function isPageNeed(method: string, url: string): boolean {
  return PAGE_NEEDS.has(routeKey(method, url));
}
