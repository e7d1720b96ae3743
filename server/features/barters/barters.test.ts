import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BARTER_ACTIONS,
  type BarterAction,
  type BarterStatus,
  PENDING_EXPIRY_MS,
} from '#common/barter-machine.ts';
import { BARTER_ERROR_CODES, type Barter } from '#common/schemas/barters.ts';
import { barterRequestItems, barterRequests, items, ratings } from '../../db/schema/trading';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { barterKit, type Member } from './barter-test-kit';

const { transition, invalidItems, itemUnavailable, duplicate } = BARTER_ERROR_CODES;

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

describe('proposing', () => {
  it('stores a pending proposal with its items, notifies the recipient and tells both pages', async () => {
    const drill = await kit.item(ann, { title: 'Cordless drill', category: 'tools' });
    const saw = await kit.item(ann, { title: 'Hand saw', category: 'tools', isService: false });
    const bike = await kit.item(ben, {
      title: 'Road bike',
      category: 'bikes',
      thumbnailUrl: '/photos/bike.webp',
    });
    const before = Date.now();
    const response = await kit.propose(ann, [saw.id, drill.id], [bike.id], 'Both for your bike?');
    const barter = kit.ok(response, 201);
    expect(barter).toEqual({
      id: expect.any(Number),
      threadId: barter.id,
      status: 'pending',
      role: 'sender',
      otherMember: { id: ben.id, displayName: `Ben ${ben.user.lastName?.[0]}.`, profileImageUrl: null },
      offeredItems: [
        {
          id: saw.id,
          title: 'Hand saw',
          category: 'tools',
          isService: false,
          thumbnailUrl: null,
          available: true,
        },
        {
          id: drill.id,
          title: 'Cordless drill',
          category: 'tools',
          isService: false,
          thumbnailUrl: null,
          available: true,
        },
      ],
      requestedItems: [
        {
          id: bike.id,
          title: 'Road bike',
          category: 'bikes',
          isService: false,
          thumbnailUrl: '/photos/bike.webp',
          available: true,
        },
      ],
      message: 'Both for your bike?',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      expiresAt: expect.any(String),
      unreadMessages: 0,
      allowedActions: ['withdraw', 'message'],
      counterOfId: null,
      counteredById: null,
      confirmedByMe: false,
      confirmedByOther: false,
      closedBy: null,
      closeReason: null,
      myRating: null,
      theirRating: null,
      myRatingHiddenUntil: null,
      theirRatingHiddenUntil: null,
      circleId: null,
      swapDay: null,
    });
    const expires = Date.parse(barter.expiresAt ?? '');
    expect(expires).toBeGreaterThanOrEqual(before + PENDING_EXPIRY_MS - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + PENDING_EXPIRY_MS + 1000);

    // The recipient's view of the same request.
    const seen = kit.ok(await kit.get(ben, barter.id));
    expect(seen).toMatchObject({
      role: 'recipient',
      otherMember: { id: ann.id, displayName: `Ann ${ann.user.lastName?.[0]}.` },
      allowedActions: ['accept', 'decline', 'counter', 'message'],
    });

    const [row] = await kit.db().select().from(barterRequests).where(eq(barterRequests.id, barter.id));
    expect(row).toMatchObject({
      fromUserId: ann.id,
      toUserId: ben.id,
      fromItemId: saw.id,
      toItemId: bike.id,
      threadId: barter.id,
      counterOfId: null,
      status: 'pending',
    });
    const listed = await kit
      .db()
      .select()
      .from(barterRequestItems)
      .where(eq(barterRequestItems.barterRequestId, barter.id))
      .orderBy(barterRequestItems.side, barterRequestItems.position);
    expect(listed.map((r) => [r.side, r.position, r.itemId, r.title, r.category, r.isService])).toEqual([
      ['from', 0, saw.id, 'Hand saw', 'tools', false],
      ['from', 1, drill.id, 'Cordless drill', 'tools', false],
      ['to', 0, bike.id, 'Road bike', 'bikes', false],
    ]);
    expect(await kit.notificationKinds(ben.id, barter.id)).toEqual(['proposal_received']);
    expect(await kit.notificationKinds(ann.id, barter.id)).toEqual([]);
    const events = await kit.barterEventsFor([ann.id, ben.id], barter.id);
    expect(events.map((event) => event.userId).sort()).toEqual([ann.id, ben.id].sort());
    expect(events[0]?.data).toEqual({ barterRequestId: barter.id, threadId: barter.id });
  });

  it('keeps the proposal as it was made after its items are edited, and says when one is gone', async () => {
    const { barter, offered, requested } = await kit.pending(ann, ben);
    await kit.db().update(items).set({ title: 'Renamed' }).where(eq(items.id, offered.id));
    await kit.db().delete(items).where(eq(items.id, requested.id));
    const seen = kit.ok(await kit.get(ann, barter.id));
    expect(seen.offeredItems[0]).toMatchObject({ id: offered.id, title: offered.title, available: true });
    expect(seen.requestedItems[0]).toEqual({
      id: null,
      title: requested.title,
      category: requested.category,
      isService: false,
      thumbnailUrl: null,
      available: false,
    });
    // Nothing can be accepted any more; talking still works.
    expect(kit.ok(await kit.get(ben, barter.id)).allowedActions).toEqual(['decline', 'counter', 'message']);
    kit.refused(await kit.act(ben, barter.id, 'accept'), 409, itemUnavailable);
  });

  it('refuses items that are not the caller’s to offer or one other member’s to ask for (400)', async () => {
    const mine = await kit.item(ann);
    const mine2 = await kit.item(ann);
    const bens = await kit.item(ben);
    const cats = await kit.item(cat);
    const cases: Array<[string, number[], number[]]> = [
      ['unknown offered', [2_000_000_000], [bens.id]],
      ['unknown requested', [mine.id], [2_000_000_000]],
      ['someone else’s offered', [bens.id], [cats.id]],
      ['own item requested', [mine.id], [mine2.id]],
      ['two members requested', [mine.id], [bens.id, cats.id]],
      ['the same item on both sides', [mine.id], [mine.id]],
    ];
    for (const [label, offered, requested] of cases) {
      const response = await kit.propose(ann, offered, requested);
      expect({ label, status: response.statusCode, code: response.json().code }).toEqual({
        label,
        status: 400,
        code: invalidItems,
      });
    }
    const stored = await kit
      .db()
      .select()
      .from(barterRequestItems)
      .where(sql`${barterRequestItems.itemId} IN (${mine.id}, ${mine2.id}, ${bens.id}, ${cats.id})`);
    expect(stored).toEqual([]);
  });

  it('refuses inactive and reserved items (409) and an identical pending proposal (409)', async () => {
    const mine = await kit.item(ann);
    const hidden = await kit.item(ben, { isActive: false });
    kit.refused(await kit.propose(ann, [mine.id], [hidden.id]), 409, itemUnavailable);
    const ownHidden = await kit.item(ann, { isActive: false });
    const bens = await kit.item(ben);
    kit.refused(await kit.propose(ann, [ownHidden.id], [bens.id]), 409, itemUnavailable);

    // Reserved by an accepted barter.
    const { barter, requested } = await kit.pending(cat, ben);
    kit.ok(await kit.act(ben, barter.id, 'accept'));
    kit.refused(await kit.propose(ann, [mine.id], [requested.id]), 409, itemUnavailable);

    // The same items again, in any order, while the first is pending: a duplicate.
    const other = await kit.item(ann);
    const first = kit.ok(await kit.propose(ann, [mine.id, other.id], [bens.id]), 201);
    const again = kit.refused(
      await kit.propose(ann, [other.id, mine.id], [bens.id], 'Again?'),
      409,
      duplicate,
    );
    expect(again.message).toMatch(/already/);
    // A different set is a different proposal.
    kit.ok(await kit.propose(ann, [mine.id], [bens.id]), 201);
    // Once withdrawn, the same proposal can be made again.
    kit.ok(await kit.act(ann, first.id, 'withdraw'));
    kit.ok(await kit.propose(ann, [mine.id, other.id], [bens.id]), 201);
  });

  it('moderates the message and stores nothing when it breaks the Terms', async () => {
    const mine = await kit.item(ann);
    const bens = await kit.item(ben);
    const response = await kit.propose(ann, [mine.id], [bens.id], 'Text me at 503-555-0199');
    kit.refused(response, 400, 'CONTENT_NOT_ALLOWED');
    expect(response.json().message).toContain('not appropriate');
    const rows = await kit.db().select().from(barterRequests).where(eq(barterRequests.fromItemId, mine.id));
    expect(rows).toEqual([]);
  });

  it('answers 400 to hostile bodies and ids', async () => {
    const mine = await kit.item(ann);
    const bens = await kit.item(ben);
    const bodies: unknown[] = [
      {},
      { offeredItemIds: [], requestedItemIds: [bens.id] },
      { offeredItemIds: [mine.id], requestedItemIds: [] },
      { offeredItemIds: [-1], requestedItemIds: [bens.id] },
      { offeredItemIds: [1.5], requestedItemIds: [bens.id] },
      { offeredItemIds: ['1'], requestedItemIds: [bens.id] },
      { offeredItemIds: [2 ** 31], requestedItemIds: [bens.id] },
      { offeredItemIds: [mine.id, mine.id], requestedItemIds: [bens.id] },
      { offeredItemIds: Array.from({ length: 11 }, (_, i) => i + 1), requestedItemIds: [bens.id] },
      { offeredItemIds: Array.from({ length: 10_000 }, (_, i) => i + 1), requestedItemIds: [bens.id] },
      { offeredItemIds: mine.id, requestedItemIds: [bens.id] },
      { offeredItemIds: [mine.id], requestedItemIds: [bens.id], message: 'x'.repeat(1001) },
      { offeredItemIds: [mine.id], requestedItemIds: [bens.id], extra: true },
      [],
      null,
    ];
    for (const body of bodies) {
      const response = await kit.call(ann, 'POST', '/api/barter-requests', body);
      expect({ body: JSON.stringify(body).slice(0, 60), status: response.statusCode }).toEqual({
        body: JSON.stringify(body).slice(0, 60),
        status: 400,
      });
    }
    // 1e3 is the number 1000 in JSON: a valid id of an item that is not Ann's.
    const exponent = await t.app.inject({
      method: 'POST',
      url: '/api/barter-requests',
      cookies: ann.cookies,
      headers: { 'content-type': 'application/json' },
      payload: `{"offeredItemIds":[1e3],"requestedItemIds":[${bens.id}]}`,
    });
    expect(exponent.statusCode).toBe(400);
    for (const id of ['1e3', '-1', '0', 'abc', '1.5', '99999999999', '%20']) {
      const response = await kit.call(ann, 'GET', `/api/barter-requests/${id}`);
      expect({ id, status: response.statusCode }).toEqual({ id, status: 400 });
      const action = await kit.call(ann, 'POST', `/api/barter-requests/${id}/accept`);
      expect({ id, status: action.statusCode }).toEqual({ id, status: 400 });
    }
    for (const query of [
      'box=bogus',
      '',
      'box=incoming&limit=0',
      'box=incoming&limit=101',
      'box=past&offset=-1',
    ]) {
      const response = await kit.call(ann, 'GET', `/api/barter-requests?${query}`);
      expect({ query, status: response.statusCode }).toEqual({ query, status: 400 });
    }
  });

  it('answers 401 signed out', async () => {
    const response = await kit.call(null, 'GET', '/api/barter-requests?box=incoming');
    expect(response.statusCode).toBe(401);
  });
});

