import { vi } from 'vitest';

/** A request a component made, as the stub saw it. */
export interface StubbedCall {
  method: string;
  /** Path and query, as sent ("/api/items/my?limit=50&offset=0"). */
  url: string;
  path: string;
  query: URLSearchParams;
  /** The parsed JSON body, when there was one. */
  body: unknown;
}

export type StubHandler = (call: StubbedCall) => Response | Promise<Response>;

/**
 * Stub fetch with a route table keyed "METHOD /path" (the query is not part of the key). Every call
 * is recorded; a call no route answers is recorded in `unhandled` and fails the request, so a test can
 * assert that nothing unexpected was asked (`expect(api.unhandled).toEqual([])`). Undo with
 * vi.unstubAllGlobals().
 */
export function stubApi(routes: Record<string, StubHandler>) {
  const calls: StubbedCall[] = [];
  const unhandled: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = (init?.method ?? 'GET').toUpperCase();
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      const call = {
        method,
        url: `${url.pathname}${url.search}`,
        path: url.pathname,
        query: url.searchParams,
        body,
      };
      calls.push(call);
      const handler = routes[`${method} ${url.pathname}`];
      if (!handler) {
        unhandled.push(`${method} ${call.url}`);
        throw new TypeError(`Unhandled request ${method} ${call.url}`);
      }
      return handler(call);
    }),
  );
  return {
    calls,
    unhandled,
    /** The recorded calls of one "METHOD /path". */
    callsTo: (key: string) => calls.filter((call) => `${call.method} ${call.path}` === key),
  };
}

/** A JSON answer with an X-Total-Count header, as the paged lists send. */
export function pagedResponse(rows: unknown[], total = rows.length): Response {
  return new Response(JSON.stringify(rows), {
    status: 200,
    headers: { 'content-type': 'application/json', 'x-total-count': String(total) },
  });
}

/** An error answer in the server's shape ({ message, code }). */
export function errorResponse(status: number, message: string, code?: string): Response {
  return new Response(JSON.stringify({ message, code }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}
