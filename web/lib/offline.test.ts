import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordRequests, server } from '#web/testing/server.ts';
import { apiGet, apiRequest } from './api-client';
import { OFFLINE_REFUSED_EVENT, OfflineError } from './offline';
import { API_CACHE_NAME, CACHED_API_READS } from './offline-caches';

function stubCaches() {
  const remove = vi.fn(async (_name: string) => true);
  vi.stubGlobal('caches', { delete: remove });
  return remove;
}

/** Every API request answered with `status` and `body`; the requests sent are recorded. */
function answerAll(status: number, body = '{}') {
  server.use(http.all('/api/*', () => new HttpResponse(body, { status })));
  return recordRequests();
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the reads kept for offline use (ADR 034)', () => {
  it('are forgotten when a member signs in or out, or ends the account', async () => {
    for (const [method, url] of [
      ['POST', '/api/auth/login'],
      ['POST', '/api/auth/register'],
      ['POST', '/api/demo-login'],
      ['POST', '/api/auth/logout'],
      ['POST', '/api/account/sign-out-everywhere'],
      ['DELETE', '/api/account'],
    ] as const) {
      const remove = stubCaches();
      const api = answerAll(200);
      await apiRequest(method, url, {});
      expect(api.to(`${method} ${url}`)).toHaveLength(1);
      expect(remove, `${method} ${url}`).toHaveBeenCalledWith(API_CACHE_NAME);
    }
  });

  it('are forgotten whenever the server says nobody is signed in', async () => {
    let remove = stubCaches();
    answerAll(401);
    expect(await apiGet('/api/auth/user', { on401: 'returnNull' })).toBeNull();
    expect(remove).toHaveBeenCalledWith(API_CACHE_NAME);

    remove = stubCaches();
    answerAll(401, '{"message":"Not signed in","code":"UNAUTHORIZED"}');
    await expect(apiGet('/api/feed/recent')).rejects.toThrow('401');
    expect(remove).toHaveBeenCalledWith(API_CACHE_NAME);
  });

  it('stay through other writes and reads', async () => {
    const remove = stubCaches();
    const api = answerAll(200);
    await apiRequest('POST', '/api/wants', { title: 'Drill' });
    await apiGet('/api/feed/recent');
    expect(api.sent.map((request) => `${request.method} ${request.url}`)).toEqual([
      'POST /api/wants',
      'GET /api/feed/recent',
    ]);
    expect(remove).not.toHaveBeenCalled();
  });

  it('cover the feed, barters and messages, never the event stream, sign-in or account routes', () => {
    const origin = 'http://localhost:5000';
    for (const path of [
      '/api/auth/user',
      '/api/site',
      '/api/feed/recent?radius=5&limit=20&offset=0',
      '/api/feed/match',
      '/api/items/42',
      '/api/saved-items?limit=50&offset=0',
      '/api/barter-requests?box=active&limit=50&offset=0',
      '/api/barter-requests/7',
      '/api/barter-requests/7/messages?limit=50',
      '/api/circles',
      '/api/notifications/unread-count',
      '/api/messages/unread-count',
    ]) {
      expect(CACHED_API_READS.test(origin + path), path).toBe(true);
    }
    for (const path of [
      '/api/events',
      '/api/events?lastEventId=3',
      '/api/auth/login',
      '/api/auth/google',
      '/api/auth/google/callback?code=x',
      '/api/account/sessions',
      '/api/account/export',
      '/api/moderation/reports',
      '/api/gate',
      '/api/places/search?q=Portland',
      '/photos/abc.webp',
      '/api/feed/recent/../../events',
    ]) {
      expect(CACHED_API_READS.test(origin + path), path).toBe(false);
    }
  });
});

describe('a write made offline (ADR 034)', () => {
  it('is refused before it is sent, and the page is told', async () => {
    vi.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(false);
    const api = answerAll(200);
    const refused = vi.fn();
    window.addEventListener(OFFLINE_REFUSED_EVENT, refused);
    try {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        await expect(apiRequest(method, '/api/wants/1', {})).rejects.toBeInstanceOf(OfflineError);
      }
      expect(refused).toHaveBeenCalledTimes(4);
      expect(api.sent).toEqual([]);
      // Reads still go out: the service worker may answer with the last-seen copy.
      await apiRequest('GET', '/api/saved-items');
      expect(api.sent.map((request) => `${request.method} ${request.url}`)).toEqual(['GET /api/saved-items']);
    } finally {
      window.removeEventListener(OFFLINE_REFUSED_EVENT, refused);
    }
  });
});
