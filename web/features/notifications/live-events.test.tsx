import { QueryClientProvider, QueryObserver } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '#common/schemas/barters.ts';
import type { Notification } from '#common/schemas/notifications.ts';
import { createQueryClient } from '../../lib/query-client';
import { barterKeys, circleKeys, notificationKeys, unreadKeys } from '../../lib/query-keys';
import {
  closeLiveEvents,
  LINGER_MS,
  type MemberEvent,
  openLiveEvents,
  RETRY_FIRST_MS,
  subscribeToMemberEvents,
  useLiveEvents,
} from './live-events';

/** A stand-in for the browser's EventSource: the test opens, fails and feeds it by hand. */
class FakeEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;
  closed = false;
  constructor(
    readonly url: string,
    readonly init?: EventSourceInit,
  ) {
    super();
    FakeEventSource.instances.push(this);
  }
  close() {
    this.closed = true;
    this.readyState = FakeEventSource.CLOSED;
  }
  open() {
    this.readyState = FakeEventSource.OPEN;
    this.dispatchEvent(new Event('open'));
  }
  /** A dropped connection the browser retries (`gaveUp` false), or a refused one it does not. */
  fail(gaveUp: boolean) {
    this.readyState = gaveUp ? FakeEventSource.CLOSED : FakeEventSource.CONNECTING;
    this.dispatchEvent(new Event('error'));
  }
  emit(type: string, data: unknown, id = '1') {
    this.dispatchEvent(new MessageEvent(type, { data: JSON.stringify(data), lastEventId: id }));
  }
}

const latest = () => {
  const source = FakeEventSource.instances.at(-1);
  if (!source) throw new Error('no EventSource was opened');
  return source;
};

const counts = (notifications: number, messages: number) => ({ notifications, messages });

function message(id: number, threadId = 7): ChatMessage {
  return {
    id,
    barterRequestId: threadId,
    fromUserId: 'ann',
    fromMe: false,
    content: `Message ${id}`,
    isRead: false,
    createdAt: new Date(2026, 0, 1, 12, id).toISOString(),
  };
}

const notification: Notification = {
  id: 3,
  kind: 'proposal_received',
  barterRequestId: 7,
  circleId: null,
  swapDay: null,
  actor: { id: 'ann', displayName: 'Ann R.', profileImageUrl: null },
  count: 1,
  handOver: null,
  createdAt: new Date().toISOString(),
  read: false,
};

/** Seed a query as fresh data, so invalidation is visible as isInvalidated. */
function seed(queryClient: ReturnType<typeof createQueryClient>, key: readonly unknown[], data: unknown) {
  queryClient.setQueryData(key, data);
}
const invalidated = (queryClient: ReturnType<typeof createQueryClient>, key: readonly unknown[]) =>
  queryClient.getQueryState(key)?.isInvalidated ?? false;

let queryClient: ReturnType<typeof createQueryClient>;
const signedIn = vi.fn(async () => true);

beforeEach(() => {
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  queryClient = createQueryClient();
  signedIn.mockReset().mockResolvedValue(true);
});

