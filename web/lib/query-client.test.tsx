import { MutationObserver } from '@tanstack/react-query';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { busyResponse as busy, recordRequests, server } from '../testing/server';
import { apiGet, apiRequest } from './api-client';
import { createQueryClient, READ_RETRY_MAX_WAIT_S, storeAnswer } from './query-client';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** Answers GET /api/x with `answers` in turn (the last one again and again). */
function stubReads(...answers: (() => Response)[]) {
  let served = 0;
  server.use(
    http.get('/api/x', () =>
      (answers[Math.min(served++, answers.length - 1)] ?? (() => HttpResponse.json(null)))(),
    ),
    http.post('/api/x', () => busy()),
  );
  return recordRequests();
}

const read = () => ({ queryKey: ['x'], queryFn: () => apiGet<{ ok: boolean }>('/api/x') });

describe('a read answered 503 (ADR 052)', () => {
  it('is asked for once more after its Retry-After, and the answer is used', async () => {
    vi.useFakeTimers();
    const api = stubReads(
      () => busy('2'),
      () => HttpResponse.json({ ok: true }),
    );
    const result = createQueryClient().fetchQuery(read());
    await vi.advanceTimersByTimeAsync(1_999);
    expect(api.to('GET /api/x')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toEqual({ ok: true });
    expect(api.to('GET /api/x')).toHaveLength(2);
  });

  it.each([
    ['without a Retry-After, 2 s', null, 2_000],
    [`never more than ${READ_RETRY_MAX_WAIT_S} s, whatever it says`, '3600', READ_RETRY_MAX_WAIT_S * 1000],
  ])('waits %s', async (_name, retryAfter, wait) => {
    vi.useFakeTimers();
    const api = stubReads(
      () => busy(retryAfter),
      () => HttpResponse.json({ ok: true }),
    );
    const result = createQueryClient().fetchQuery(read());
    await vi.advanceTimersByTimeAsync(wait - 1);
    expect(api.to('GET /api/x')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toEqual({ ok: true });
  });

  it('answered 503 again, is not asked for a third time', async () => {
    const api = stubReads(() => busy('0'));
    await expect(createQueryClient().fetchQuery(read())).rejects.toMatchObject({ status: 503 });
    expect(api.to('GET /api/x')).toHaveLength(2);
  });

  it('other failures are not retried, and writes never are', async () => {
    server.use(
      http.get('/api/x', () => new Response('{"message":"Nope.","code":"INTERNAL"}', { status: 500 })),
      http.post('/api/x', () => busy('0')),
    );
    const api = recordRequests();
    const client = createQueryClient();
    await expect(client.fetchQuery(read())).rejects.toMatchObject({ status: 500 });
    expect(api.to('GET /api/x')).toHaveLength(1);

    const write = new MutationObserver(client, { mutationFn: () => apiRequest('POST', '/api/x', {}) });
    await expect(write.mutate()).rejects.toMatchObject({ status: 503 });
    expect(api.to('POST /api/x')).toHaveLength(1);
  });
});

describe('storeAnswer: what a write answered', () => {
  it('is not overwritten by an older read of the same query that was still on its way', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let arrived: () => void = () => {};
    const asked = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    server.use(
      http.get('/api/x', async () => {
        arrived();
        await held;
        return HttpResponse.json({ ok: false });
      }),
    );
    const queryClient = createQueryClient();
    queryClient.setQueryData(['x'], { ok: false });
    // A page opened from the cache asks again: the answer is on its way when the write's comes.
    const older = queryClient.fetchQuery({ ...read(), staleTime: 0 }).catch(() => 'cancelled');
    await asked;

    await storeAnswer(queryClient, ['x'], { ok: true });
    release();
    await older;
    expect(queryClient.getQueryData(['x'])).toEqual({ ok: true });
    expect(queryClient.getQueryState(['x'])?.fetchStatus).toBe('idle');
  });

  it('takes an updater of what is kept', async () => {
    const queryClient = createQueryClient();
    queryClient.setQueryData(['n'], 1);
    await storeAnswer<number>(queryClient, ['n'], (n) => (n ?? 0) + 1);
    expect(queryClient.getQueryData(['n'])).toBe(2);
  });
});
