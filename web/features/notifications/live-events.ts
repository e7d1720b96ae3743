import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { EVENTS_PATH, MEMBER_EVENT_TYPES, type MemberEventType } from '#common/member-events.ts';
import type { ChatMessage } from '#common/schemas/barters.ts';
import type { MemberEventData } from '#common/schemas/events.ts';
import { refreshAfterBarterChange } from '../../lib/barter-refresh';
import { barterKeys, circleKeys, notificationKeys, swapDayKeys, unreadKeys } from '../../lib/query-keys';
import { setUnreadCounts } from '../../lib/unread-counts';

/**
 * The live layer (issue 13): one EventSource on GET /api/events per page while a member is signed in.
 * Events write into the query cache (badges, the bell's list, conversations, barters); nothing polls.
 * The browser reconnects by itself after a dropped connection and sends Last-Event-ID (an opaque
 * text, ADR 054: kept and sent back as it came, never read), so the server replays what was missed
 * (or sends 'resync'); the queries the events feed are read again anyway
 * after a reconnect, in case the replay fell short.
 */

/** One event from the stream, its data as the shared contract (`common/schemas/events.ts`) shapes it. */
export type MemberEvent = { [T in MemberEventType]: { type: T; data: MemberEventData<T> } }[MemberEventType];

/** How long the stream stays open after the last page using it unmounts (a move to another page). */
export const LINGER_MS = 10_000;
/** First and longest wait before opening the stream again after the browser gave up on it. */
export const RETRY_FIRST_MS = 1_000;
export const RETRY_MAX_MS = 30_000;

// --- A tiny subscription for screens that want to react to events (the barter page). ---

type Listener = (event: MemberEvent) => void;
const listeners = new Set<Listener>();

