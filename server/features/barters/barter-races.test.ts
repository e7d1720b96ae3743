import { and, eq, inArray, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BARTER_ERROR_CODES } from '#common/schemas/barters.ts';
import { barterRequests, items, messages, notifications, ratings } from '../../db/schema/trading';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { barterKit, type Member } from './barter-test-kit';

/**
 * Concurrent requests through the API. On PostgreSQL they run side by side (one pooled connection
 * each) and meet on row locks; on PGlite they take turns. Either way exactly one wins.
 */
describe('barter races', () => {
  let t: TestApp;
  let kit: ReturnType<typeof barterKit>;
  let ann: Member;
  let ben: Member;

  beforeAll(async () => {
    t = await buildTestApp({ BARTER_PROPOSAL_RATE_LIMIT: '100000', MESSAGE_RATE_LIMIT: '100000' });
    kit = barterKit(t);
    ann = await kit.member('Ann');
    ben = await kit.member('Ben');
  });
  afterAll(() => t.close());

  const statuses = (responses: Array<{ statusCode: number }>) =>
    responses.map((response) => response.statusCode).sort();

  it('messages and readings of one conversation at once: every one answered, one unread entry a member', async () => {
    // On PostgreSQL the senders' transactions replaced the same member's unread entry side by side
    // and were ended as deadlocks (503); they now take turns (lockMessageEntries).
    const { barter } = await kit.pending(ann, ben);
    kit.ok(await kit.act(ben, barter.id, 'accept'));
    const send = (from: Member, text: string) =>
      kit.call(from, 'POST', `/api/barter-requests/${barter.id}/messages`, { content: text });
    const read = (who: Member) => kit.call(who, 'POST', `/api/barter-requests/${barter.id}/messages/read`);
    // Requests the load shedding refused (ADR 051): on the embedded database eight at once on a busy
    // host can pass its line's limit. Those ran nothing; any other 503 (a deadlock) fails the test.
    const shed = () => Object.values(t.app.loadShedding.shedCounts()).reduce((sum, count) => sum + count, 0);
    const texts: string[] = [];
    for (let round = 0; round < 5; round++) {
      const sends: Array<[Member, string]> = [ann, ann, ann, ben, ben, ben].map((from, index) => [
        from,
        `${from === ann ? 'Ann' : 'Ben'} ${round} ${'abc'[index % 3]}`,
      ]);
      texts.push(...sends.map(([, text]) => text));
      const shedBefore = shed();
      const responses = await Promise.all([
        ...sends.map(([from, text]) => send(from, text)),
        read(ann),
        read(ben),
      ]);
      const refused = responses.filter((response) => response.statusCode === 503).length;
      expect(shed() - shedBefore, 'every 503 is a shed request').toBe(refused);
      // Each answered as it should be (201 for a message, 200 for a reading), or shed.
      const expected = [...sends.map(() => 201), 200, 200];
      expect(
        responses.map((response, index) =>
          response.statusCode === 503 ? expected[index] : response.statusCode,
        ),
        responses.map((response) => response.body).join('\n'),
      ).toEqual(expected);
      // A member whose message was refused sends it again once the answer's Retry-After has passed.
      for (const [index, [from, text]] of sends.entries()) {
        let response = responses[index];
        while (response?.statusCode === 503) {
          await new Promise((resolve) =>
            setTimeout(resolve, Number(response?.headers['retry-after']) * 1000),
          );
          response = await send(from, text);
        }
        expect(response?.statusCode, text).toBe(201);
      }
    }
    // Every message stored once, none lost and none twice.
    const stored = await kit
      .db()
      .select({ content: messages.content })
      .from(messages)
      .where(and(eq(messages.barterRequestId, barter.id), isNull(messages.copyOfId)));
    expect(stored.map((row) => row.content).sort()).toEqual([...texts].sort());
    const unread = await kit
      .db()
      .select({ userId: notifications.userId })
      .from(notifications)
      .where(
        and(
          eq(notifications.barterRequestId, barter.id),
          eq(notifications.kind, 'message_received'),
          isNull(notifications.readAt),
        ),
      );
    // The last round's reading may have come after every message to its reader, or not: no member
    // has more than one unread entry for the conversation either way.
    const ids = unread.map((row) => row.userId);
    expect(ids.length, 'one unread entry a member').toBe(new Set(ids).size);
  });

  it('the same proposal accepted twice at once: one 200, one 409, reserved once', async () => {
    for (let round = 0; round < 5; round++) {
      const { barter, offered, requested } = await kit.pending(ann, ben);
      const responses = await Promise.all([
        kit.act(ben, barter.id, 'accept'),
        kit.act(ben, barter.id, 'accept'),
      ]);
      expect(statuses(responses)).toEqual([200, 409]);
      const loser = responses.find((response) => response.statusCode === 409);
      expect(loser?.json().code).toBe(BARTER_ERROR_CODES.transition);
      const held = await kit
        .db()
        .select({ reserved: items.reservedByRequestId })
        .from(items)
        .where(inArray(items.id, [offered.id, requested.id]));
      expect(held).toEqual([{ reserved: barter.id }, { reserved: barter.id }]);
      const accepted = await kit
        .db()
        .select()
        .from(notifications)
        .where(
          and(eq(notifications.barterRequestId, barter.id), eq(notifications.kind, 'proposal_accepted')),
        );
      expect(accepted).toHaveLength(1);
    }
  });

  it('two members accepting proposals that share an item at once: exactly one wins', async () => {
    for (let round = 0; round < 5; round++) {
      const cat = await kit.member(`Cat${round}`);
      // Ann offers her lamp to Ben; Cat asks Ann for the same lamp. Ben and Ann accept at once.
      const lamp = await kit.item(ann, { title: `Lamp ${round}` });
      const bensBike = await kit.item(ben);
      const catsBook = await kit.item(cat);
      const toBen = kit.ok(await kit.propose(ann, [lamp.id], [bensBike.id]), 201);
      const fromCat = kit.ok(await kit.propose(cat, [catsBook.id], [lamp.id]), 201);
      const responses = await Promise.all([
        kit.act(ben, toBen.id, 'accept'),
        kit.act(ann, fromCat.id, 'accept'),
      ]);
      expect(statuses(responses)).toEqual([200, 409]);
      const loser = responses.find((response) => response.statusCode === 409);
      expect(loser?.json().code).toBe(BARTER_ERROR_CODES.itemUnavailable);
      const winnerId = responses[0]?.statusCode === 200 ? toBen.id : fromCat.id;
      const loserId = winnerId === toBen.id ? fromCat.id : toBen.id;
      const [held] = await kit
        .db()
        .select({ reserved: items.reservedByRequestId })
        .from(items)
        .where(eq(items.id, lamp.id));
      expect(held?.reserved).toBe(winnerId);
      const rows = await kit
        .db()
        .select({ id: barterRequests.id, status: barterRequests.status })
        .from(barterRequests)
        .where(inArray(barterRequests.id, [winnerId, loserId]));
      expect(Object.fromEntries(rows.map((row) => [row.id, row.status]))).toEqual({
        [winnerId]: 'accepted',
        [loserId]: 'pending',
      });
      // Nothing of the loser's transaction remains: only the loser's own items could still be reserved by it.
      const byLoser = await kit.db().select().from(items).where(eq(items.reservedByRequestId, loserId));
      expect(byLoser).toEqual([]);
      // The loser's members were told their proposal can no longer be accepted.
      const told = await kit
        .db()
        .select({ userId: notifications.userId })
        .from(notifications)
        .where(
          and(eq(notifications.barterRequestId, loserId), eq(notifications.kind, 'proposal_unavailable')),
        );
      expect(told).toHaveLength(2);
    }
  });

  it('five proposals for one item accepted at once: one is accepted, four answer 409', async () => {
    const vase = await kit.item(ben, { title: 'Vase' });
    const proposals = [];
    for (let i = 0; i < 5; i++) {
      const asker = await kit.member(`Asker${i}`);
      const offered = await kit.item(asker);
      proposals.push(kit.ok(await kit.propose(asker, [offered.id], [vase.id]), 201));
    }
    const responses = await Promise.all(proposals.map((barter) => kit.act(ben, barter.id, 'accept')));
    expect(statuses(responses)).toEqual([200, 409, 409, 409, 409]);
    const accepted = await kit
      .db()
      .select({ id: barterRequests.id })
      .from(barterRequests)
      .where(
        and(
          inArray(
            barterRequests.id,
            proposals.map((barter) => barter.id),
          ),
          eq(barterRequests.status, 'accepted'),
        ),
      );
    expect(accepted).toHaveLength(1);
  });

  it('both members confirming at once complete the barter once', async () => {
    for (let round = 0; round < 3; round++) {
      const { barter } = await kit.pending(ann, ben);
      kit.ok(await kit.act(ben, barter.id, 'accept'));
      const responses = await Promise.all([
        kit.act(ann, barter.id, 'confirm'),
        kit.act(ben, barter.id, 'confirm'),
      ]);
      expect(statuses(responses)).toEqual([200, 200]);
      expect(kit.ok(await kit.get(ann, barter.id)).status).toBe('completed');
      const completed = await kit
        .db()
        .select()
        .from(notifications)
        .where(and(eq(notifications.barterRequestId, barter.id), eq(notifications.kind, 'barter_completed')));
      expect(completed).toHaveLength(2);
    }
  });

  it('the same rating sent twice at once is stored once', async () => {
    const { barter } = await kit.pending(ann, ben);
    kit.ok(await kit.act(ben, barter.id, 'accept'));
    kit.ok(await kit.act(ann, barter.id, 'confirm'));
    kit.ok(await kit.act(ben, barter.id, 'confirm'));
    const responses = await Promise.all([
      kit.act(ann, barter.id, 'rating', { stars: 5 }),
      kit.act(ann, barter.id, 'rating', { stars: 3 }),
    ]);
    expect(statuses(responses)).toEqual([200, 409]);
    const stored = await kit.db().select().from(ratings).where(eq(ratings.barterRequestId, barter.id));
    expect(stored).toHaveLength(1);
  });

  it('the same proposal sent twice at once is stored once', async () => {
    const mine = await kit.item(ann);
    const theirs = await kit.item(ben);
    const responses = await Promise.all([
      kit.propose(ann, [mine.id], [theirs.id]),
      kit.propose(ann, [mine.id], [theirs.id]),
    ]);
    expect(statuses(responses)).toEqual([201, 409]);
    expect(responses.find((response) => response.statusCode === 409)?.json().code).toBe(
      BARTER_ERROR_CODES.duplicate,
    );
  });
});
