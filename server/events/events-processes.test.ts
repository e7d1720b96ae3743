/**
 * Two real server processes (server/main.ts, as `npm start` runs it) on one PostgreSQL database: a
 * message sent through one reaches a page streaming from the other. This is what LISTEN/NOTIFY is
 * for (ADR 020); the embedded database is one process by construction, so the test needs
 * PostgreSQL (DATABASE_URL) and is skipped without it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type RunningServer, request, startServer } from '../../scripts/bench-server';
import type { DatabaseHandle } from '../db/client';
import { cookieHeader, type EventStreamClient, openEventStream } from '../test/event-stream-client';
import { createBarterRequest, createUser, signedSessionCookies } from '../test/factories';
import { openTestDatabase } from '../test/helpers';

const SECRET = 'two-processes-secret-that-is-long-enough-0123';

describe.skipIf(!inject('pgTemplateUrl'))(
  'live events across two server processes on one PostgreSQL (skipped without DATABASE_URL)',
  () => {
    let database: { handle: DatabaseHandle; url?: string; drop(): Promise<void> };
    let servers: RunningServer[] = [];
    const dataDirs: string[] = [];
    const streams: EventStreamClient[] = [];

    beforeAll(async () => {
      database = await openTestDatabase();
      const url = database.url as string;
      servers = await Promise.all(
        [1, 2].map(() => {
          const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bh-two-processes-'));
          dataDirs.push(dataDir);
          return startServer(
            { DATABASE_URL: url, DATA_DIR: dataDir, SESSION_SECRET: SECRET, DB_POOL_MAX: '4' },
            { logLevel: 'warn' },
          );
        }),
      );
    });
    afterAll(async () => {
      for (const stream of streams) stream.close();
      await Promise.all(servers.map((server) => server.stop()));
      await database?.drop();
      for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    });

    it('a message sent through process 1 reaches the recipient’s stream on process 2', async () => {
      const [one, two] = servers as [RunningServer, RunningServer];
      const db = database.handle.db;
      const ann = await createUser(db, { firstName: 'Ann', lastName: 'Reed' });
      const bob = await createUser(db, { firstName: 'Bob', lastName: 'Stone' });
      const barter = await createBarterRequest(db, {
        fromUserId: ann.id,
        toUserId: bob.id,
        status: 'accepted',
      });
      const annCookie = cookieHeader(await signedSessionCookies(db, ann, SECRET));
      const bobCookie = cookieHeader(await signedSessionCookies(db, bob, SECRET));

      // Ann on process 1 too: her own other pages hear of what she sent, through the same path.
      const bobOnTwo = await openEventStream(two.base, { cookie: bobCookie });
      const annOnOne = await openEventStream(one.base, { cookie: annCookie });
      streams.push(bobOnTwo, annOnOne);
      expect(bobOnTwo.status).toBe(200);
      await bobOnTwo.next('counts');
      await annOnOne.next('counts');

      // Nothing but the NOTIFY brings it to process 2 (no poll; a catch-up only after its listening
      // connection comes back), so arriving at all is the test. How fast is the events benchmark's
      // (`npm run bench:events`, docs/performance.md), not a timed assertion on a loaded host.
      for (const [round, content] of ['Hello from process one', 'Still there?'].entries()) {
        const sent = await request(
          one.base,
          'POST',
          `/api/barter-requests/${barter.id}/messages`,
          { cookie: annCookie, 'content-type': 'application/json' },
          JSON.stringify({ content }),
        );
        expect(sent.status, sent.body).toBe(201);
        const event = await bobOnTwo.next('message');
        expect(event.data).toMatchObject({
          message: { content, fromMe: false, fromUserId: ann.id, barterRequestId: barter.id },
          counts: { messages: expect.any(Number) },
        });
        expect(JSON.stringify(event.data)).not.toContain(ann.email);
        expect(await annOnOne.next('message')).toMatchObject({
          data: { message: { content, fromMe: true } },
        });
        // Bob's bell entry for the conversation, published before the message in the same transaction.
        const bell = bobOnTwo.events.filter((e) => e.type === 'notification');
        expect(bell).toHaveLength(round + 1);
        expect(bell.at(-1)?.data).toMatchObject({
          notification: {
            kind: 'message_received',
            count: round + 1,
            actor: { id: ann.id, displayName: 'Ann R.' },
          },
        });
      }

      // An id given on process 2 opens on process 1 (one secret, ADR 054): Bob's page, moved to the
      // other process, gets exactly the message it missed.
      const lastSeen = bobOnTwo.events.at(-1)?.id as string;
      bobOnTwo.close();
      const missed = await request(
        one.base,
        'POST',
        `/api/barter-requests/${barter.id}/messages`,
        { cookie: annCookie, 'content-type': 'application/json' },
        JSON.stringify({ content: 'Sent while you were away' }),
      );
      expect(missed.status, missed.body).toBe(201);
      const bobOnOne = await openEventStream(one.base, {
        cookie: bobCookie,
        headers: { 'last-event-id': lastSeen },
      });
      streams.push(bobOnOne);
      const replayed = [await bobOnOne.next(), await bobOnOne.next(), await bobOnOne.next()];
      expect(replayed.map((event) => event.type)).toEqual(['notification', 'message', 'counts']);
      expect(replayed[1]?.data).toMatchObject({ message: { content: 'Sent while you were away' } });
    });
  },
);