/**
 * Every action by the sender and by the recipient from every state, through the API: allowed ones
 * move the request where the machine says, all others answer 409 BARTER_TRANSITION and change
 * nothing. A third member gets 404 for everything.
 */
describe('the state machine through the API', () => {
  const STATES: BarterStatus[] = [
    'pending',
    'accepted',
    'completed',
    'declined',
    'withdrawn',
    'countered',
    'cancelled',
    'expired',
  ];
  type Role = 'sender' | 'recipient';

  /** A request from Ann to Ben in `state`, reached through the API (expired: its time is up). */
  async function inState(state: BarterStatus): Promise<Barter> {
    const { barter } = await kit.pending(ann, ben);
    const id = barter.id;
    switch (state) {
      case 'accepted':
        kit.ok(await kit.act(ben, id, 'accept'));
        break;
      case 'completed':
        kit.ok(await kit.act(ben, id, 'accept'));
        kit.ok(await kit.act(ann, id, 'confirm'));
        kit.ok(await kit.act(ben, id, 'confirm'));
        break;
      case 'declined':
        kit.ok(await kit.act(ben, id, 'decline'));
        break;
      case 'withdrawn':
        kit.ok(await kit.act(ann, id, 'withdraw'));
        break;
      case 'countered':
        await counterAsBen(id);
        break;
      case 'cancelled':
        kit.ok(await kit.act(ben, id, 'accept'));
        kit.ok(await kit.act(ann, id, 'cancel', { reason: 'Changed my mind' }));
        break;
      case 'expired':
        await kit
          .db()
          .update(barterRequests)
          .set({ expiresAt: new Date(Date.now() - 1000) })
          .where(eq(barterRequests.id, id));
        break;
      default:
        break;
    }
    const seen = kit.ok(await kit.get(ann, id));
    expect(seen.status).toBe(state);
    return seen;
  }

  async function counterAsBen(id: number) {
    const bens = await kit.item(ben);
    const anns = await kit.item(ann);
    return kit.act(ben, id, 'counter', { offeredItemIds: [bens.id], requestedItemIds: [anns.id] });
  }

  const bodyFor = async (action: BarterAction): Promise<unknown> => {
    if (action === 'cancel') return { reason: 'Something came up' };
    if (action === 'rate') return { stars: 4, comment: 'Friendly and on time' };
    if (action === 'counter') {
      const bens = await kit.item(ben);
      const anns = await kit.item(ann);
      return { offeredItemIds: [bens.id], requestedItemIds: [anns.id] };
    }
    return undefined;
  };
  const pathOf = (action: BarterAction) => (action === 'rate' ? 'rating' : action);
  const as = (role: Role) => (role === 'sender' ? ann : ben);

  /** Where the machine says each allowed action leads (rate keeps completed). */
  const ALLOWED: Record<string, BarterStatus> = {
    'pending recipient accept': 'accepted',
    'pending recipient decline': 'declined',
    'pending recipient counter': 'countered',
    'pending sender withdraw': 'withdrawn',
    'accepted sender cancel': 'cancelled',
    'accepted recipient cancel': 'cancelled',
    'accepted sender confirm': 'accepted',
    'accepted recipient confirm': 'accepted',
    'completed sender rate': 'completed',
    'completed recipient rate': 'completed',
  };
  const actions = BARTER_ACTIONS.filter((action) => action !== 'message');

  it.each(STATES)(
    'from %s: allowed actions lead where the machine says, the others answer 409',
    async (state) => {
      const shared = await inState(state);
      for (const role of ['sender', 'recipient'] as const) {
        const allowedHere = actions.filter((action) => `${state} ${role} ${action}` in ALLOWED);
        const seen = kit.ok(await kit.get(as(role), shared.id));
        expect(seen.allowedActions).toEqual([...allowedHere, 'message']);
        for (const action of actions) {
          const key = `${state} ${role} ${action}`;
          if (key in ALLOWED) {
            const fresh = await inState(state);
            const response = await kit.act(as(role), fresh.id, pathOf(action), await bodyFor(action));
            expect({ key, status: response.statusCode }, response.body).toEqual({
              key,
              status: action === 'counter' ? 201 : 200,
            });
            const after = kit.ok(await kit.get(ann, fresh.id));
            expect({ key, status: after.status }).toEqual({ key, status: ALLOWED[key] });
          } else {
            const response = await kit.act(as(role), shared.id, pathOf(action), await bodyFor(action));
            expect({ key, status: response.statusCode, code: response.json().code }).toEqual({
              key,
              status: 409,
              code: transition,
            });
            expect(response.json().message).toMatch(/\.$/);
          }
        }
        // Nothing the refused actions tried changed the request.
        expect(kit.ok(await kit.get(as(role), shared.id))).toMatchObject({
          status: state,
          allowedActions: seen.allowedActions,
        });
      }
      // A third member: 404 for reading and for every action, the same as an unknown id.
      const unknown = await kit.get(cat, 2_000_000_000);
      expect(unknown.statusCode).toBe(404);
      expect((await kit.get(cat, shared.id)).json()).toEqual(unknown.json());
      for (const action of actions) {
        const response = await kit.act(cat, shared.id, pathOf(action), await bodyFor(action));
        expect({ action, status: response.statusCode }).toEqual({ action, status: 404 });
      }
      for (const path of ['messages', 'messages/read']) {
        const response = await kit.call(
          cat,
          path === 'messages' ? 'GET' : 'POST',
          `/api/barter-requests/${shared.id}/${path}`,
        );
        expect({ path, status: response.statusCode }).toEqual({ path, status: 404 });
      }
    },
  );

  it('explains refusals in a sentence', async () => {
    const accepted = await inState('accepted');
    expect(kit.refused(await kit.act(ben, accepted.id, 'accept'), 409, transition).message).toBe(
      'This proposal was already accepted, so it can no longer be accepted.',
    );
    const pending = await inState('pending');
    expect(kit.refused(await kit.act(ann, pending.id, 'accept'), 409, transition).message).toBe(
      'Only the member who received this proposal can accept it.',
    );
    expect(kit.refused(await kit.act(ben, pending.id, 'withdraw'), 409, transition).message).toBe(
      'Only the member who made this proposal can withdraw it.',
    );
    const expired = await inState('expired');
    expect(kit.refused(await kit.act(ben, expired.id, 'accept'), 409, transition).message).toBe(
      'This proposal expired, so it can no longer be accepted.',
    );
    kit.ok(await kit.act(ann, accepted.id, 'confirm'));
    expect(kit.refused(await kit.act(ann, accepted.id, 'confirm'), 409, transition).message).toBe(
      'You have already confirmed this barter.',
    );
  });
});

