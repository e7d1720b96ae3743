import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiGet, apiRequest, GATE_CLOSED_EVENT } from './api-client';

afterEach(() => vi.unstubAllGlobals());

function stubFetch(response: Response) {
  const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => response);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('api client (spec section 7)', () => {
  it('sends JSON with a JSON content type only when there is a body, always with cookies', async () => {
    const fetchMock = stubFetch(new Response('{}', { status: 200 }));
    await apiRequest('POST', '/api/x', { a: 1 });
    expect(fetchMock.mock.calls[0]?.[1]).toEqual({
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"a":1}',
      credentials: 'include',
    });
    await apiRequest('POST', '/api/y');
    expect(fetchMock.mock.calls[1]?.[1]).toEqual({
      method: 'POST',
      headers: {},
      body: undefined,
      credentials: 'include',
    });
  });

  it('an error message is "status: body text", with the code and sentence read from our JSON', async () => {
    stubFetch(new Response('{"message":"Nope.","code":"CONFLICT"}', { status: 409 }));
    const error = (await apiRequest('POST', '/api/x', {}).catch((e) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('409: {"message":"Nope.","code":"CONFLICT"}');
    expect(error.status).toBe(409);
    expect(error.code).toBe('CONFLICT');
    expect(error.serverMessage).toBe('Nope.');
  });

  it('uses the status text when the body is empty', async () => {
    stubFetch(new Response('', { status: 502, statusText: 'Bad Gateway' }));
    await expect(apiRequest('GET', '/api/x')).rejects.toThrow('502: Bad Gateway');
  });

  it('a read can yield null on 401, and otherwise raises', async () => {
    const unauthorized = () =>
      new Response('{"message":"Please sign in.","code":"UNAUTHORIZED"}', { status: 401 });
    const first = unauthorized();
    stubFetch(first);
    expect(await apiGet('/api/auth/user', { on401: 'returnNull' })).toBeNull();
    // Its body is read all the same, so the request finishes (ADR 033).
    expect(first.bodyUsed).toBe(true);
    stubFetch(unauthorized());
    await expect(apiGet('/api/auth/user')).rejects.toThrow(/^401: /);
  });

  it('a closed gate clears the remembered grant and tells the page', async () => {
    window.localStorage.setItem('site-access', 'granted');
    const listener = vi.fn();
    window.addEventListener(GATE_CLOSED_EVENT, listener);
    stubFetch(
      new Response('{"message":"Enter the site password first.","code":"GATE_CLOSED"}', { status: 403 }),
    );
    await expect(apiGet('/api/site')).rejects.toThrow(ApiError);
    expect(window.localStorage.getItem('site-access')).toBeNull();
    expect(listener).toHaveBeenCalledOnce();
    window.removeEventListener(GATE_CLOSED_EVENT, listener);
  });
});