/** Call `listener` with every event, after the cache has taken it; returns the unsubscribe. */
export function subscribeToMemberEvents(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

// --- What each event does to the cache. ---

/**
 * Read again everything the events keep up to date (after a reconnect or a 'resync'). `withCounts`
 * false leaves the unread counts, which a stream's first event sets anyway.
 */
export function invalidateLiveQueries(queryClient: QueryClient, withCounts = true): Promise<unknown> {
  return Promise.all([
    withCounts ? queryClient.invalidateQueries({ queryKey: unreadKeys.all }) : undefined,
    queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
    queryClient.invalidateQueries({ queryKey: barterKeys.all }),
    queryClient.invalidateQueries({ queryKey: swapDayKeys.all }),
    queryClient.invalidateQueries({ queryKey: circleKeys.all }),
  ]);
}

/**
 * Put a new message at its place in its conversation's cache, when that conversation is loaded. When
 * its first read is under way, that read began before the message was written and its answer would
 * leave the message out: it starts over. (A read again of a loaded conversation keeps what the cache
 * holds when it lands: messagesQuery merges.)
 */
function addMessage(queryClient: QueryClient, message: ChatMessage): void {
  const key = barterKeys.messages(message.barterRequestId);
  const cached = queryClient.getQueryData<unknown>(key);
  if (cached === undefined) {
    if (queryClient.getQueryState(key)?.fetchStatus === 'fetching') {
      // Invalidating does not cancel a first read (its callers wait on it): cancel it, then read.
      void queryClient
        .cancelQueries({ queryKey: key })
        .then(() => queryClient.invalidateQueries({ queryKey: key }));
    }
    return;
  }
  if (!Array.isArray(cached)) {
    // Not the plain ascending list this layer knows how to extend: let the page read it again.
    void queryClient.invalidateQueries({ queryKey: key });
    return;
  }
  const messages = cached as ChatMessage[];
  if (messages.some((m) => m.id === message.id)) return;
  queryClient.setQueryData<ChatMessage[]>(
    key,
    [...messages, message].sort((a, b) => a.id - b.id),
  );
}

/** Apply one event to the query cache. */
export function applyMemberEvent(queryClient: QueryClient, event: MemberEvent): void {
  switch (event.type) {
    case 'counts':
      setUnreadCounts(queryClient, event.data);
      // A conversation read on another page: the inbox's counts follow the icon's (ADR 076).
      void queryClient.invalidateQueries({ queryKey: barterKeys.conversations() });
      break;
    case 'notification':
      setUnreadCounts(queryClient, event.data.counts);
      void queryClient.invalidateQueries({ queryKey: notificationKeys.list() });
      break;
    case 'message':
      setUnreadCounts(queryClient, event.data.counts);
      addMessage(queryClient, event.data.message);
      void queryClient.invalidateQueries({ queryKey: barterKeys.lists() });
      break;
    case 'barter':
      void queryClient.invalidateQueries({ queryKey: barterKeys.detail(event.data.barterRequestId) });
      void refreshAfterBarterChange(queryClient);
      break;
    case 'circle':
      // Proposed, answered or dissolved: the circles read again. The last accept makes barters and a
      // dissolution frees items (and their Barter Match marks): as after a barter's step.
      void refreshAfterBarterChange(queryClient);
      break;
    case 'swapDay':
      // Joined, offered, matched or cancelled: its page, sheet and the lists read it again.
      void queryClient.invalidateQueries({ queryKey: swapDayKeys.detail(event.data.swapDayId) });
      void queryClient.invalidateQueries({ queryKey: swapDayKeys.sheet(event.data.swapDayId) });
      void queryClient.invalidateQueries({ queryKey: swapDayKeys.lists() });
      break;
    case 'resync':
      void invalidateLiveQueries(queryClient);
      break;
  }
}

/**
 * The event in a MessageEvent of type `type`, or null when its data is not a JSON object. Its shape
 * is the server's to keep, as for every answer the app reads (ADR 046): the server's tests check
 * every event they read against `memberEventSchemas` (server/test/event-stream-client.ts), and the
 * browser does not load zod for it on every member page.
 */
export function parseMemberEvent(type: MemberEventType, raw: string): MemberEvent | null {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  return { type, data } as MemberEvent;
}

// --- The one connection of the page. ---

export interface LiveEventsOptions {
  /**
   * Asked when the browser gave up on the stream (it answered something other than an event stream:
   * 401 once signed out elsewhere, 429, 503). False stops for good; true opens it again later.
   */
  stillSignedIn: () => Promise<boolean>;
}

interface Connection {
  queryClient: QueryClient;
  options: LiveEventsOptions;
  source: EventSource | null;
  users: number;
  /** The stream failed since it last opened: events may have been missed, so the next 'open' reads again. */
  failed: boolean;
  /** The stream has opened once: the server listens for this member. */
  opened: boolean;
  /** The id of the last event received, so a stream opened again by hand catches up from there. */
  lastEventId: string;
  retryDelay: number;
  retryTimer: ReturnType<typeof setTimeout> | undefined;
  lingerTimer: ReturnType<typeof setTimeout> | undefined;
}

let connection: Connection | null = null;

function openSource(conn: Connection): void {
  // The browser sends Last-Event-ID itself when it reconnects; a new EventSource says it in the URL.
  const url = conn.lastEventId
    ? `${EVENTS_PATH}?lastEventId=${encodeURIComponent(conn.lastEventId)}`
    : EVENTS_PATH;
  const source = new EventSource(url, { withCredentials: true });
  conn.source = source;
  source.addEventListener('open', () => {
    conn.retryDelay = RETRY_FIRST_MS;
    if (conn.failed) void invalidateLiveQueries(conn.queryClient);
    // A new page asks for its data and opens the stream at once: what another member did between
    // the server reading that data and starting to listen (the other side confirming just as this
    // page opened) comes by no event. So what the page already holds or is fetching is read again
    // once the server listens; a query asked for later is fresh anyway. Only active queries are
    // fetched (on the feed, usually none besides the counts, which the first event brings).
    else if (!conn.opened) void invalidateLiveQueries(conn.queryClient, false);
    conn.opened = true;
    conn.failed = false;
  });
  source.addEventListener('error', () => {
    conn.failed = true;
    // CONNECTING: the browser retries by itself (and sends Last-Event-ID). CLOSED: it gave up.
    if (source.readyState !== EventSource.CLOSED || connection !== conn) return;
    source.close();
    conn.source = null;
    void conn.options.stillSignedIn().then((signedIn) => {
      if (!signedIn || connection !== conn) return;
      conn.retryTimer = setTimeout(() => {
        conn.retryTimer = undefined;
        if (connection === conn && !conn.source) openSource(conn);
      }, conn.retryDelay);
      conn.retryDelay = Math.min(conn.retryDelay * 2, RETRY_MAX_MS);
    });
  });
  for (const type of MEMBER_EVENT_TYPES) {
    source.addEventListener(type, (raw) => {
      const message = raw as MessageEvent<string>;
      if (message.lastEventId) conn.lastEventId = message.lastEventId;
      const event = parseMemberEvent(type, message.data);
      if (!event) {
        console.warn(`Ignored a malformed '${type}' event`);
        return;
      }
      applyMemberEvent(conn.queryClient, event);
      for (const listener of listeners) listener(event);
    });
  }
}

/** Close the page's stream now (signed out, or tests). */
export function closeLiveEvents(): void {
  if (!connection) return;
  clearTimeout(connection.retryTimer);
  clearTimeout(connection.lingerTimer);
  connection.source?.close();
  connection = null;
}

/**
 * Use the page's stream, opening it if needed; returns the release. The stream outlives its last user
 * by LINGER_MS, so moving between member pages keeps one connection instead of dropping events.
 */
export function openLiveEvents(queryClient: QueryClient, options: LiveEventsOptions): () => void {
  // Without EventSource (component tests in jsdom) the page simply has no live updates.
  if (typeof EventSource === 'undefined') return () => {};
  if (connection && connection.queryClient !== queryClient) closeLiveEvents();
  if (!connection) {
    connection = {
      queryClient,
      options,
      source: null,
      users: 0,
      failed: false,
      opened: false,
      lastEventId: '',
      retryDelay: RETRY_FIRST_MS,
      retryTimer: undefined,
      lingerTimer: undefined,
    };
    openSource(connection);
  }
  const conn = connection;
  conn.options = options;
  conn.users += 1;
  clearTimeout(conn.lingerTimer);
  conn.lingerTimer = undefined;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    conn.users -= 1;
    if (conn.users > 0 || connection !== conn) return;
    conn.lingerTimer = setTimeout(() => {
      if (connection === conn && conn.users === 0) closeLiveEvents();
    }, LINGER_MS);
  };
}

/**
 * Keep the page's stream open while `signedIn`; closes it as soon as that turns false. Used once, by
 * the member layout.
 */
export function useLiveEvents(signedIn: boolean, stillSignedIn: () => Promise<boolean>): void {
  const queryClient = useQueryClient();
  const check = useRef(stillSignedIn);
  check.current = stillSignedIn;
  useEffect(() => {
    if (!signedIn) {
      closeLiveEvents();
      return;
    }
    return openLiveEvents(queryClient, { stillSignedIn: () => check.current() });
  }, [signedIn, queryClient]);
}
