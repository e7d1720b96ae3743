import { MutationObserver } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HomeFeed } from '../features/feed/components/home-feed';
import { AddItemProvider } from '../features/listings/components/add-item-context';
import { stubApi } from '../testing/api-stub';
import { jsonResponse, renderWithProviders } from '../testing/render';
import { apiGet, apiRequest } from './api-client';
import { createQueryClient, READ_RETRY_MAX_WAIT_S } from './query-client';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** The load-shedding answer (server/plugins/load-shedding.ts): 503 in the contract's shape. */
const busy = (retryAfter: string | null = '2') =>
  new Response(
    JSON.stringify({
      message: 'The service is temporarily unavailable. Please try again shortly.',
      code: 'SERVICE_UNAVAILABLE',
    }),
    {
      status: 503,
      headers: {
        'content-type': 'application/json',
        ...(retryAfter === null ? {} : { 'retry-after': retryAfter }),
      },
    },
  );

/** Answers GET /api/x with `answers` in turn (the last one again and again). */
function stubReads(...answers: (() => Response)[]) {
  let served = 0;
  return stubApi({
    'GET /api/x': () => (answers[Math.min(served++, answers.length - 1)] ?? (() => jsonResponse(null)))(),
    'POST /api/x': () => busy(),
  });
}

const read = () => ({ queryKey: ['x'], queryFn: () => apiGet<{ ok: boolean }>('/api/x') });

describe('a read answered 503 (ADR 052)', () => {
  it('is asked for once more after its Retry-After, and the answer is used', async () => {
    vi.useFakeTimers();
    const api = stubReads(
      () => busy('2'),
      () => jsonResponse({ ok: true }),
    );
    const result = createQueryClient().fetchQuery(read());
    await vi.advanceTimersByTimeAsync(1_999);
    expect(api.callsTo('GET /api/x')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toEqual({ ok: true });
    expect(api.callsTo('GET /api/x')).toHaveLength(2);
  });

  it.each([
    ['without a Retry-After, 2 s', null, 2_000],
    [`never more than ${READ_RETRY_MAX_WAIT_S} s, whatever it says`, '3600', READ_RETRY_MAX_WAIT_S * 1000],
  ])('waits %s', async (_name, retryAfter, wait) => {
    vi.useFakeTimers();
    const api = stubReads(
      () => busy(retryAfter),
      () => jsonResponse({ ok: true }),
    );
    const result = createQueryClient().fetchQuery(read());
    await vi.advanceTimersByTimeAsync(wait - 1);
    expect(api.callsTo('GET /api/x')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toEqual({ ok: true });
  });

  it('answered 503 again, is not asked for a third time', async () => {
    const api = stubReads(() => busy('0'));
    await expect(createQueryClient().fetchQuery(read())).rejects.toMatchObject({ status: 503 });
    expect(api.callsTo('GET /api/x')).toHaveLength(2);
  });

  it('other failures are not retried, and writes never are', async () => {
    const api = stubApi({
      'GET /api/x': () => new Response('{"message":"Nope.","code":"INTERNAL"}', { status: 500 }),
      'POST /api/x': () => busy('0'),
    });
    const client = createQueryClient();
    await expect(client.fetchQuery(read())).rejects.toMatchObject({ status: 500 });
    expect(api.callsTo('GET /api/x')).toHaveLength(1);

    const write = new MutationObserver(client, { mutationFn: () => apiRequest('POST', '/api/x', {}) });
    await expect(write.mutate()).rejects.toMatchObject({ status: 503 });
    expect(api.callsTo('POST /api/x')).toHaveLength(1);
  });
});

describe('the feed, when the server is busy twice', () => {
  it('says what happened, and Try again loads it', async () => {
    let feedCalls = 0;
    stubApi({
      'GET /api/account/getting-started': () =>
        jsonResponse({ area: true, want: false, item: false, completed: true }),
      'GET /api/feed/barter-match': () =>
        ++feedCalls <= 2 ? busy('0') : jsonResponse([{ ...FEED_ITEM, id: 1, title: 'Cordless drill' }]),
    });
    renderWithProviders(
      <AddItemProvider>
        <HomeFeed />
      </AddItemProvider>,
    );
    expect(await screen.findByText('The feed could not be loaded.')).toBeVisible();
    expect(
      screen.getByText('The service is temporarily unavailable. Please try again shortly.'),
    ).toBeVisible();
    expect(feedCalls).toBe(2);

    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Cordless drill' })).toBeVisible();
    expect(feedCalls).toBe(3);
  });
});

const FEED_ITEM = {
  description: 'Barely used',
  category: 'tools',
  isService: false,
  imageUrl: null,
  thumbnailUrl: null,
  estimatedValue: 20,
  createdAt: new Date().toISOString(),
  isSaved: false,
  user: { id: 'u1', firstName: 'Maya', lastName: 'O.', profileImageUrl: null },
  distanceMiles: 1.24,
  owner: { rating: 4.9, completedTrades: 23 },
  lookingFor: [],
  match: null,
};
