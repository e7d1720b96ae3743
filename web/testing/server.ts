import { HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

/**
 * The one stand-in for the API in web tests (ADR 069): Mock Service Worker's server, started in
 * web/testing/setup.ts with `onUnhandledRequest: 'error'`. A test answers the requests it expects with
 * `server.use(http.get('/api/...', resolver))`; the handlers are dropped after each test. A request
 * no handler answers fails, and its console.error fails the test.
 */
export const server = setupServer();

/** A JSON answer with an X-Total-Count header, as the paged lists send. */
export function pagedJson(rows: unknown[], total = rows.length) {
  return HttpResponse.json(rows, { headers: { 'x-total-count': String(total) } });
}

/** An error answer in the server's shape ({ message, code }). */
export function errorJson(status: number, message: string, code?: string) {
  return HttpResponse.json({ message, code }, { status });
}

/**
 * The load-shedding answer (server/plugins/load-shedding.ts): 503 in the server's error shape, with
 * Retry-After (seconds; null leaves it out).
 */
export function busyResponse(retryAfter: string | null = '2') {
  return HttpResponse.json(
    {
      message: 'The service is temporarily unavailable. Please try again shortly.',
      code: 'SERVICE_UNAVAILABLE',
    },
    { status: 503, headers: retryAfter === null ? {} : { 'retry-after': retryAfter } },
  );
}

/** A request the page sent, as the server saw it. */
export interface SentRequest {
  method: string;
  /** Path and query, as sent ("/api/items/my?limit=50&offset=0"). */
  url: string;
  path: string;
  query: URLSearchParams;
  /** The body as text (empty without one); read it with `bodiesOf`. */
  text: Promise<string>;
}

/**
 * Record every request the page sends from now to the test's end, in order. `to('POST /api/x')`
 * lists one "METHOD /path" (the query is not part of the key); `bodiesOf` reads their JSON bodies.
 */
export function recordRequests() {
  const sent: SentRequest[] = [];
  const listener = ({ request }: { request: Request }) => {
    const url = new URL(request.url);
    sent.push({
      method: request.method,
      url: `${url.pathname}${url.search}`,
      path: url.pathname,
      query: url.searchParams,
      text: request.clone().text(),
    });
  };
  server.events.on('request:start', listener);
  recorders.push(() => server.events.removeListener('request:start', listener));
  const to = (key: string) => sent.filter((request) => `${request.method} ${request.path}` === key);
  return {
    sent,
    to,
    /** The parsed JSON bodies of one "METHOD /path", in the order sent. */
    bodiesOf: async (key: string): Promise<unknown[]> =>
      Promise.all(
        to(key).map(async (request) => {
          const text = await request.text;
          return text ? (JSON.parse(text) as unknown) : undefined;
        }),
      ),
  };
}

const recorders: (() => void)[] = [];

/** Stop the recorders this test started (web/testing/setup.ts calls it after each test). */
export function stopRecording() {
  for (const stop of recorders.splice(0)) stop();
}
