import { rmSync } from 'node:fs';
import http from 'node:http';
import { Writable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../app';
import { memberEvents, notifications } from '../db/schema/trading';
import type { UserRow } from '../db/schema/users';
import { notifyMember } from '../features/notifications';
import { hashSessionId } from '../plugins/session';
import { deleteSession } from '../plugins/session-store';
import { cookieHeader, type EventStreamClient, openEventStream } from '../test/event-stream-client';
import { createBarterRequest, createUser, sessionCookiesFor } from '../test/factories';
import { buildTestApp, holdDatabase, openTestDatabase, type TestApp, testConfig } from '../test/helpers';
import { purgeMemberEvents } from './events-plugin';
import { CATCH_UP_LIMIT, EVICTED_RETRY_MS } from './hub';
import { memberEvent, NOTIFY_PAYLOAD_MAX_BYTES, publishMemberEvents } from './publish';

/** A test app listening on a free port, for real HTTP clients (app.inject cannot stream). */
async function listening(overrides: Record<string, string> = {}) {
  const t = await buildTestApp(overrides);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  return { t, base: `http://127.0.0.1:${address.port}` };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const onPostgres = Boolean(inject('pgTemplateUrl'));

describe('GET /api/events', () => {
  let t: TestApp;
  let base: string;
  let ann: UserRow;
  let bob: UserRow;
  let annCookie: string;
  let bobCookie: string;
  const open: EventStreamClient[] = [];

  const connect = async (cookie: string, headers: Record<string, string> = {}, path?: string) => {
    const client = await openEventStream(base, { cookie, headers, path });
    open.push(client);
    return client;
  };
  /** The position behind an opaque id the member's stream gave (ADR 054); null when it does not open. */
  const positionOf = (member: UserRow, id: string | undefined) =>
    id === undefined ? undefined : t.app.eventHub.ids.decode(member.id, id);
  /** Publish one event for each member in its own committed transaction. */
  const publish = (userId: string, n: number) =>
    t.app.db.transaction((tx) =>
      publishMemberEvents(tx, [memberEvent(userId, 'barter', { barterRequestId: n, threadId: n })]),
    );

  beforeAll(async () => {
    ({ t, base } = await listening());
    ann = await createUser(t.app.db, { firstName: 'Ann', lastName: 'Reed' });
    bob = await createUser(t.app.db, { firstName: 'Bob', lastName: 'Stone' });
    annCookie = cookieHeader(await sessionCookiesFor(t.app, ann));
    bobCookie = cookieHeader(await sessionCookiesFor(t.app, bob));
  });
  afterAll(async () => {
    for (const client of open) client.close();
    await t.close();
  });

  it('ends the streams of a session at once when it signs out (no heartbeat needed), and only those', async () => {
    const member = await createUser(t.app.db);
    const cookies = await sessionCookiesFor(t.app, member);
    const signedOut = await connect(cookieHeader(cookies));
    await signedOut.next('counts');
    const otherSession = await connect(cookieHeader(await sessionCookiesFor(t.app, member)));
    await otherSession.next('counts');
    const logout = await t.app.inject({ method: 'POST', url: '/api/auth/logout', cookies });
    expect(logout.statusCode).toBe(204);
    // The heartbeat here is 25 s, far beyond the test's time limit: only the sign-out can end it.
    await signedOut.ended;
    expect(otherSession.isEnded()).toBe(false);
    otherSession.close();
  });

  it('answers 401 as JSON, not a stream, when signed out', async () => {
    const client = await connect('');
    await client.ended;
    expect(client.status).toBe(401);
    expect(client.headers['content-type']).toMatch(/application\/json/);
    expect(client.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(client.body)).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('opens a stream with the member’s unread counts and a starting id', async () => {
    const trade = await createBarterRequest(t.app.db, { fromUserId: bob.id, toUserId: ann.id });
    await t.app.db
      .insert(notifications)
      .values({ userId: ann.id, kind: 'proposal_received', barterRequestId: trade.id, actorId: bob.id });
    const client = await connect(annCookie);
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(client.headers['cache-control']).toBe('no-store');
    expect(client.headers['x-accel-buffering']).toBe('no');
    expect(client.headers['content-security-policy']).toBeDefined();
    const counts = await client.next();
    expect(counts).toMatchObject({ type: 'counts', data: { notifications: 1, messages: 0 } });
    const [latest] = await t.app.db
      .select({ id: sql<number>`coalesce(max(${memberEvents.id}), 0)::float8` })
      .from(memberEvents);
    expect(positionOf(ann, counts.id)).toBe(latest?.id);
    client.close();
  });

  it('delivers each committed event to its member only, in order, and nothing of a rolled-back one', async () => {
    const annStream = await connect(annCookie);
    const bobStream = await connect(bobCookie);
    await annStream.next('counts');
    await bobStream.next('counts');

    await expect(
      t.app.db.transaction(async (tx) => {
        await publishMemberEvents(tx, [
          memberEvent(ann.id, 'barter', { barterRequestId: 999, threadId: 999 }),
        ]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const [first] = await publish(ann.id, 1);
    const [second] = await publish(ann.id, 2);
    const [bobs] = await publish(bob.id, 3);

    const a1 = await annStream.next();
    const a2 = await annStream.next();
    expect([a1, a2]).toMatchObject([
      { type: 'barter', data: { barterRequestId: 1, threadId: 1 } },
      { type: 'barter', data: { barterRequestId: 2, threadId: 2 } },
    ]);
    expect([positionOf(ann, a1.id), positionOf(ann, a2.id)]).toEqual([first, second]);
    const b = await bobStream.next();
    expect(b).toMatchObject({ data: { barterRequestId: 3 } });
    expect(positionOf(bob, b.id)).toBe(bobs);
    // Bob's event, published after Ann's, reached Bob: had any of Ann's reached him, it came first.
    expect(bobStream.events.filter((event) => event.type === 'barter')).toHaveLength(1);
    expect(
      annStream.events.some((event) => (event.data as { barterRequestId?: number }).barterRequestId === 999),
    ).toBe(false);
    annStream.close();
    bobStream.close();
  });

  it('pushes what notifyMember writes: the bell entry, presented, with the new counts', async () => {
    const stream = await connect(annCookie);
    const before = (await stream.next('counts')).data as { notifications: number };
    const trade = await createBarterRequest(t.app.db, { fromUserId: bob.id, toUserId: ann.id });
    await t.app.db.transaction((tx) =>
      notifyMember(tx, {
        userId: ann.id,
        kind: 'proposal_accepted',
        barterRequestId: trade.id,
        actorId: bob.id,
      }),
    );
    const event = await stream.next('notification');
    expect(event.data).toMatchObject({
      notification: {
        kind: 'proposal_accepted',
        barterRequestId: trade.id,
        actor: { id: bob.id, displayName: 'Bob S.' },
        read: false,
      },
      counts: { notifications: before.notifications + 1 },
    });
    expect(JSON.stringify(event.data)).not.toContain(bob.email);
    stream.close();
  });

  it('reads back an event too big for NOTIFY', async () => {
    const stream = await connect(annCookie);
    await stream.next('counts');
    const padding = 'x'.repeat(NOTIFY_PAYLOAD_MAX_BYTES);
    const [id] = await publishMemberEvents(t.app.db, [
      memberEvent(ann.id, 'counts', { notifications: 7, messages: 8, padding } as never),
    ]);
    const event = await stream.next('counts');
    expect(positionOf(ann, event.id)).toBe(id);
    expect(event.data).toEqual({ notifications: 7, messages: 8, padding });
    stream.close();
  });

  it('replays what a page missed after Last-Event-ID (header or query), then the counts', async () => {
    const first = await connect(annCookie);
    const start = await first.next('counts');
    first.close();
    const [one] = await publish(ann.id, 11);
    await publish(bob.id, 12);
    const [two] = await publish(ann.id, 13);

    for (const [headers, path] of [
      [{ 'last-event-id': String(start.id) }, undefined],
      [{}, `/api/events?lastEventId=${start.id}`],
    ] as const) {
      const again = await connect(annCookie, headers, path);
      const events = [await again.next(), await again.next(), await again.next()];
      expect(events).toMatchObject([
        { type: 'barter', data: { barterRequestId: 11 } },
        { type: 'barter', data: { barterRequestId: 13 } },
        { id: undefined, type: 'counts' },
      ]);
      expect(events.map((event) => positionOf(ann, event.id))).toEqual([one, two, undefined]);
      again.close();
    }

    // From the second event on, only what came after it (the id as the page was given it).
    const later = await connect(annCookie, {
      'last-event-id': t.app.eventHub.ids.encode(ann.id, one as number),
    });
    expect(positionOf(ann, (await later.next()).id)).toBe(two);
    expect(await later.next()).toMatchObject({ type: 'counts' });
    later.close();
  });

  it('sends one resync when the gap is too large or the last event is no longer stored', async () => {
    const first = await connect(annCookie);
    const startId = (await first.next('counts')).id;
    const start = positionOf(ann, startId) as number;
    await publishMemberEvents(
      t.app.db,
      Array.from({ length: CATCH_UP_LIMIT + 1 }, (_, n) =>
        memberEvent(ann.id, 'barter', { barterRequestId: n + 1, threadId: n + 1 }),
      ),
    );
    // Wait until this process has had every notice (they can come late on a busy PostgreSQL), so
    // the stream below opens after them: it must get the resync alone, not the live events too.
    while (
      ((await first.next('barter')).data as { barterRequestId: number }).barterRequestId !==
      CATCH_UP_LIMIT + 1
    ) {}
    first.close();
    const tooMany = await connect(annCookie, { 'last-event-id': startId as string });
    const resync = await tooMany.next();
    expect(resync).toMatchObject({ type: 'resync', data: {} });
    expect(positionOf(ann, resync.id)).toBeGreaterThan(start + CATCH_UP_LIMIT);
    expect(await tooMany.next()).toMatchObject({ type: 'counts' });
    // A marker published now comes after anything the stream could still be sent from before.
    await publish(ann.id, 99);
    const marker = await tooMany.next('barter');
    expect(marker.data).toMatchObject({ barterRequestId: 99 });
    expect(tooMany.events.filter((event) => event.type === 'barter' && event !== marker)).toEqual([]);
    tooMany.close();

    // An id that is not stored (deleted by retention, or never given out).
    const [gone] = await publish(ann.id, 21);
    await t.app.db.delete(memberEvents).where(eq(memberEvents.id, gone as number));
    for (const last of [gone as number, 0, Number.MAX_SAFE_INTEGER].map((position) =>
      t.app.eventHub.ids.encode(ann.id, position),
    )) {
      const stale = await connect(annCookie, { 'last-event-id': last });
      expect(await stale.next(), last).toMatchObject({ type: 'resync' });
      stale.close();
    }
  });

  it('gives ids that say nothing of anyone’s activity, and opens only the member’s own (ADR 054)', async () => {
    const annStream = await connect(annCookie);
    const bobStream = await connect(bobCookie);
    const annStart = (await annStream.next('counts')).id as string;
    await bobStream.next('counts');
    // Much activity of others between two of Ann's events: her ids look the same as ever.
    await publish(ann.id, 51);
    const annFirst = await annStream.next('barter');
    await publishMemberEvents(
      t.app.db,
      Array.from({ length: 25 }, (_, n) =>
        memberEvent(bob.id, 'barter', { barterRequestId: n, threadId: n }),
      ),
    );
    await publish(ann.id, 52);
    const annSecond = await annStream.next('barter');
    const bobsLast = bobStream.events.at(-1);
    for (const id of [annStart, annFirst.id, annSecond.id, bobsLast?.id]) {
      expect(id).toMatch(/^[A-Za-z0-9_-]{48}$/);
    }
    // Her positions moved on by Bob's 25 events, which only the server's secret reads back
    // (positionOf); her two ids share no prefix or suffix a page could compare. (Asserting that an
    // id lacks the position's digits failed by chance: a random 48-character id holds a given
    // two-digit number about once in 90; event-ids.test.ts holds the codec's opacity.)
    const [firstAt, secondAt] = [annFirst.id, annSecond.id].map((id) => positionOf(ann, id) as number);
    expect((secondAt ?? 0) - (firstAt ?? 0)).toBeGreaterThan(25);
    const [firstId = '', secondId = ''] = [annFirst.id, annSecond.id];
    expect(firstId.slice(0, 8)).not.toBe(secondId.slice(0, 8));
    expect(firstId.slice(-8)).not.toBe(secondId.slice(-8));
    annStream.close();
    bobStream.close();

    // Bob sending Ann's id (or Ann Bob's) gets a resync, never her events or an error.
    const foreign = await connect(bobCookie, { 'last-event-id': annStart });
    expect(await foreign.next()).toMatchObject({ type: 'resync' });
    expect(await foreign.next()).toMatchObject({ type: 'counts' });
    // A live event of Bob's own after the opening: anything replayed would have come before it.
    await publish(bob.id, 99);
    const marker = await foreign.next('barter');
    expect(marker.data).toMatchObject({ barterRequestId: 99 });
    expect(foreign.events.filter((event) => event.type === 'barter' && event !== marker)).toEqual([]);
    foreign.close();
    const own = await connect(annCookie, { 'last-event-id': annStart });
    expect((await own.next()).data).toMatchObject({ barterRequestId: 51 });
    own.close();
  });

  it('answers a garbage, overlong or control-character last event id with a resync, never an error', async () => {
    const bad = [
      'abc',
      '-1',
      '42',
      '0x10',
      '99999999999999999999',
      'A'.repeat(48),
      'x'.repeat(4_000),
      '\u0000\u001b[2J',
      '\n\nevent: counts',
      '€',
    ];
    for (const text of bad) {
      const viaQuery = await connect(annCookie, {}, `/api/events?lastEventId=${encodeURIComponent(text)}`);
      expect({ text, status: viaQuery.status }).toEqual({ text, status: 200 });
      expect(await viaQuery.next()).toMatchObject({ type: 'resync' });
      viaQuery.close();
    }
    // Headers carry no control characters or newlines (HTTP refuses them); the rest as above.
    for (const text of ['abc', '42', 'A'.repeat(48), 'x'.repeat(4_000), 'a\tb']) {
      const viaHeader = await connect(annCookie, { 'last-event-id': text });
      expect({ text, status: viaHeader.status }).toEqual({ text, status: 200 });
      expect(await viaHeader.next()).toMatchObject({ type: 'resync' });
      viaHeader.close();
    }
    // A blank header is no header (the SSE spec's reset): a fresh start with the counts.
    for (const text of [' ', '\t']) {
      const blank = await connect(annCookie, { 'last-event-id': text });
      expect(await blank.next()).toMatchObject({ type: 'counts' });
      blank.close();
    }
  });

  it('keeps a stream open past REQUEST_TIMEOUT_MS and ends it when the app closes', async () => {
    const quick = await listening({ REQUEST_TIMEOUT_MS: '300' });
    try {
      const member = await createUser(quick.t.app.db);
      const cookie = cookieHeader(await sessionCookiesFor(quick.t.app, member));
      const stream = await openEventStream(quick.base, { cookie });
      await stream.next('counts');
      // Time itself is what is tested here: the stream outlives four request timeouts.
      await sleep(1_200);
      expect(stream.isEnded()).toBe(false);
      await publishMemberEvents(quick.t.app.db, [memberEvent(member.id, 'resync', {})]);
      expect(await stream.next('resync')).toMatchObject({ type: 'resync' });
      await quick.t.app.close();
      await stream.ended;
    } finally {
      await quick.t.close();
    }
  });

  it.skipIf(!onPostgres)(
    'PostgreSQL: after the listening connection is lost, catches open streams up once it is back',
    async () => {
      const stream = await connect(annCookie);
      await stream.next('counts');
      const listeners = sql`SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE application_name = 'barterhood-listen:member_events' AND datname = current_database()`;
      const count = async () =>
        Number(((await t.app.db.execute(listeners)) as unknown as { rows: Array<{ n: number }> }).rows[0]?.n);
      expect(await count()).toBe(1);
      await t.app.db.execute(sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE application_name = 'barterhood-listen:member_events' AND datname = current_database()`);
      while ((await count()) > 0) await sleep(10);
      // Committed while nobody listens: only the catch-up can bring it.
      const [missed] = await publish(ann.id, 41);
      const caughtUp = await stream.next('barter', 5_000);
      expect(caughtUp).toMatchObject({ data: { barterRequestId: 41 } });
      expect(positionOf(ann, caughtUp.id)).toBe(missed);
      expect(await count()).toBe(1);
      const [live] = await publish(ann.id, 42);
      expect(positionOf(ann, (await stream.next('barter')).id)).toBe(live);
      stream.close();
    },
  );

  it('deletes stored events older than a day', async () => {
    const [old] = await publish(ann.id, 31);
    const [recent] = await publish(ann.id, 32);
    await t.app.db
      .update(memberEvents)
      .set({ createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000) })
      .where(eq(memberEvents.id, old as number));
    expect(await purgeMemberEvents(t.app)).toBeGreaterThanOrEqual(1);
    const left = await t.app.db.select({ id: memberEvents.id }).from(memberEvents);
    expect(left.map((row) => row.id)).toContain(recent);
    expect(left.map((row) => row.id)).not.toContain(old);
  });
});

describe('event stream limits and sessions', () => {
  let t: TestApp;
  let base: string;
  const open: EventStreamClient[] = [];
  const connect = async (cookie: string) => {
    const client = await openEventStream(base, { cookie });
    open.push(client);
    return client;
  };

  beforeAll(async () => {
    ({ t, base } = await listening({
      EVENT_STREAMS_PER_MEMBER: '2',
      EVENT_STREAMS_MAX: '3',
      EVENT_HEARTBEAT_SECONDS: '1',
    }));
  });
  afterAll(async () => {
    for (const client of open) client.close();
    await t.close();
  });

  it('closes a member’s oldest stream past the per-member limit, asking it to wait before it returns', async () => {
    const member = await createUser(t.app.db);
    const cookie = cookieHeader(await sessionCookiesFor(t.app, member));
    const first = await connect(cookie);
    await first.next('counts');
    const second = await connect(cookie);
    await second.next('counts');
    const third = await connect(cookie);
    await third.next('counts');
    await first.ended;
    expect(first.retries).toEqual([EVICTED_RETRY_MS]);
    expect(second.isEnded() || third.isEnded()).toBe(false);
    await publishMemberEvents(t.app.db, [memberEvent(member.id, 'resync', {})]);
    await second.next('resync');
    await third.next('resync');
    second.close();
    third.close();
    // The hub sees the closes when the sockets do.
    await expect.poll(() => t.app.eventHub.size).toBe(0);
  });

  it('answers 503 EVENT_STREAMS_FULL with Retry-After when the process holds EVENT_STREAMS_MAX', async () => {
    const streams: EventStreamClient[] = [];
    for (let i = 0; i < 3; i++) {
      const member = await createUser(t.app.db);
      const stream = await connect(cookieHeader(await sessionCookiesFor(t.app, member)));
      await stream.next('counts');
      streams.push(stream);
    }
    const member = await createUser(t.app.db);
    const refused = await connect(cookieHeader(await sessionCookiesFor(t.app, member)));
    await refused.ended;
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('30');
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'EVENT_STREAMS_FULL' });
    for (const stream of streams) stream.close();
    await expect.poll(() => t.app.eventHub.size).toBe(0);
  });

  it('sends heartbeats, and ends a stream at the next one after its session ends', async () => {
    const member = await createUser(t.app.db);
    const cookies = await sessionCookiesFor(t.app, member);
    const stream = await connect(cookieHeader(cookies));
    await stream.next('counts');
    const other = await connect(cookieHeader(await sessionCookiesFor(t.app, member)));
    await other.next('counts');
    await expect.poll(() => stream.comments, { timeout: 3_000 }).toContain('heartbeat');
    // The session ends without a sign-out on this process (expired, or signed out through another
    // process): only the heartbeat's session check can notice.
    const [sid] = Object.values(cookies);
    const unsigned = t.app.unsignCookie(sid ?? '');
    await deleteSession(t.app.db, hashSessionId(unsigned.value ?? ''));
    await stream.ended;
    // The member's other session goes on.
    expect(other.isEnded()).toBe(false);
    other.close();
  });
});

describe('a page that leaves while its event stream opens', () => {
  it('is neither answered nor logged as a failure, and takes no place in the hub', async () => {
    const lines: { level: number; msg?: string; url?: string }[] = [];
    const logger = pino(
      { level: 'debug' },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(JSON.parse(String(chunk)));
          done();
        },
      }),
    );
    const config = testConfig({ LOG_LEVEL: 'debug' });
    const { handle, drop } = await openTestDatabase();
    const app = await buildApp({ config, database: handle, logger });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const address = app.server.address();
      if (!address || typeof address === 'string') throw new Error('not listening');
      const member = await createUser(app.db);
      const cookie = cookieHeader(await sessionCookiesFor(app, member));
      // The database is held: the stream's opening reads wait, as on a busy evening.
      const release = await holdDatabase(handle);
      const request = http.get({
        host: '127.0.0.1',
        port: address.port,
        path: '/api/events',
        headers: { cookie },
      });
      request.on('error', () => undefined);
      await expect.poll(() => lines.some((line) => line.msg === 'incoming request')).toBe(true);
      // The page is left before its stream is open.
      request.destroy();
      const connections = () =>
        new Promise<number>((resolve) => app.server.getConnections((_error, count) => resolve(count)));
      await expect.poll(connections).toBe(0);
      await release();
      await expect
        .poll(() => lines.some((line) => line.msg === 'the page left before its event stream opened'))
        .toBe(true);
      expect(lines.filter((line) => line.level >= 50)).toEqual([]);
      expect(app.eventHub.size).toBe(0);
    } finally {
      await app.close();
      await drop();
      rmSync(config.dataDir, { recursive: true, force: true });
    }
  });
});
