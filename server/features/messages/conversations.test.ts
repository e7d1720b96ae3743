import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Barter } from '#common/schemas/barters.ts';
import {
  CONVERSATION_PREVIEW_LENGTH,
  type Conversation,
  type ProposalMessage,
} from '#common/schemas/conversations.ts';
import { TOTAL_COUNT_HEADER } from '#common/schemas/listings.ts';
import { queryRows } from '../../db/rows';
import { circleMembers, circles, messages, swapDays } from '../../db/schema/trading';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { createHandOvers } from '../barters';
import { barterKit, type Member } from '../barters/barter-test-kit';
import { conversationsQuery, preview } from './conversations-repository';

describe('the inbox of conversations (ADR 076)', () => {
  let t: TestApp;
  let kit: ReturnType<typeof barterKit>;

  beforeAll(async () => {
    t = await buildTestApp({ BARTER_PROPOSAL_RATE_LIMIT: '100000', MESSAGE_RATE_LIMIT: '100000' });
    kit = barterKit(t);
  });
  afterAll(() => t.close());

  const send = async (who: Member, id: number, content: string) =>
    kit.ok(await kit.call(who, 'POST', `/api/barter-requests/${id}/messages`, { content }), 201);
  const inbox = async (who: Member, query = '') => {
    const response = await kit.call(who, 'GET', `/api/messages/conversations${query}`);
    return { rows: kit.ok<Conversation[]>(response), total: Number(response.headers[TOTAL_COUNT_HEADER]) };
  };
  const unread = async (who: Member) =>
    kit.ok<number>(await kit.call(who, 'GET', '/api/messages/unread-count'));

  /** A circle of `members` (member i gives a new item to member i+1), accepted, its hand-overs written. */
  async function acceptedCircle(members: Member[], swapDayId: number | null = null) {
    const made: Array<{ id: number; title: string }> = [];
    for (const member of members) made.push(await kit.item(member));
    return t.app.db.transaction(async (tx) => {
      const [circle] = await tx
        .insert(circles)
        .values({
          status: 'accepted',
          size: members.length,
          expiresAt: new Date(Date.now() + 86_400_000),
          acceptedAt: new Date(),
          swapDayId,
        })
        .returning();
      if (!circle) throw new Error('no circle');
      await tx.insert(circleMembers).values(
        members.map((member, position) => ({
          circleId: circle.id,
          position,
          memberId: member.id,
          itemId: made[position]?.id ?? null,
          title: made[position]?.title ?? '',
          category: 'tools',
          isService: false,
          acceptedAt: new Date(),
        })),
      );
      const steps = members.map((member, position) => ({
        giverId: member.id,
        receiverId: (members[(position + 1) % members.length] as Member).id,
        itemId: made[position]?.id ?? 0,
      }));
      const written = await createHandOvers(tx, circle.id, steps, {
        sharedThread: swapDayId === null,
        now: new Date(),
      });
      return { circleId: circle.id, barterIds: written.barterIds };
    });
  }

  it('lists one row per conversation, newest message first, with the other members, the last message and unread counts that add up to the badge', async () => {
    const ann = await kit.member('Ann');
    const ben = await kit.member('Ben');
    const cat = await kit.member('Cat');
    const dan = await kit.member('Dan');
    expect(await inbox(ann)).toEqual({ rows: [], total: 0 });

    // A barter between Ann and Ben, countered: one conversation across the counter.
    const { barter } = await kit.pending(ann, ben);
    await send(ann, barter.id, 'Is the drill still there?');
    const bens = await kit.item(ben);
    const anns = await kit.item(ann);
    const counter = kit.ok(
      await kit.act(ben, barter.id, 'counter', { offeredItemIds: [bens.id], requestedItemIds: [anns.id] }),
      201,
    );
    await send(ben, counter.id, 'Yes, but I would rather have your lamp.');

    // A trade circle of Ann, Cat and Dan: one shared conversation.
    const circle = await acceptedCircle([ann, cat, dan]);
    await send(cat, circle.barterIds[1] as number, 'Saturday at the library?');
    await send(dan, circle.barterIds[2] as number, `Works for me. ${'Long talk. '.repeat(30)}`);

    const { rows, total } = await inbox(ann);
    expect(total).toBe(2);
    expect(rows.map((row) => row.kind)).toEqual(['circle', 'barter']);
    const [circleRow, barterRow] = rows as [Conversation, Conversation];
    expect(circleRow).toMatchObject({
      kind: 'circle',
      circleId: circle.circleId,
      swapDay: null,
      unread: 2,
      lastMessage: { fromMe: false, fromUserId: dan.id },
    });
    expect(circle.barterIds.slice(0, 1).concat(circle.barterIds.slice(2))).toContain(circleRow.barterId);
    expect(circleRow.members.map((member) => member.displayName)).toEqual([
      expect.stringMatching(/^Cat /),
      expect.stringMatching(/^Dan /),
    ]);
    expect(circleRow.lastMessage.preview).toHaveLength(CONVERSATION_PREVIEW_LENGTH);
    expect(circleRow.lastMessage.preview.endsWith('…')).toBe(true);
    // The barter's row opens the newest request of the negotiation (the counter) and names Ben.
    expect(barterRow).toMatchObject({
      id: barter.threadId,
      kind: 'barter',
      barterId: counter.id,
      circleId: null,
      unread: 1,
      lastMessage: { fromMe: false, preview: 'Yes, but I would rather have your lamp.' },
    });
    expect(barterRow.members).toEqual([
      { id: ben.id, displayName: expect.stringMatching(/^Ben /), profileImageUrl: null },
    ]);
    expect(rows.reduce((sum, row) => sum + row.unread, 0)).toBe(await unread(ann));

    // Ben's side of the same barter: his own last message, nothing unread there, Ann's unread one counted.
    const bensRows = (await inbox(ben)).rows;
    expect(bensRows).toHaveLength(1);
    expect(bensRows[0]).toMatchObject({ barterId: counter.id, unread: 1, lastMessage: { fromMe: true } });

    // A new message moves its conversation to the top; reading it clears its count only.
    await send(ben, counter.id, 'Or the chair.');
    const moved = (await inbox(ann)).rows;
    expect(moved.map((row) => [row.kind, row.unread])).toEqual([
      ['barter', 2],
      ['circle', 2],
    ]);
    kit.ok(await kit.call(ann, 'POST', `/api/barter-requests/${counter.id}/messages/read`));
    expect((await inbox(ann)).rows.map((row) => row.unread)).toEqual([0, 2]);
    expect(await unread(ann)).toBe(2);
  });

  it('pages like the other lists: limit, offset and X-Total-Count', async () => {
    const eve = await kit.member('Eve');
    const ids = [];
    for (let i = 0; i < 3; i++) {
      const { barter } = await kit.pending(await kit.member(`P${i}`), eve);
      await send(eve, barter.id, `Hello ${i}`);
      ids.push(barter.threadId);
    }
    const first = await inbox(eve, '?limit=2');
    expect(first.total).toBe(3);
    expect(first.rows.map((row) => row.id)).toEqual([ids[2], ids[1]]);
    const second = await inbox(eve, '?limit=2&offset=2');
    expect(second).toEqual({ rows: [expect.objectContaining({ id: ids[0] })], total: 3 });
    expect((await inbox(eve, '?limit=2&offset=10')).total).toBe(3);
    kit.refused(await kit.call(eve, 'GET', '/api/messages/conversations?limit=0'), 400, 'VALIDATION_FAILED');
    kit.refused(
      await kit.call(eve, 'GET', '/api/messages/conversations?offset=-1'),
      400,
      'VALIDATION_FAILED',
    );
    expect((await kit.call(null, 'GET', '/api/messages/conversations')).statusCode).toBe(401);
  });

  it('shows a stranger nothing: no row in their inbox, 404 on the conversation', async () => {
    const ann = await kit.member('Ann');
    const ben = await kit.member('Ben');
    const stranger = await kit.member('Sam');
    const { barter } = await kit.pending(ann, ben);
    await send(ann, barter.id, 'Private words');
    expect(await inbox(stranger)).toEqual({ rows: [], total: 0 });
    kit.refused(
      await kit.call(stranger, 'GET', `/api/barter-requests/${barter.id}/messages`),
      404,
      'NOT_FOUND',
    );
    kit.refused(
      await kit.call(stranger, 'GET', `/api/barter-requests/${barter.id}/proposal-messages`),
      404,
      'NOT_FOUND',
    );
  });

  it('labels a swap-day hand-over with its swap day and names the one member of it', async () => {
    const ann = await kit.member('Ann');
    const ben = await kit.member('Ben');
    const [day] = await t.app.db
      .insert(swapDays)
      .values({
        organiserId: ann.id,
        name: 'Maple Street swap',
        place: 'Maple Street library',
        startsAt: new Date(Date.now() + 7 * 86_400_000),
        deadline: new Date(Date.now() + 6 * 86_400_000),
        status: 'solved',
        latitude: 45.52,
        longitude: -122.68,
      } as typeof swapDays.$inferInsert)
      .returning();
    const loop = await acceptedCircle([ann, ben], day?.id ?? null);
    await send(ben, loop.barterIds[1] as number, 'See you at the swap day');
    const [row] = (await inbox(ann)).rows;
    expect(row).toMatchObject({
      kind: 'swapDay',
      swapDay: { id: day?.id, name: 'Maple Street swap' },
      barterId: loop.barterIds[1],
      unread: 1,
    });
    expect(row?.members.map((member) => member.id)).toEqual([ben.id]);
  });

  it('shows a removed message as removed, never its text', async () => {
    const ann = await kit.member('Ann');
    const ben = await kit.member('Ben');
    const { barter } = await kit.pending(ann, ben);
    await send(ann, barter.id, 'Something a moderator removed');
    await t.app.db
      .update(messages)
      .set({ removedAt: new Date() })
      .where(eq(messages.barterRequestId, barter.threadId));
    const [row] = (await inbox(ben)).rows;
    expect(row?.lastMessage.preview).toBe('This message was removed by a moderator.');
  });

  it('keeps the messages sent with the proposal and each counter in the conversation', async () => {
    const ann = await kit.member('Ann');
    const ben = await kit.member('Ben');
    const [bike, lamp] = [await kit.item(ann), await kit.item(ann)];
    const drill = await kit.item(ben);
    const proposal = kit.ok<Barter>(
      await kit.propose(ann, [bike.id], [drill.id], 'My bike for your drill?'),
      201,
    );
    const counter = kit.ok<Barter>(
      await kit.act(ben, proposal.id, 'counter', {
        offeredItemIds: [drill.id],
        requestedItemIds: [lamp.id],
        message: 'I would rather have the lamp.',
      }),
      201,
    );
    const again = kit.ok<Barter>(
      await kit.act(ann, counter.id, 'counter', { offeredItemIds: [bike.id], requestedItemIds: [drill.id] }),
      201,
    );
    for (const [who, id] of [
      [ann, again.id],
      [ben, proposal.id],
      [ben, counter.id],
    ] as const) {
      const said = kit.ok<ProposalMessage[]>(
        await kit.call(who, 'GET', `/api/barter-requests/${id}/proposal-messages`),
      );
      expect(said.map((row) => [row.barterId, row.isCounter, row.fromMe, row.content])).toEqual([
        [proposal.id, false, who === ann, 'My bike for your drill?'],
        [counter.id, true, who === ben, 'I would rather have the lamp.'],
      ]);
    }
  });

  it("reads the inbox through the member's message indexes, no sequential scan of messages (EXPLAIN)", async () => {
    if (!process.env.DATABASE_URL) return; // PGlite's planner is the same, but the check is PostgreSQL's.
    const ann = await kit.member('Ann');
    // A test database is too small for the planner to prefer an index: forbid scanning the table, so a
    // plan exists only if the indexes serve the query.
    const text = await t.app.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const plan = await queryRows<{ 'QUERY PLAN': string }>(
        tx,
        sql`EXPLAIN ${conversationsQuery(ann.id, { limit: 50, offset: 0 })}`,
      );
      return plan.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(text).toMatch(/messages_to_user_thread_idx/);
    // The sender's side: messages_conversation_idx starts with from_user_id.
    expect(text).toMatch(/Index Cond: \(from_user_id = /);
    expect(text).toMatch(/barter_requests_thread_idx/);
    expect(text).not.toMatch(/Seq Scan on messages/);
  });

  it('trims a preview on one line', () => {
    expect(preview('  Hello\n\nthere  ')).toBe('Hello there');
    expect(preview('a'.repeat(500))).toHaveLength(CONVERSATION_PREVIEW_LENGTH);
  });
});
