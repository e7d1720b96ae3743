import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiGet, apiRequest } from './api-client';
import { OFFLINE_REFUSED_EVENT, OfflineError } from './offline';
import { API_CACHE_NAME, CACHED_API_READS } from './offline-caches';

function stubCaches() {
  const remove = vi.fn(async (_name: string) => true);
  vi.stubGlobal('caches', { delete: remove });
  return remove;
}

function stubFetch(status: number, body = '{}') {
  const fetchMock = vi.fn(async () => new Response(body, { status }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
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
      stubFetch(200);
      await apiRequest(method, url, {});
      expect(remove, `${method} ${url}`).toHaveBeenCalledWith(API_CACHE_NAME);
    }
  });

  it('are forgotten whenever the server says nobody is signed in', async () => {
    let remove = stubCaches();
    stubFetch(401);
    expect(await apiGet('/api/auth/user', { on401: 'returnNull' })).toBeNull();
    expect(remove).toHaveBeenCalledWith(API_CACHE_NAME);

    remove = stubCaches();
    stubFetch(401, '{"message":"Not signed in","code":"UNAUTHORIZED"}');
    await expect(apiGet('/api/feed/recent')).rejects.toThrow('401');
    expect(remove).toHaveBeenCalledWith(API_CACHE_NAME);
  });

  it('stay through other writes and reads', async () => {
    const remove = stubCaches();
    stubFetch(200);
    await apiRequest('POST', '/api/wants', { title: 'Drill' });
    await apiGet('/api/feed/recent');
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
    const fetchMock = stubFetch(200);
    const refused = vi.fn();
    window.addEventListener(OFFLINE_REFUSED_EVENT, refused);
    try {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        await expect(apiRequest(method, '/api/wants/1', {})).rejects.toBeInstanceOf(OfflineError);
      }
      expect(refused).toHaveBeenCalledTimes(4);
      expect(fetchMock).not.toHaveBeenCalled();
      // Reads still go out: the service worker may answer with the last-seen copy.
      await apiRequest('GET', '/api/saved-items');
      expect(fetchMock).toHaveBeenCalledTimes(1);
    } finally {
      window.removeEventListener(OFFLINE_REFUSED_EVENT, refused);
    }
  });
});
