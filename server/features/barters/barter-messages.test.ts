import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '#common/schemas/barters.ts';
import type { UnreadCounts } from '#common/schemas/notifications.ts';
import { memberEvents, messages, notifications } from '../../db/schema/trading';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { barterKit, type Member } from './barter-test-kit';

describe('barter conversations', () => {
  let t: TestApp;
  let kit: ReturnType<typeof barterKit>;
  let ann: Member;
  let ben: Member;
  let cat: Member;

  beforeAll(async () => {
    t = await buildTestApp({ BARTER_PROPOSAL_RATE_LIMIT: '100000', MESSAGE_RATE_LIMIT: '100000' });
    kit = barterKit(t);
    ann = await kit.member('Ann');
    ben = await kit.member('Ben');
    cat = await kit.member('Cat');
  });
  afterAll(() => t.close());

  const send = (who: Member, id: number, content: unknown) =>
    kit.call(who, 'POST', `/api/barter-requests/${id}/messages`, { content });
  const list = (who: Member, id: number, query = '') =>
    kit.call(who, 'GET', `/api/barter-requests/${id}/messages${query}`);
  const read = (who: Member, id: number) => kit.call(who, 'POST', `/api/barter-requests/${id}/messages/read`);
  const unread = async (who: Member) =>
    kit.ok<number>(await kit.call(who, 'GET', '/api/messages/unread-count'));

  it('sends a message to the other member, notifies them once per conversation and pushes it to both', async () => {
    const { barter } = await kit.pending(ann, ben);
    const before = await unread(ben);
    const sent = kit.ok<ChatMessage>(await send(ann, barter.id, '  Is the bike still available?  '), 201);
    expect(sent).toEqual({
      id: expect.any(Number),
      barterRequestId: barter.threadId,
      fromUserId: ann.id,
      fromMe: true,
      content: 'Is the bike still available?',
      isRead: false,
      createdAt: expect.any(String),
    });
    kit.ok<ChatMessage>(await send(ann, barter.id, 'I can pick it up Saturday.'), 201);
    expect(await unread(ben)).toBe(before + 2);
    expect(kit.ok(await kit.get(ben, barter.id)).unreadMessages).toBe(2);
    expect(kit.ok(await kit.get(ann, barter.id)).unreadMessages).toBe(0);

    // One unread bell entry for the conversation, counting both.
    const entries = await kit
      .db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, ben.id), eq(notifications.kind, 'message_received')))
      .orderBy(asc(notifications.id));
    const forThread = entries.filter((entry) => entry.barterRequestId === barter.threadId);
    expect(forThread.map((entry) => [entry.count, entry.readAt, entry.actorId])).toEqual([[2, null, ann.id]]);

    // A 'message' event to each member: their own fromMe and their own counts.
    const events = await kit
      .db()
      .select({ userId: memberEvents.userId, data: memberEvents.data })
      .from(memberEvents)
      .where(
        and(
          eq(memberEvents.type, 'message'),
          sql`(${memberEvents.data}->'message'->>'id')::int = ${sent.id}::int`,
        ),
      );
    const byUser = Object.fromEntries(events.map((event) => [event.userId, event.data])) as Record<
      string,
      { message: ChatMessage; counts: UnreadCounts }
    >;
    expect(Object.keys(byUser).sort()).toEqual([ann.id, ben.id].sort());
    expect(byUser[ann.id]?.message.fromMe).toBe(true);
    expect(byUser[ben.id]?.message.fromMe).toBe(false);
    expect(byUser[ben.id]?.counts.messages).toBe(before + 1);
    expect(byUser[ann.id]?.counts.messages).toBe(await unread(ann));

    // Reading the conversation marks the messages and their bell entry read and tells Ben's pages.
    const counts = kit.ok<UnreadCounts>(await read(ben, barter.id));
    expect(counts.messages).toBe(before);
    expect(await unread(ben)).toBe(before);
    const [entry] = await kit
      .db()
      .select()
      .from(notifications)
      .where(eq(notifications.id, forThread[0]?.id ?? 0));
    expect(entry?.readAt).toBeInstanceOf(Date);
    const [countsEvent] = await kit
      .db()
      .select({ data: memberEvents.data })
      .from(memberEvents)
      .where(and(eq(memberEvents.userId, ben.id), eq(memberEvents.type, 'counts')))
      .orderBy(sql`${memberEvents.id} DESC`)
      .limit(1);
    expect(countsEvent?.data).toEqual(counts);
    const seen = kit.ok<ChatMessage[]>(await list(ben, barter.id));
    expect(seen.map((message) => [message.fromMe, message.isRead])).toEqual([
      [false, true],
      [false, true],
    ]);
    // Reading again changes nothing.
    expect(kit.ok<UnreadCounts>(await read(ben, barter.id))).toEqual(counts);
  });

  it('keeps one conversation for the whole negotiation, counters included, in any state', async () => {
    const { barter } = await kit.pending(ann, ben);
    kit.ok(await send(ann, barter.id, 'First offer'), 201);
    const bens = await kit.item(ben);
    const anns = await kit.item(ann);
    const counter = kit.ok(
      await kit.act(ben, barter.id, 'counter', { offeredItemIds: [bens.id], requestedItemIds: [anns.id] }),
      201,
    );
    kit.ok(await send(ben, counter.id, 'Counter instead'), 201);
    // Still possible on the countered request: it is the same conversation.
    kit.ok(await send(ann, barter.id, 'Fair enough'), 201);
    kit.ok(await kit.act(ann, counter.id, 'decline'));
    kit.ok(await send(ben, counter.id, 'No hard feelings'), 201);
    for (const id of [barter.id, counter.id]) {
      const thread = kit.ok<ChatMessage[]>(await list(ann, id));
      expect(thread.map((message) => [message.content, message.fromMe, message.barterRequestId])).toEqual([
        ['First offer', true, barter.id],
        ['Counter instead', false, barter.id],
        ['Fair enough', true, barter.id],
        ['No hard feelings', false, barter.id],
      ]);
    }
  });

  it('pages the newest messages first, oldest first within a page, and before a message id', async () => {
    const { barter } = await kit.pending(ann, ben);
    for (let i = 1; i <= 7; i++) kit.ok(await send(i % 2 ? ann : ben, barter.id, `Message ${i}`), 201);
    const contents = (rows: ChatMessage[]) => rows.map((message) => message.content);
    const newest = kit.ok<ChatMessage[]>(await list(ann, barter.id, '?limit=3'));
    expect(contents(newest)).toEqual(['Message 5', 'Message 6', 'Message 7']);
    const older = kit.ok<ChatMessage[]>(await list(ann, barter.id, `?limit=3&before=${newest[0]?.id}`));
    expect(contents(older)).toEqual(['Message 2', 'Message 3', 'Message 4']);
    const oldest = kit.ok<ChatMessage[]>(await list(ann, barter.id, `?limit=3&before=${older[0]?.id}`));
    expect(contents(oldest)).toEqual(['Message 1']);
    expect(contents(kit.ok<ChatMessage[]>(await list(ann, barter.id)))).toHaveLength(7);
    for (const query of [
      '?limit=0',
      '?limit=101',
      '?limit=abc',
      '?before=0',
      '?before=-1',
      '?before=1e3',
      '?limit=1.5',
    ]) {
      const response = await list(ann, barter.id, query);
      expect({ query, status: response.statusCode }).toEqual({ query, status: 400 });
    }
  });

  it('takes contact details in the barter’s conversation, to arrange the trade (Terms section 4, ADR 062)', async () => {
    const { barter } = await kit.pending(ann, ben);
    const sent = await send(ann, barter.id, 'Text me on 503 555 0199 or write to ann@example.com');
    expect(sent.statusCode).toBe(201);
    // A proposal's own message is not the conversation: still refused there.
    const [mine, theirs] = [await kit.item(ann), await kit.item(ben)];
    const proposal = await kit.propose(ann, [mine.id], [theirs.id], 'Text me at 503-555-0199');
    kit.refused(proposal, 400, 'CONTENT_NOT_ALLOWED');
    expect(proposal.json().reason).toBe('contact-details');
  });

  it('moderates messages and refuses empty or oversized ones, storing nothing', async () => {
    const { barter } = await kit.pending(ann, ben);
    const refused = await send(ann, barter.id, 'Selling weed too, ask me');
    kit.refused(refused, 400, 'CONTENT_NOT_ALLOWED');
    expect(refused.json().message).toContain('not appropriate');
    expect(refused.json().reason).toBe('drugs-alcohol');
    for (const content of ['', '   ', 'x'.repeat(2001), 'a\u0000b', 5, null, ['hi']]) {
      expect((await send(ann, barter.id, content)).statusCode).toBe(400);
    }
    expect((await kit.call(ann, 'POST', `/api/barter-requests/${barter.id}/messages`, {})).statusCode).toBe(
      400,
    );
    const stored = await kit
      .db()
      .select()
      .from(messages)
      .where(eq(messages.barterRequestId, barter.threadId));
    expect(stored).toEqual([]);
  });

  it('answers 404 to a member who is not part of the barter, and to unknown ids', async () => {
    const { barter } = await kit.pending(ann, ben);
    kit.ok(await send(ann, barter.id, 'Private'), 201);
    for (const id of [barter.id, 2_000_000_000]) {
      expect((await list(cat, id)).statusCode).toBe(404);
      expect((await send(cat, id, 'Hello?')).statusCode).toBe(404);
      expect((await read(cat, id)).statusCode).toBe(404);
    }
  });

  it('limits messages per member (MESSAGE_RATE_LIMIT) and proposals (BARTER_PROPOSAL_RATE_LIMIT)', async () => {
    const limited = await buildTestApp({ MESSAGE_RATE_LIMIT: '3', BARTER_PROPOSAL_RATE_LIMIT: '2' });
    try {
      const lkit = barterKit(limited);
      const dee = await lkit.member('Dee');
      const eve = await lkit.member('Eve');
      const { barter } = await lkit.pending(dee, eve);
      for (let i = 0; i < 3; i++)
        lkit.ok(
          await lkit.call(dee, 'POST', `/api/barter-requests/${barter.id}/messages`, { content: `Hi ${i}` }),
          201,
        );
      const over = await lkit.call(dee, 'POST', `/api/barter-requests/${barter.id}/messages`, {
        content: 'One more',
      });
      lkit.refused(over, 429, 'RATE_LIMITED');
      expect(over.json().message).toMatch(
        /^Too many messages: at most 3 per 10 minutes\. Please try again in \d+ minutes?\.$/,
      );
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      // The other member's budget is their own.
      lkit.ok(
        await lkit.call(eve, 'POST', `/api/barter-requests/${barter.id}/messages`, { content: 'Hello' }),
        201,
      );

      await lkit.pending(dee, eve);
      const third = await lkit.item(dee);
      const theirs = await lkit.item(eve);
      lkit.refused(await lkit.propose(dee, [third.id], [theirs.id]), 429, 'RATE_LIMITED');
    } finally {
      await limited.close();
    }
  });
});