afterEach(() => {
  closeLiveEvents();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('live events: the cache', () => {
  it('opens one stream on /api/events with credentials', () => {
    const release = openLiveEvents(queryClient, { stillSignedIn: signedIn });
    openLiveEvents(queryClient, { stillSignedIn: signedIn });
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(latest().url).toBe('/api/events');
    expect(latest().init).toEqual({ withCredentials: true });
    release();
  });

  it("'counts' sets both badges, and the inbox reads its counts again", () => {
    // Opened first: its first open reads again what the page held (tested below).
    openLiveEvents(queryClient, { stillSignedIn: signedIn });
    latest().open();
    seed(queryClient, barterKeys.conversations(), { pages: [], pageParams: [] });
    seed(queryClient, barterKeys.list('active'), []);
    latest().emit('counts', counts(4, 2));
    expect(queryClient.getQueryData(unreadKeys.notifications)).toBe(4);
    expect(queryClient.getQueryData(unreadKeys.messages)).toBe(2);
    expect(invalidated(queryClient, barterKeys.conversations())).toBe(true);
    expect(invalidated(queryClient, barterKeys.list('active'))).toBe(false);
  });

  it("'notification' sets the badges and makes the bell's list stale", () => {
    openLiveEvents(queryClient, { stillSignedIn: signedIn });
    latest().open();
    seed(queryClient, notificationKeys.list(), { pages: [], pageParams: [] });
    latest().emit('notification', { notification, counts: counts(1, 0) });
    expect(queryClient.getQueryData(unreadKeys.notifications)).toBe(1);
    expect(queryClient.getQueryData(unreadKeys.messages)).toBe(0);
    expect(invalidated(queryClient, notificationKeys.list())).toBe(true);
  });

  it("'message' adds the message to a loaded conversation once, in order, and makes the lists stale", () => {
    openLiveEvents(queryClient, { stillSignedIn: signedIn });
    latest().open();
    seed(queryClient, barterKeys.messages(7), [message(1), message(2)]);
    seed(queryClient, barterKeys.list('active'), []);
    // The inbox (ADR 076) reads again too: its row moves to the top with the new count.
    seed(queryClient, barterKeys.conversations(), { pages: [], pageParams: [] });
    latest().emit('message', { message: message(5), counts: counts(1, 3) });
    latest().emit('message', { message: message(5), counts: counts(1, 3) });
    latest().emit('message', { message: message(4), counts: counts(1, 4) });
    const ids = queryClient.getQueryData<ChatMessage[]>(barterKeys.messages(7))?.map((m) => m.id);
    expect(ids).toEqual([1, 2, 4, 5]);
    expect(queryClient.getQueryData(unreadKeys.messages)).toBe(4);
    expect(invalidated(queryClient, barterKeys.list('active'))).toBe(true);
    expect(invalidated(queryClient, barterKeys.conversations())).toBe(true);
  });

  it("'message' for a conversation that is not loaded creates no cache", () => {
    openLiveEvents(queryClient, { stillSignedIn: signedIn });
    latest().open();
    latest().emit('message', { message: message(5, 9), counts: counts(0, 1) });
    expect(queryClient.getQueryData(barterKeys.messages(9))).toBeUndefined();
    expect(queryClient.getQueryData(unreadKeys.messages)).toBe(1);
  });

  it("'message' during the conversation's first read: that read starts over, and the message shows", async () => {
    openLiveEvents(queryClient, { stillSignedIn: signedIn });
    latest().open();
    // The server's list as it was when the read began (without message 5), then as it is now.
    const answers = [[message(1)], [message(1), message(5)]];
    let release!: () => void;
    const firstAnswerHeld = new Promise<void>((resolve) => (release = resolve));
    let reads = 0;
    // The conversation on screen: an observer, as its useQuery is.
    const unsubscribe = new QueryObserver(queryClient, {
      queryKey: barterKeys.messages(7),
      queryFn: async () => {
        const answer = answers[reads++];
        if (reads === 1) await firstAnswerHeld;
        return answer;
      },
    }).subscribe(() => undefined);
    await vi.waitFor(() => expect(reads).toBe(1));
    latest().emit('message', { message: message(5), counts: counts(0, 1) });
    release();
    await vi.waitFor(() =>
      expect(queryClient.getQueryData<ChatMessage[]>(barterKeys.messages(7))?.map((m) => m.id)).toEqual([
        1, 5,
      ]),
    );
    expect(reads).toBe(2);
    unsubscribe();
  });

  it("'barter' makes that barter, the lists and what a barter changes elsewhere stale, not other barters", () => {
    openLiveEvents(queryClient, { stillSignedIn: signedIn });
    latest().open();
    seed(queryClient, barterKeys.detail(7), { id: 7 });
    seed(queryClient, barterKeys.detail(8), { id: 8 });
    seed(queryClient, barterKeys.list('incoming'), []);
    seed(queryClient, unreadKeys.notifications, 0);
    // The other member's step can reserve or trade items and add a rating.
    const elsewhere = [
      ['feed', 'list', { feed: 'everything' }],
      ['trades', 'stats', 'me'],
      ['members', 'them', 'profile'],
      ['saved-items'],
    ];
    for (const key of elsewhere) seed(queryClient, key, 1);
    latest().emit('barter', { barterRequestId: 7, threadId: 7 });
    expect(invalidated(queryClient, barterKeys.detail(7))).toBe(true);
    expect(invalidated(queryClient, barterKeys.list('incoming'))).toBe(true);
    for (const key of elsewhere) expect(invalidated(queryClient, key), JSON.stringify(key)).toBe(true);
    expect(invalidated(queryClient, barterKeys.detail(8))).toBe(false);
    expect(invalidated(queryClient, unreadKeys.notifications)).toBe(false);
  });

  it("'circle' makes the circles, the barter lists and the feeds stale", () => {
    openLiveEvents(queryClient, { stillSignedIn: signedIn });
    latest().open();
    seed(queryClient, circleKeys.detail(5), { id: 5 });
    seed(queryClient, circleKeys.list('proposed'), []);
    seed(queryClient, barterKeys.list('active'), []);
    seed(queryClient, ['feed', 'list', { feed: 'barter-match' }], 1);
    seed(queryClient, unreadKeys.notifications, 0);
    latest().emit('circle', { circleId: 5 });
    expect(invalidated(queryClient, circleKeys.detail(5))).toBe(true);
    expect(invalidated(queryClient, circleKeys.list('proposed'))).toBe(true);
    expect(invalidated(queryClient, barterKeys.list('active'))).toBe(true);
    expect(invalidated(queryClient, ['feed', 'list', { feed: 'barter-match' }])).toBe(true);
    expect(invalidated(queryClient, unreadKeys.notifications)).toBe(false);
  });

  it("'resync' makes counts, notifications and barters stale", () => {
    openLiveEvents(queryClient, { stillSignedIn: signedIn });
    latest().open();
    for (const key of [
      unreadKeys.notifications,
      unreadKeys.messages,
      notificationKeys.list(),
      barterKeys.detail(8),
    ])
      seed(queryClient, key, 1);
    seed(queryClient, ['profile'], 1);
    latest().emit('resync', {});
    for (const key of [
      unreadKeys.notifications,
      unreadKeys.messages,
      notificationKeys.list(),
      barterKeys.detail(8),
    ])
      expect(invalidated(queryClient, key)).toBe(true);
    expect(invalidated(queryClient, ['profile'])).toBe(false);
  });

  it('ignores an event whose data is not a JSON object (its shape is checked by the server tests, ADR 046)', () => {
    openLiveEvents(queryClient, { stillSignedIn: signedIn });
    latest().open();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    latest().emit('counts', [7, 8]);
    latest().emit('counts', 'many');
    latest().dispatchEvent(new MessageEvent('counts', { data: 'not json' }));
    expect(queryClient.getQueryData(unreadKeys.notifications)).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(3);
    latest().emit('counts', counts(2, 1));
    expect(queryClient.getQueryData(unreadKeys.notifications)).toBe(2);
    warn.mockRestore();
  });

  it('tells subscribers about each event after the cache took it', () => {
    openLiveEvents(queryClient, { stillSignedIn: signedIn });
    latest().open();
    const seen: Array<[MemberEvent['type'], unknown]> = [];
    const unsubscribe = subscribeToMemberEvents((event) =>
      seen.push([event.type, queryClient.getQueryData(unreadKeys.messages)]),
    );
    latest().emit('message', { message: message(1), counts: counts(0, 6) });
    unsubscribe();
    latest().emit('counts', counts(0, 0));
    expect(seen).toEqual([['message', 6]]);
  });
});

describe('live events: the connection', () => {
  it('on its first open reads again what the page holds, the counts aside: a step taken just before it listened', () => {
    // The page read the barter (accepted) and the bell's list before the server listened for this
    // member; the other member confirmed in between, so no event will say so.
    seed(queryClient, barterKeys.detail(7), { id: 7, status: 'accepted' });
    seed(queryClient, notificationKeys.list(), { pages: [], pageParams: [] });
    seed(queryClient, unreadKeys.notifications, 2);
    openLiveEvents(queryClient, { stillSignedIn: signedIn });
    expect(invalidated(queryClient, barterKeys.detail(7))).toBe(false);
    latest().open();
    expect(invalidated(queryClient, barterKeys.detail(7))).toBe(true);
    expect(invalidated(queryClient, notificationKeys.list())).toBe(true);
    // The stream's first event brings the counts.
    expect(invalidated(queryClient, unreadKeys.notifications)).toBe(false);
    // Read again once, not at every open of one stream (a reconnect reads everything, tested below).
    seed(queryClient, barterKeys.detail(7), { id: 7, status: 'completed' });
    latest().emit('counts', counts(0, 0));
    expect(invalidated(queryClient, barterKeys.detail(7))).toBe(false);
  });

  it('reads everything again after a reconnect, not on the first open', () => {
    seed(queryClient, unreadKeys.notifications, 2);
    openLiveEvents(queryClient, { stillSignedIn: signedIn });
    latest().open();
    expect(invalidated(queryClient, unreadKeys.notifications)).toBe(false);
    latest().fail(false); // dropped: the browser reconnects by itself
    latest().open();
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(invalidated(queryClient, unreadKeys.notifications)).toBe(true);
  });

  it('stops for good when the stream is refused and the member is signed out', async () => {
    openLiveEvents(queryClient, { stillSignedIn: signedIn });
    signedIn.mockResolvedValue(false);
    vi.useFakeTimers();
    latest().fail(true); // e.g. 401: the browser does not retry
    await vi.advanceTimersByTimeAsync(RETRY_FIRST_MS * 100);
    expect(signedIn).toHaveBeenCalledTimes(1);
    expect(FakeEventSource.instances).toHaveLength(1);
  });

  it('opens again, later each time, when refused while still signed in, and reads everything again', async () => {
    seed(queryClient, unreadKeys.messages, 2);
    openLiveEvents(queryClient, { stillSignedIn: signedIn });
    vi.useFakeTimers();
    latest().open();
    latest().emit('counts', counts(0, 2), '41');
    latest().fail(true); // e.g. 503
    await vi.advanceTimersByTimeAsync(RETRY_FIRST_MS - 1);
    expect(FakeEventSource.instances).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeEventSource.instances).toHaveLength(2);
    // A new EventSource sends no Last-Event-ID header: it asks in the URL instead.
    expect(latest().url).toBe('/api/events?lastEventId=41');
    latest().fail(true);
    await vi.advanceTimersByTimeAsync(RETRY_FIRST_MS * 2 - 1);
    expect(FakeEventSource.instances).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeEventSource.instances).toHaveLength(3);
    latest().open();
    expect(invalidated(queryClient, unreadKeys.messages)).toBe(true);
  });

  it('outlives its last user briefly, so moving between pages keeps the connection', async () => {
    vi.useFakeTimers();
    const releaseHome = openLiveEvents(queryClient, { stillSignedIn: signedIn });
    const source = latest();
    releaseHome();
    await vi.advanceTimersByTimeAsync(LINGER_MS - 1);
    const releaseProfile = openLiveEvents(queryClient, { stillSignedIn: signedIn });
    expect(FakeEventSource.instances).toEqual([source]);
    expect(source.closed).toBe(false);
    releaseProfile();
    await vi.advanceTimersByTimeAsync(LINGER_MS);
    expect(source.closed).toBe(true);
  });

  it('useLiveEvents opens while signed in and closes at once on sign-out', () => {
    function Probe({ signedIn: on }: { signedIn: boolean }) {
      useLiveEvents(on, signedIn);
      return null;
    }
    const { rerender } = render(
      <QueryClientProvider client={queryClient}>
        <Probe signedIn={false} />
      </QueryClientProvider>,
    );
    expect(FakeEventSource.instances).toHaveLength(0);
    rerender(
      <QueryClientProvider client={queryClient}>
        <Probe signedIn />
      </QueryClientProvider>,
    );
    expect(FakeEventSource.instances).toHaveLength(1);
    act(() => latest().emit('counts', counts(5, 0)));
    expect(queryClient.getQueryData(unreadKeys.notifications)).toBe(5);
    rerender(
      <QueryClientProvider client={queryClient}>
        <Probe signedIn={false} />
      </QueryClientProvider>,
    );
    expect(latest().closed).toBe(true);
  });
});

describe('live events: without EventSource', () => {
  it('does nothing, so screens render where the browser (or jsdom) has none', () => {
    vi.stubGlobal('EventSource', undefined);
    const release = openLiveEvents(queryClient, { stillSignedIn: signedIn });
    release();
    expect(FakeEventSource.instances).toHaveLength(0);
  });
});
