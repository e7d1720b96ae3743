import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { ERROR_CODES } from '#common/error-codes.ts';
import { type DatabaseHandle, type Db, inBackground } from '../db/client';
import { HttpError } from '../errors';
import { markSeen, unreadCounts } from '../features/notifications';
import { liveSessionIds } from '../plugins/session-store';
import type { EventIdCodec } from './event-ids';
import { EventStream, type OutgoingEvent } from './event-stream';
import {
  type EventCursor,
  eventIsStored,
  latestEventId,
  readEventsAfter,
  type StoredMemberEvent,
} from './events-repository';
import { MEMBER_EVENTS_CHANNEL, type MemberEventNotice, readMemberEvents } from './publish';

/** Most events a reconnecting page is sent one by one; a larger gap gets one 'resync' instead. */
export const CATCH_UP_LIMIT = 200;
/**
 * How long a page whose stream made room for a newer one of the same member (EVENT_STREAMS_PER_MEMBER)
 * waits before its browser reconnects, so two pages over the limit do not take turns every few seconds.
 */
export const EVICTED_RETRY_MS = 60_000;
/** Members per catch-up statement after the listening connection came back. */
const CATCH_UP_BATCH = 1_000;
/** How often the members with a page open here are written as seen (ADR 026). */
const PRESENCE_WRITE_MS = 60_000;
/**
 * Members per statement of that write (ADR 104). 2,000 members in one statement held the embedded
 * database's one connection about 100 ms, and every message sent meanwhile waited behind it.
 */
export const PRESENCE_BATCH = 200;

/**
 * The members with a page open were seen now: written as background work (ADR 098), PRESENCE_BATCH
 * members per statement, so on the embedded database a member's request waits for one batch at
 * most, never for the whole write.
 */
export function writePresence(db: Db, userIds: readonly string[]): Promise<void> {
  return inBackground(async () => {
    for (let i = 0; i < userIds.length; i += PRESENCE_BATCH) {
      await markSeen(db, userIds.slice(i, i + PRESENCE_BATCH));
    }
  });
}

/** 503 EVENT_STREAMS_FULL: no stream can be opened right now (the process is full or closing). */
export const noStreamNow = () =>
  new HttpError(
    503,
    ERROR_CODES.eventStreamsFull,
    'Too many live connections right now. Please try again shortly.',
    { retryAfterSeconds: 30 },
  );

export interface EventHubOptions {
  streamsPerMember: number;
  streamsMax: number;
  heartbeatMs: number;
}

const stored = (event: StoredMemberEvent): OutgoingEvent => ({
  id: event.id,
  type: event.type,
  data: event.data,
  stored: true,
});

/**
 * The first events of a new stream. A page without a last event id gets its unread counts, with
 * the newest stored position as its starting point. A page that reconnects with one gets what it
 * missed, then its counts; when that is more than CATCH_UP_LIMIT events, or older than the stored
 * ones (retention deleted events after it), or the id it sent does not open (`null`: forged, of
 * another member or another server secret, ADR 054), one 'resync' instead of the events.
 */
export async function openingEvents(
  db: Db,
  userId: string,
  lastEventId: number | null | undefined,
): Promise<OutgoingEvent[]> {
  if (lastEventId === null) {
    const [start, counts] = await Promise.all([latestEventId(db), unreadCounts(db, userId)]);
    return [
      { id: start, type: 'resync', data: {} },
      { type: 'counts', data: counts },
    ];
  }
  if (lastEventId === undefined) {
    const start = await latestEventId(db);
    return [{ id: start, type: 'counts', data: await unreadCounts(db, userId) }];
  }
  const [missed, lastStillStored] = await Promise.all([
    readEventsAfter(db, [{ userId, after: lastEventId }], CATCH_UP_LIMIT),
    eventIsStored(db, lastEventId),
  ]);
  // The counts are read after the events, so they are at least as new as any of them.
  const counts: OutgoingEvent = { type: 'counts', data: await unreadCounts(db, userId) };
  if (missed.length > CATCH_UP_LIMIT || !lastStillStored) {
    return [{ id: await latestEventId(db), type: 'resync', data: {} }, counts];
  }
  return [...missed.map(stored), counts];
}

/**
 * The live events of one server process (ADR 020, server/events/README.md): the open streams by
 * member, fed only by LISTEN on MEMBER_EVENTS_CHANNEL, so an event reaches a member's pages the
 * same way whichever process (or this one) committed it. Delivery never waits on a slow page: a
 * stream whose socket stopped draining is dropped (its browser reconnects and catches up).
 */