describe('accepting, confirming, cancelling, rating', () => {
  it('accept reserves every item, notifies the sender and records who did what', async () => {
    const { barter, offered, requested } = await kit.pending(ann, ben);
    const accepted = kit.ok(await kit.act(ben, barter.id, 'accept'));
    expect(accepted).toMatchObject({
      status: 'accepted',
      expiresAt: null,
      allowedActions: ['cancel', 'confirm', 'message'],
    });
    const held = await kit
      .db()
      .select({ id: items.id, reserved: items.reservedByRequestId })
      .from(items)
      .where(sql`${items.id} IN (${offered.id}, ${requested.id})`);
    expect(held.map((row) => row.reserved)).toEqual([barter.id, barter.id]);
    const [row] = await kit.db().select().from(barterRequests).where(eq(barterRequests.id, barter.id));
    expect(row?.acceptedAt).toBeInstanceOf(Date);
    expect(row?.expiresAt).toBeNull();
    expect(await kit.notificationKinds(ann.id, barter.id)).toEqual(['proposal_accepted']);
    // The proposal event, then the accept event, for each member.
    expect(await kit.barterEventsFor([ann.id], barter.id)).toHaveLength(2);
    expect(await kit.barterEventsFor([ben.id], barter.id)).toHaveLength(2);
  });

  it('confirmations complete the barter: items leave every list, both are told, then each rates once', async () => {
    const { barter, offered, requested } = await kit.pending(ann, ben);
    kit.ok(await kit.act(ben, barter.id, 'accept'));
    const first = kit.ok(await kit.act(ben, barter.id, 'confirm'));
    expect(first).toMatchObject({ status: 'accepted', confirmedByMe: true, confirmedByOther: false });
    expect(first.allowedActions).toEqual(['cancel', 'message']);
    expect(kit.ok(await kit.get(ann, barter.id))).toMatchObject({
      confirmedByMe: false,
      confirmedByOther: true,
    });
    expect(await kit.notificationKinds(ann.id, barter.id)).toEqual([
      'proposal_accepted',
      'completion_requested',
    ]);

    const done = kit.ok(await kit.act(ann, barter.id, 'confirm'));
    expect(done).toMatchObject({ status: 'completed', allowedActions: ['rate', 'message'] });
    const states = await kit
      .db()
      .select({ active: items.isActive, reserved: items.reservedByRequestId })
      .from(items)
      .where(sql`${items.id} IN (${offered.id}, ${requested.id})`);
    expect(states).toEqual([
      { active: false, reserved: null },
      { active: false, reserved: null },
    ]);
    expect((await kit.notificationKinds(ann.id, barter.id)).at(-1)).toBe('barter_completed');
    expect((await kit.notificationKinds(ben.id, barter.id)).at(-1)).toBe('barter_completed');

    // Ratings: the comment is moderated, each member rates once, each sees both.
    kit.refused(
      await kit.act(ann, barter.id, 'rating', { stars: 5, comment: 'Call me on 503-555-0199' }),
      400,
      'CONTENT_NOT_ALLOWED',
    );
    for (const stars of [0, 6, 2.5, '5']) {
      expect((await kit.act(ann, barter.id, 'rating', { stars })).statusCode).toBe(400);
    }
    const rated = kit.ok(await kit.act(ann, barter.id, 'rating', { stars: 5, comment: 'Great trade' }));
    expect(rated).toMatchObject({ myRating: { stars: 5, comment: 'Great trade' }, theirRating: null });
    expect(rated.allowedActions).toEqual(['message']);
    kit.refused(await kit.act(ann, barter.id, 'rating', { stars: 1 }), 409, transition);
    expect(await kit.notificationKinds(ben.id, barter.id)).toContain('rating_received');
    const theirs = kit.ok(await kit.act(ben, barter.id, 'rating', { stars: 4 }));
    expect(theirs).toMatchObject({
      myRating: { stars: 4, comment: null },
      theirRating: { stars: 5, comment: 'Great trade' },
    });
    const stored = await kit.db().select().from(ratings).where(eq(ratings.barterRequestId, barter.id));
    expect(stored.map((r) => [r.raterId, r.rateeId, r.stars]).sort()).toEqual(
      [
        [ann.id, ben.id, 5],
        [ben.id, ann.id, 4],
      ].sort(),
    );
  });

  it('cancel frees the items, keeps the reason and who cancelled, and tells the other member', async () => {
    const { barter, offered, requested } = await kit.pending(ann, ben);
    kit.ok(await kit.act(ben, barter.id, 'accept'));
    for (const body of [undefined, {}, { reason: '' }, { reason: '   ' }, { reason: 'x'.repeat(501) }]) {
      expect((await kit.act(ann, barter.id, 'cancel', body)).statusCode).toBe(400);
    }
    kit.refused(
      await kit.act(ann, barter.id, 'cancel', { reason: 'Email me at a@b.co' }),
      400,
      'CONTENT_NOT_ALLOWED',
    );
    const cancelled = kit.ok(await kit.act(ann, barter.id, 'cancel', { reason: 'The bike is broken' }));
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      closedBy: 'me',
      closeReason: 'The bike is broken',
    });
    expect(kit.ok(await kit.get(ben, barter.id))).toMatchObject({ closedBy: 'them' });
    const states = await kit
      .db()
      .select({ active: items.isActive, reserved: items.reservedByRequestId })
      .from(items)
      .where(sql`${items.id} IN (${offered.id}, ${requested.id})`);
    expect(states).toEqual([
      { active: true, reserved: null },
      { active: true, reserved: null },
    ]);
    expect(await kit.notificationKinds(ben.id, barter.id)).toEqual(['proposal_received', 'barter_cancelled']);
  });

  it('decline and withdraw record who closed it and notify the other member', async () => {
    const declined = (await kit.pending(ann, ben)).barter;
    expect(kit.ok(await kit.act(ben, declined.id, 'decline'))).toMatchObject({
      status: 'declined',
      closedBy: 'me',
      expiresAt: null,
    });
    expect(await kit.notificationKinds(ann.id, declined.id)).toEqual(['proposal_declined']);
    const withdrawn = (await kit.pending(ann, ben)).barter;
    expect(kit.ok(await kit.act(ann, withdrawn.id, 'withdraw'))).toMatchObject({
      status: 'withdrawn',
      closedBy: 'me',
    });
    expect(kit.ok(await kit.get(ben, withdrawn.id))).toMatchObject({ closedBy: 'them' });
    expect(await kit.notificationKinds(ben.id, withdrawn.id)).toEqual([
      'proposal_received',
      'proposal_withdrawn',
    ]);
  });

  it('refuses to change, hide or delete a reserved item, and allows it again once the barter is cancelled', async () => {
    const { barter, requested } = await kit.pending(ann, ben);
    kit.ok(await kit.act(ben, barter.id, 'accept'));
    const hide = await kit.call(ben, 'PATCH', `/api/items/${requested.id}`, { isActive: false });
    expect(kit.refused(hide, 409, 'CONFLICT').message).toBe(
      'This item is reserved in an accepted barter. Cancel the barter first.',
    );
    kit.refused(await kit.call(ben, 'DELETE', `/api/items/${requested.id}`), 409, 'CONFLICT');
    // Nor change it: it is what Ann agreed to take (issue 27); the barter shows it as accepted.
    const shown = kit.ok(await kit.get(ann, barter.id)).requestedItems;
    kit.refused(
      await kit.call(ben, 'PATCH', `/api/items/${requested.id}`, { title: 'Bike, tuned' }),
      409,
      'CONFLICT',
    );
    expect(kit.ok(await kit.get(ann, barter.id)).requestedItems).toEqual(shown);
    expect(shown[0]?.title).toBe(requested.title);
    const mine = await kit.call(ben, 'GET', '/api/items/my');
    expect(mine.json().find((i: { id: number }) => i.id === requested.id)).toMatchObject({
      isReserved: true,
    });

    kit.ok(await kit.act(ben, barter.id, 'cancel', { reason: 'Plans changed' }));
    expect((await kit.call(ben, 'PATCH', `/api/items/${requested.id}`, { isActive: false })).statusCode).toBe(
      200,
    );
    expect((await kit.call(ben, 'DELETE', `/api/items/${requested.id}`)).statusCode).toBe(204);
  });

  it('tells the members of other proposals using a reserved item, which then cannot be accepted', async () => {
    const bike = await kit.item(ben, { title: 'Shared bike' });
    const annsItem = await kit.item(ann);
    const catsItem = await kit.item(cat);
    const fromAnn = kit.ok(await kit.propose(ann, [annsItem.id], [bike.id]), 201);
    const fromCat = kit.ok(await kit.propose(cat, [catsItem.id], [bike.id]), 201);
    kit.ok(await kit.act(ben, fromAnn.id, 'accept'));
    expect(await kit.notificationKinds(cat.id, fromCat.id)).toEqual(['proposal_unavailable']);
    expect(await kit.notificationKinds(ben.id, fromCat.id)).toEqual([
      'proposal_received',
      'proposal_unavailable',
    ]);
    expect((await kit.barterEventsFor([cat.id, ben.id], fromCat.id)).length).toBe(4);
    const seen = kit.ok(await kit.get(ben, fromCat.id));
    expect(seen.allowedActions).toEqual(['decline', 'counter', 'message']);
    expect(seen.requestedItems[0]).toMatchObject({ id: bike.id, available: false });
    kit.refused(await kit.act(ben, fromCat.id, 'accept'), 409, itemUnavailable);
    // Cancelled: the bike is free again and Cat's proposal can be accepted.
    kit.ok(await kit.act(ann, fromAnn.id, 'cancel', { reason: 'Found one elsewhere' }));
    expect(kit.ok(await kit.get(ben, fromCat.id)).allowedActions).toContain('accept');
    kit.ok(await kit.act(ben, fromCat.id, 'accept'));
  });
});

