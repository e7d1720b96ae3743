import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordRequests, server } from '#web/testing/server.ts';
import { ApiError, apiGet, apiRequest, apiTransport, GATE_CLOSED_EVENT } from './api-client';
import { READ_AGAIN_HEADER, readAgainMatcher } from './offline-caches';

afterEach(() => vi.restoreAllMocks());

describe('api client (spec section 7)', () => {
  it('sends JSON with a JSON content type only when there is a body, always with cookies', async () => {
    const seen: { credentials: RequestCredentials; type: string | null; body: string }[] = [];
    server.use(
      http.post('/api/:name', async ({ request }) => {
        seen.push({
          credentials: request.credentials,
          type: request.headers.get('content-type'),
          body: await request.text(),
        });
        return HttpResponse.json({});
      }),
    );
    const sent = recordRequests();
    await apiRequest('POST', '/api/x', { a: 1 });
    await apiRequest('POST', '/api/y');
    expect(sent.sent.map((request) => `${request.method} ${request.url}`)).toEqual([
      'POST /api/x',
      'POST /api/y',
    ]);
    expect(seen).toEqual([
      { credentials: 'include', type: 'application/json', body: '{"a":1}' },
      { credentials: 'include', type: null, body: '' },
    ]);
  });

  it('an error message is "status: body text", with the code and sentence read from our JSON', async () => {
    server.use(
      http.post('/api/x', () => new HttpResponse('{"message":"Nope.","code":"CONFLICT"}', { status: 409 })),
    );
    const error = (await apiRequest('POST', '/api/x', {}).catch((e) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('409: {"message":"Nope.","code":"CONFLICT"}');
    expect(error.status).toBe(409);
    expect(error.code).toBe('CONFLICT');
    expect(error.serverMessage).toBe('Nope.');
  });

  it('uses the status text when the body is empty', async () => {
    server.use(http.get('/api/x', () => new HttpResponse('', { status: 502, statusText: 'Bad Gateway' })));
    await expect(apiRequest('GET', '/api/x')).rejects.toThrow('502: Bad Gateway');
  });

  it('a read can yield null on 401, and otherwise raises', async () => {
    const unauthorized = '{"message":"Please sign in.","code":"UNAUTHORIZED"}';
    server.use(http.get('/api/auth/user', () => new HttpResponse(unauthorized, { status: 401 })));
    // The real fetch (msw answers it), watched to see the response the client was given.
    const transport = vi.spyOn(apiTransport, 'fetch');
    expect(await apiGet('/api/auth/user', { on401: 'returnNull' })).toBeNull();
    // Its body is read all the same, so the request finishes (ADR 033).
    const first = await (transport.mock.results[0]?.value as Promise<Response>);
    expect(first.status).toBe(401);
    expect(first.bodyUsed).toBe(true);
    await expect(apiGet('/api/auth/user')).rejects.toThrow(/^401: /);
  });

  it('a closed gate clears the remembered grant and tells the page', async () => {
    window.localStorage.setItem('site-access', 'granted');
    const listener = vi.fn();
    window.addEventListener(GATE_CLOSED_EVENT, listener);
    server.use(
      http.get(
        '/api/site',
        () =>
          new HttpResponse('{"message":"Enter the site password first.","code":"GATE_CLOSED"}', {
            status: 403,
          }),
      ),
    );
    try {
      await expect(apiGet('/api/site')).rejects.toThrow(ApiError);
      expect(window.localStorage.getItem('site-access')).toBeNull();
      expect(listener).toHaveBeenCalledOnce();
    } finally {
      window.removeEventListener(GATE_CLOSED_EVENT, listener);
    }
  });

  it('a kept read the page has had an answer for asks the service worker for the network, not its copy (ADR 108)', async () => {
    const seen: Array<{ path: string; readAgain: string | null }> = [];
    server.use(
      http.get('/api/barter-requests/:id', ({ request }) => {
        seen.push({ path: new URL(request.url).pathname, readAgain: request.headers.get(READ_AGAIN_HEADER) });
        return HttpResponse.json({ id: 1 });
      }),
      http.get('/api/places/search', ({ request }) => {
        seen.push({ path: new URL(request.url).pathname, readAgain: request.headers.get(READ_AGAIN_HEADER) });
        return HttpResponse.json([]);
      }),
    );
    // A refused read is no answer: the next one is still a first read.
    server.use(
      http.get('/api/barter-requests/404', () => new HttpResponse('', { status: 404 }), { once: true }),
    );
    await expect(apiGet('/api/barter-requests/404')).rejects.toThrow(ApiError);
    await apiGet('/api/barter-requests/404');
    await apiGet('/api/barter-requests/404');
    await apiGet('/api/barter-requests/7');
    // Reads the worker never keeps (place search) never carry it.
    await apiGet('/api/places/search?q=Portl');
    await apiGet('/api/places/search?q=Portl');
    expect(seen).toEqual([
      { path: '/api/barter-requests/404', readAgain: null },
      { path: '/api/barter-requests/404', readAgain: '1' },
      { path: '/api/barter-requests/7', readAgain: null },
      { path: '/api/places/search', readAgain: null },
      { path: '/api/places/search', readAgain: null },
    ]);
  });

  it("the worker's route for reads sent again matches a kept read with the header, and nothing else", () => {
    const matches = readAgainMatcher();
    const request = (readAgain: boolean) =>
      new Request('https://example.org/', readAgain ? { headers: { [READ_AGAIN_HEADER]: '1' } } : {});
    const kept = new URL('https://example.org/api/barter-requests/7');
    expect(matches({ url: kept, request: request(true) })).toBe(true);
    expect(matches({ url: kept, request: request(false) })).toBe(false);
    expect(
      matches({ url: new URL('https://example.org/api/places/search?q=a'), request: request(true) }),
    ).toBe(false);
    // Workbox writes it into the worker as its source text: it names nothing outside itself.
    const rebuilt = new Function(`return (${matches.toString()})`)() as typeof matches;
    expect(rebuilt({ url: kept, request: request(true) })).toBe(true);
  });
});