export class EventHub {
  readonly #byMember = new Map<string, Set<EventStream>>();
  #size = 0;
  #queue: MemberEventNotice[] = [];
  #catchUpDue = false;
  #draining = false;
  #beating = false;
  #stopped = false;
  #unlisten: (() => Promise<void>) | null = null;
  #heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly database: DatabaseHandle,
    private readonly log: FastifyBaseLogger,
    private readonly options: EventHubOptions,
    /** Turns stream positions into the opaque ids pages see, and back (ADR 054). */
    readonly ids: EventIdCodec,
  ) {}

  /** Open streams in this process. */
  get size(): number {
    return this.#size;
  }

  /** Start listening and the heartbeat. */
  async start(): Promise<void> {
    this.#unlisten = await this.database.listen(MEMBER_EVENTS_CHANNEL, {
      onNotify: (payload) => this.#receive(payload),
      onReconnect: () => {
        this.log.info('live events: listening again; catching open streams up');
        this.#catchUpDue = true;
        void this.#drain();
      },
      onError: (error) => this.log.warn({ err: error }, 'live events: the listening connection failed'),
    });
    this.#heartbeat = setInterval(() => void this.#beat(), this.options.heartbeatMs);
    this.#heartbeat.unref();
  }

  /** End every stream (their browsers reconnect elsewhere or later); new ones are refused. */
  closeStreams(): void {
    this.#stopped = true;
    for (const streams of [...this.#byMember.values()]) {
      for (const stream of [...streams]) stream.end();
    }
  }

  /** End every stream and stop listening. */
  async stop(): Promise<void> {
    this.closeStreams();
    clearInterval(this.#heartbeat);
    const unlisten = this.#unlisten;
    this.#unlisten = null;
    await unlisten?.();
  }

  /**
   * A new stream for the member on `response`, collecting events until it starts. 503 when this
   * process holds EVENT_STREAMS_MAX streams (or is closing); the member's oldest streams beyond
   * EVENT_STREAMS_PER_MEMBER end.
   */
  open(userId: string, sessionHash: string | null, response: ServerResponse): EventStream {
    if (this.#stopped || this.#size >= this.options.streamsMax) throw noStreamNow();
    const stream = new EventStream(
      userId,
      sessionHash,
      response,
      (closed) => this.#remove(closed),
      (position) => this.ids.encode(userId, position),
    );
    if (stream.closed) return stream;
    let streams = this.#byMember.get(userId);
    if (!streams) {
      streams = new Set();
      this.#byMember.set(userId, streams);
    }
    streams.add(stream);
    this.#size++;
    // Sets keep insertion order: the first is the oldest.
    for (const oldest of [...streams].slice(0, Math.max(0, streams.size - this.options.streamsPerMember))) {
      oldest.end(EVICTED_RETRY_MS);
    }
    return stream;
  }

  /**
   * End, at once, this process's streams of a session that was just signed out (other processes end
   * theirs at their next heartbeat's session check).
   */
  endSession(userId: string, sessionHash: string): void {
    for (const stream of [...(this.#byMember.get(userId) ?? [])]) {
      if (stream.sessionHash === sessionHash) stream.end();
    }
  }

  #remove(stream: EventStream): void {
    const streams = this.#byMember.get(stream.userId);
    if (!streams?.delete(stream)) return;
    this.#size--;
    if (streams.size === 0) this.#byMember.delete(stream.userId);
  }

  #send(userId: string, event: OutgoingEvent): void {
    const streams = this.#byMember.get(userId);
    if (!streams) return;
    // A copy: a stream dropped as too slow leaves the set while we go through it.
    for (const stream of [...streams]) stream.send(event);
  }

  /** A NOTIFY payload: queued only when a member of ours has a stream open here. */
  #receive(payload: string): void {
    let notice: MemberEventNotice;
    try {
      notice = JSON.parse(payload) as MemberEventNotice;
    } catch {
      this.log.warn({ payload: payload.slice(0, 200) }, 'live events: ignored a notice that is not JSON');
      return;
    }
    if (!this.#byMember.has(notice.userId)) return;
    this.#queue.push(notice);
    if (!this.#draining) void this.#drain();
  }

  /**
   * Deliver queued notices in the order they came. Notices that carry their data go out at once (no
   * await on that path); those too big for NOTIFY are read back in one query per batch, and the
   * notices behind them wait, so a member's events never overtake each other. A catch-up after a
   * reconnect runs in the same line.
   */
  async #drain(): Promise<void> {
    if (this.#draining) return;
    this.#draining = true;
    try {
      while (this.#queue.length > 0 || this.#catchUpDue) {
        if (this.#catchUpDue) {
          this.#catchUpDue = false;
          await this.#catchUp();
          continue;
        }
        const batch = this.#queue;
        this.#queue = [];
        const unread = batch.filter((notice) => notice.data === undefined).map((notice) => notice.id);
        const unreadable = new Set<string>();
        if (unread.length > 0) {
          try {
            const rows = await readMemberEvents(this.database.db, unread);
            const data = new Map(rows.map((row) => [row.id, row.data]));
            for (const notice of batch) if (notice.data === undefined) notice.data = data.get(notice.id);
          } catch (error) {
            this.log.warn({ err: error }, 'live events: could not read events back');
          }
        }
        for (const notice of batch) {
          if (notice.data === undefined) {
            // Unreadable (the database failed, or the event is already gone): the page reads afresh.
            if (!unreadable.has(notice.userId)) this.#send(notice.userId, { type: 'resync', data: {} });
            unreadable.add(notice.userId);
            continue;
          }
          this.#send(notice.userId, { id: notice.id, type: notice.type, data: notice.data, stored: true });
        }
      }
    } finally {
      this.#draining = false;
    }
  }

  /**
   * After the listening connection came back: every member with open streams gets what was
   * committed meanwhile, from where their furthest-behind stream stands (each stream skips what it
   * already sent); a gap too large for one by one gets 'resync'.
   */
  async #catchUp(): Promise<void> {
    const cursors: EventCursor[] = [];
    for (const [userId, streams] of this.#byMember) {
      cursors.push({ userId, after: Math.min(...[...streams].map((stream) => stream.cursor)) });
    }
    for (let i = 0; i < cursors.length; i += CATCH_UP_BATCH) {
      const batch = cursors.slice(i, i + CATCH_UP_BATCH);
      let rows: StoredMemberEvent[];
      try {
        rows = await readEventsAfter(this.database.db, batch, CATCH_UP_LIMIT);
      } catch (error) {
        this.log.warn({ err: error }, 'live events: catch-up failed; pages read afresh');
        for (const { userId } of batch) this.#send(userId, { type: 'resync', data: {} });
        continue;
      }
      const byMember = new Map<string, StoredMemberEvent[]>();
      for (const row of rows) {
        const list = byMember.get(row.userId) ?? [];
        list.push(row);
        byMember.set(row.userId, list);
      }
      for (const [userId, missed] of byMember) {
        if (missed.length > CATCH_UP_LIMIT) this.#send(userId, { type: 'resync', data: {} });
        else for (const event of missed) this.#send(userId, stored(event));
      }
    }
  }

  #presenceWrittenAt = 0;

  /**
   * Members with a page open here were seen now (users.last_seen_at, for the e-mail digest: ADR 026),
   * written at most once a minute, in batches behind members' requests (writePresence).
   */
  async #markPresence(): Promise<void> {
    if (Date.now() - this.#presenceWrittenAt < PRESENCE_WRITE_MS) return;
    const ids = [...this.#byMember.keys()];
    if (ids.length === 0) return;
    this.#presenceWrittenAt = Date.now();
    await writePresence(this.database.db, ids);
  }

  /**
   * Every heartbeat: a comment on each stream (proxies close idle connections; a dead socket shows
   * itself), and streams whose session has ended (signed out, expired, member deleted) end too.
   */
  async #beat(): Promise<void> {
    if (this.#beating) return;
    this.#beating = true;
    try {
      const bySession = new Map<string, EventStream[]>();
      for (const streams of [...this.#byMember.values()]) {
        for (const stream of [...streams]) {
          stream.comment('heartbeat');
          if (stream.closed || !stream.sessionHash) continue;
          const list = bySession.get(stream.sessionHash) ?? [];
          list.push(stream);
          bySession.set(stream.sessionHash, list);
        }
      }
      await this.#markPresence();
      const sids = [...bySession.keys()];
      for (let i = 0; i < sids.length; i += CATCH_UP_BATCH) {
        const batch = sids.slice(i, i + CATCH_UP_BATCH);
        const live = await inBackground(() => liveSessionIds(this.database.db, batch, new Date()));
        for (const sid of batch) {
          if (live.has(sid)) continue;
          for (const stream of bySession.get(sid) ?? []) stream.end();
        }
      }
    } catch (error) {
      this.log.warn({ err: error }, 'live events: could not check the sessions of open streams');
    } finally {
      this.#beating = false;
    }
  }
}