describe('counters', () => {
  it('a counter is a new pending proposal the other way in the same thread, and can be countered back', async () => {
    const { barter } = await kit.pending(ann, ben);
    const bensLamp = await kit.item(ben, { title: 'Lamp' });
    const annsKettle = await kit.item(ann, { title: 'Kettle' });
    const response = await kit.act(ben, barter.id, 'counter', {
      offeredItemIds: [bensLamp.id],
      requestedItemIds: [annsKettle.id],
      message: 'How about these instead?',
    });
    const counter = kit.ok(response, 201);
    expect(counter).toMatchObject({
      status: 'pending',
      role: 'sender',
      threadId: barter.id,
      counterOfId: barter.id,
      otherMember: { id: ann.id },
      offeredItems: [{ id: bensLamp.id, title: 'Lamp' }],
      requestedItems: [{ id: annsKettle.id, title: 'Kettle' }],
      message: 'How about these instead?',
      allowedActions: ['withdraw', 'message'],
    });
    expect(kit.ok(await kit.get(ann, barter.id))).toMatchObject({
      status: 'countered',
      counteredById: counter.id,
      expiresAt: null,
      allowedActions: ['message'],
    });
    expect(kit.ok(await kit.get(ann, counter.id)).allowedActions).toEqual([
      'accept',
      'decline',
      'counter',
      'message',
    ]);
    expect(await kit.notificationKinds(ann.id, counter.id)).toEqual(['proposal_countered']);

    // Countered ones are in no list; the counter stands for them.
    const incoming = kit.ok<Barter[]>(
      await kit.call(ann, 'GET', '/api/barter-requests?box=incoming&limit=100'),
    );
    expect(incoming.map((b) => b.id)).toContain(counter.id);
    for (const box of ['incoming', 'outgoing', 'active', 'past']) {
      for (const who of [ann, ben]) {
        const list = kit.ok<Barter[]>(
          await kit.call(who, 'GET', `/api/barter-requests?box=${box}&limit=100`),
        );
        expect(list.map((b) => b.id)).not.toContain(barter.id);
      }
    }

    // Ann counters back: the thread stays the first request's.
    const annsBook = await kit.item(ann);
    const back = kit.ok(
      await kit.act(ann, counter.id, 'counter', {
        offeredItemIds: [annsBook.id],
        requestedItemIds: [bensLamp.id],
      }),
      201,
    );
    expect(back).toMatchObject({ threadId: barter.id, counterOfId: counter.id, otherMember: { id: ben.id } });
    kit.ok(await kit.act(ben, back.id, 'accept'));
  });

  it('a counter offers the counterer’s items for the proposer’s only', async () => {
    const { barter } = await kit.pending(ann, ben);
    const bens = await kit.item(ben);
    const anns = await kit.item(ann);
    const cats = await kit.item(cat);
    for (const body of [
      { offeredItemIds: [anns.id], requestedItemIds: [bens.id] },
      { offeredItemIds: [bens.id], requestedItemIds: [cats.id] },
      { offeredItemIds: [bens.id], requestedItemIds: [anns.id, cats.id] },
    ]) {
      kit.refused(await kit.act(ben, barter.id, 'counter', body), 400, invalidItems);
    }
    kit.refused(
      await kit.act(ben, barter.id, 'counter', {
        offeredItemIds: [bens.id],
        requestedItemIds: [anns.id],
        message: 'Add me on Snapchat',
      }),
      400,
      'CONTENT_NOT_ALLOWED',
    );
    // Nothing changed.
    expect(kit.ok(await kit.get(ann, barter.id)).status).toBe('pending');
  });
});

describe('lists', () => {
  it('lists each box newest updated first, a page at a time, with the total and unread messages', async () => {
    const dee = await kit.member('Dee');
    const eve = await kit.member('Eve');
    const made: Barter[] = [];
    for (let i = 0; i < 3; i++) made.push((await kit.pending(dee, eve)).barter);
    const toDee = (await kit.pending(eve, dee)).barter;
    kit.ok(await kit.act(eve, made[0]?.id ?? 0, 'accept'));
    kit.ok(await kit.act(dee, made[1]?.id ?? 0, 'withdraw'));
    await kit.call(eve, 'POST', `/api/barter-requests/${made[2]?.id}/messages`, { content: 'Hi Dee' });
    await kit.call(eve, 'POST', `/api/barter-requests/${made[2]?.id}/messages`, { content: 'Still keen?' });

    const box = async (name: string, query = '') => {
      const response = await kit.call(dee, 'GET', `/api/barter-requests?box=${name}${query}`);
      const list = kit.ok<Barter[]>(response);
      return { ids: list.map((b) => b.id), total: response.headers['x-total-count'], list };
    };
    expect(await box('outgoing')).toMatchObject({ ids: [made[2]?.id], total: '1' });
    expect((await box('outgoing')).list[0]?.unreadMessages).toBe(2);
    expect(await box('incoming')).toMatchObject({ ids: [toDee.id], total: '1' });
    expect(await box('active')).toMatchObject({ ids: [made[0]?.id], total: '1' });
    expect(await box('past')).toMatchObject({ ids: [made[1]?.id], total: '1' });
    // Eve's side: of Dee's three, one is still pending.
    const eveIncoming = kit.ok<Barter[]>(await kit.call(eve, 'GET', '/api/barter-requests?box=incoming'));
    expect(eveIncoming.map((b) => [b.id, b.role, b.unreadMessages])).toEqual([[made[2]?.id, 'recipient', 0]]);

    // Paging: newest updated first across pages, total in the header.
    for (let i = 0; i < 3; i++) await kit.pending(eve, dee);
    const first = await box('incoming', '&limit=2');
    const second = await box('incoming', '&limit=2&offset=2');
    expect(first.total).toBe('4');
    expect(second.total).toBe('4');
    expect([...first.ids, ...second.ids]).toHaveLength(4);
    expect(new Set([...first.ids, ...second.ids]).size).toBe(4);
    const all = (await box('incoming')).list;
    expect(all.map((b) => b.updatedAt)).toEqual([...all.map((b) => b.updatedAt)].sort().reverse());
    expect(all.at(-1)?.id).toBe(toDee.id);
  });
});
