import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '#common/error-codes.ts';
import { BARTER_ERROR_CODES } from '#common/schemas/barters.ts';
import {
  HAND_OVER_CODE_ALPHABET,
  HAND_OVER_CODE_ERROR_CODES,
  HAND_OVER_CODE_LOCK_MINUTES,
  HAND_OVER_CODE_MAX_WRONG,
  type HandOverCode,
} from '#common/schemas/hand-over-codes.ts';
import { handOverCodes } from '../../db/schema/hand-over-codes';
import { barterRequests, circles, items, notifications } from '../../db/schema/trading';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { barterKit, type Member } from './barter-test-kit';
import { createHandOvers } from './hand-overs';

// Confirm on the spot (issue 30, ADR 075): each member's code, entering the other's, and its rules.

let t: TestApp;
let kit: ReturnType<typeof barterKit>;
let ann: Member;
let ben: Member;
let cat: Member;

beforeAll(async () => {
  t = await buildTestApp({ BARTER_PROPOSAL_RATE_LIMIT: '100000' });
  kit = barterKit(t);
  ann = await kit.member('Ann');
  ben = await kit.member('Ben');
  cat = await kit.member('Cat');
});
afterAll(() => t.close());

const CODE = new RegExp(`^[${HAND_OVER_CODE_ALPHABET}]{6}$`);

/** A fresh barter from Ann to Ben, accepted by Ben. */
async function accepted(from = ann, to = ben) {
  const { barter, offered, requested } = await kit.pending(from, to);
  kit.ok(await kit.act(to, barter.id, 'accept'));
  return { id: barter.id, itemIds: [offered.id, requested.id] };
}

const codeOf = async (who: Member, id: number) =>
  kit.ok<HandOverCode>(await kit.call(who, 'GET', `/api/barter-requests/${id}/hand-over-code`));
const enter = (who: Member, id: number, code: unknown) =>
  kit.call(who, 'POST', `/api/barter-requests/${id}/hand-over-code`, { code });

async function completedNotices(requestId: number) {
  return kit
    .db()
    .select({ userId: notifications.userId })
    .from(notifications)
    .where(and(eq(notifications.barterRequestId, requestId), eq(notifications.kind, 'barter_completed')));
}

describe('hand-over codes', () => {
  it('each member has their own code, kept, with a link to the barter page and its QR', async () => {
    const { id } = await accepted();
    const annsCode = await codeOf(ann, id);
    const bensCode = await codeOf(ben, id);
    expect(annsCode.code).toMatch(CODE);
    expect(bensCode.code).toMatch(CODE);
    expect(annsCode.code).not.toBe(bensCode.code);
    expect((await codeOf(ann, id)).code).toBe(annsCode.code);
    expect(annsCode.link).toBe(`${t.app.config.publicUrl}/barters/${id}?code=${annsCode.code}`);
    expect(annsCode.qrSvg).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    // Only the members, and only while accepted.
    kit.refused(await kit.call(cat, 'GET', `/api/barter-requests/${id}/hand-over-code`), 404, 'NOT_FOUND');
    const unsigned = await t.app.inject({ method: 'GET', url: `/api/barter-requests/${id}/hand-over-code` });
    expect(unsigned.statusCode).toBe(401);
    // Not accepted: no code to show (null), and none made.
    const { barter: pending } = await kit.pending(ann, ben);
    expect(
      kit.ok(await kit.call(ann, 'GET', `/api/barter-requests/${pending.id}/hand-over-code`)),
    ).toBeNull();
    const made = await kit
      .db()
      .select()
      .from(handOverCodes)
      .where(eq(handOverCodes.barterRequestId, pending.id));
    expect(made).toEqual([]);
  });

  it("entering the other's code completes the barter at once, as both confirmations would", async () => {
    const { id, itemIds } = await accepted();
    const { code } = await codeOf(ann, id);
    // Read aloud and typed loosely: lower case, a space in the middle.
    const typed = `${code.slice(0, 3).toLowerCase()} ${code.slice(3)}`;
    const done = kit.ok(await enter(ben, id, typed));
    expect(done.status).toBe('completed');
    expect(done.confirmedByMe && done.confirmedByOther).toBe(true);
    expect(kit.ok(await kit.get(ann, id)).status).toBe('completed');
    const held = await kit
      .db()
      .select({ active: items.isActive, reserved: items.reservedByRequestId })
      .from(items)
      .where(inArray(items.id, itemIds));
    expect(held).toEqual([
      { active: false, reserved: null },
      { active: false, reserved: null },
    ]);
    expect((await completedNotices(id)).map((row) => row.userId).sort()).toEqual([ann.id, ben.id].sort());
    expect(await kit.barterEventsFor([ann.id], id)).not.toHaveLength(0);
    const [used] = await kit
      .db()
      .select({ usedAt: handOverCodes.usedAt })
      .from(handOverCodes)
      .where(and(eq(handOverCodes.barterRequestId, id), eq(handOverCodes.memberId, ann.id)));
    expect(used?.usedAt).toBeInstanceOf(Date);
    // Single use: the same code again, or Ben's now, completes nothing more.
    kit.refused(await enter(ben, id, code), 409, BARTER_ERROR_CODES.transition);
    kit.refused(await enter(ann, id, 'ABCDEF'), 409, BARTER_ERROR_CODES.transition);
    expect(kit.ok(await kit.call(ann, 'GET', `/api/barter-requests/${id}/hand-over-code`))).toBeNull();
    expect(await completedNotices(id)).toHaveLength(2);
  });

  it('completes after one "confirm" too, keeping when that member confirmed', async () => {
    const { id } = await accepted();
    kit.ok(await kit.act(ann, id, 'confirm'));
    const [before] = await kit.db().select().from(barterRequests).where(eq(barterRequests.id, id));
    const { code } = await codeOf(ben, id);
    expect(kit.ok(await enter(ann, id, code)).status).toBe('completed');
    const [after] = await kit.db().select().from(barterRequests).where(eq(barterRequests.id, id));
    expect(after?.fromConfirmedAt).toEqual(before?.fromConfirmedAt);
    expect(after?.toConfirmedAt).toBeInstanceOf(Date);
  });

  it('only the other member’s code works: your own is refused (and not counted), a stranger gets 404', async () => {
    const { id } = await accepted();
    const annsCode = (await codeOf(ann, id)).code;
    const own = kit.refused(await enter(ann, id, annsCode), 400, HAND_OVER_CODE_ERROR_CODES.own);
    expect(own.message).toMatch(/your own code/);
    // Cat is no member: even the right code is "not found", and changes nothing.
    kit.refused(await enter(cat, id, annsCode), 404, 'NOT_FOUND');
    expect(kit.ok(await kit.get(ann, id)).status).toBe('accepted');
    // A code of another barter is not this one's.
    const other = await accepted();
    const elsewhere = (await codeOf(ann, other.id)).code;
    const wrong = kit.refused(await enter(ben, id, elsewhere), 400, HAND_OVER_CODE_ERROR_CODES.wrong);
    expect(wrong.message).toBe(
      `That is not their code for this hand-over. ${HAND_OVER_CODE_MAX_WRONG - 1} tries left.`,
    );
    const [mine] = await kit
      .db()
      .select({ failed: handOverCodes.failedEntries })
      .from(handOverCodes)
      .where(and(eq(handOverCodes.barterRequestId, id), eq(handOverCodes.memberId, ann.id)));
    expect(mine?.failed).toBe(0);
  });

  it(`${HAND_OVER_CODE_MAX_WRONG} wrong codes lock that member's code entry on the hand-over for a while`, async () => {
    const { id } = await accepted();
    const annsCode = (await codeOf(ann, id)).code;
    const bensCode = (await codeOf(ben, id)).code;
    const wrongCode = [...HAND_OVER_CODE_ALPHABET].find((c) => !annsCode.includes(c))?.repeat(6) as string;
    for (let left = HAND_OVER_CODE_MAX_WRONG - 1; left >= 1; left--) {
      const refusal = kit.refused(await enter(ben, id, wrongCode), 400, HAND_OVER_CODE_ERROR_CODES.wrong);
      expect(refusal.message).toMatch(new RegExp(`${left} tr(y|ies) left`));
      expect(refusal).toMatchObject({ reason: String(left) });
    }
    const locking = await enter(ben, id, wrongCode);
    kit.refused(locking, 429, HAND_OVER_CODE_ERROR_CODES.locked);
    expect(Number(locking.headers['retry-after'])).toBe(HAND_OVER_CODE_LOCK_MINUTES * 60);
    expect(locking.json().message).toMatch(/Too many wrong codes for this hand-over\. .* 15 minutes/);
    // Locked: even the right code is refused now.
    const locked = await enter(ben, id, annsCode);
    kit.refused(locked, 429, HAND_OVER_CODE_ERROR_CODES.locked);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(kit.ok(await kit.get(ann, id)).status).toBe('accepted');
    // Once the lock has passed, Ben enters codes again (five fresh tries), and the right one works.
    await kit
      .db()
      .update(handOverCodes)
      .set({ entryLockedUntil: new Date(Date.now() - 1000) })
      .where(and(eq(handOverCodes.barterRequestId, id), eq(handOverCodes.memberId, ben.id)));
    kit.refused(await enter(ben, id, wrongCode), 400, HAND_OVER_CODE_ERROR_CODES.wrong);
    expect(kit.ok(await enter(ben, id, annsCode)).status).toBe('completed');
    expect(bensCode).not.toBe(annsCode);
  });

  it('the lock is the guesser’s: the other member can still enter the code they were shown', async () => {
    const { id } = await accepted();
    const bensCode = (await codeOf(ben, id)).code;
    const annsCode = (await codeOf(ann, id)).code;
    const wrongCode = [...HAND_OVER_CODE_ALPHABET].find((c) => !annsCode.includes(c))?.repeat(6) as string;
    for (let i = 0; i < HAND_OVER_CODE_MAX_WRONG; i++) await enter(ben, id, wrongCode);
    kit.refused(await enter(ben, id, annsCode), 429, HAND_OVER_CODE_ERROR_CODES.locked);
    expect(kit.ok(await enter(ann, id, bensCode)).status).toBe('completed');
  });

  it('hostile or malformed input gets a clear 400 and is not counted', async () => {
    const { id } = await accepted();
    await codeOf(ben, id);
    const hostile: unknown[] = [
      'AB\u0000CDE',
      'ABC\u001bDEF',
      'ABC\u202eDEF',
      'A'.repeat(10_000),
      '12345',
      'ABCDEF1',
      'OOOOOO',
      '',
      '   ',
      42,
      null,
      ['ABCDEF'],
    ];
    for (const code of hostile) {
      const response = await enter(ann, id, code);
      expect(response.statusCode, JSON.stringify(code)).toBe(400);
      expect(response.json().code).toBe(ERROR_CODES.validation);
    }
    const extra = await kit.call(ann, 'POST', `/api/barter-requests/${id}/hand-over-code`, {
      code: 'ABCDEF',
      admin: true,
    });
    expect(extra.statusCode).toBe(400);
    for (const bad of ['/api/barter-requests/0/hand-over-code', '/api/barter-requests/abc/hand-over-code']) {
      const response = await kit.call(ann, 'POST', bad, { code: 'ABCDEF' });
      expect(response.statusCode).toBe(400);
    }
    kit.refused(await enter(ann, 2_000_000_000, 'ABCDEF'), 404, 'NOT_FOUND');
    const rows = await kit
      .db()
      .select({ failed: handOverCodes.failedEntries })
      .from(handOverCodes)
      .where(eq(handOverCodes.barterRequestId, id));
    expect(rows.every((row) => row.failed === 0)).toBe(true);
  });

  it('both members entering each other’s codes at once: one completion, one 409, effects once', async () => {
    for (let round = 0; round < 5; round++) {
      const { id, itemIds } = await accepted();
      const annsCode = (await codeOf(ann, id)).code;
      const bensCode = (await codeOf(ben, id)).code;
      const responses = await Promise.all([enter(ben, id, annsCode), enter(ann, id, bensCode)]);
      expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const loser = responses.find((r) => r.statusCode === 409);
      expect(loser?.json().code).toBe(BARTER_ERROR_CODES.transition);
      const notices = await completedNotices(id);
      expect(notices.map((row) => row.userId).sort()).toEqual([ann.id, ben.id].sort());
      const held = await kit
        .db()
        .select({ active: items.isActive })
        .from(items)
        .where(inArray(items.id, itemIds));
      expect(held.every((row) => !row.active)).toBe(true);
      const used = await kit
        .db()
        .select({ usedAt: handOverCodes.usedAt })
        .from(handOverCodes)
        .where(eq(handOverCodes.barterRequestId, id));
      expect(used.filter((row) => row.usedAt !== null)).toHaveLength(1);
    }
  });

  it('a trade circle’s hand-over completes by code; the circle completes with its last one', async () => {
    const drill = await kit.item(ann);
    const tent = await kit.item(ben);
    const guitar = await kit.item(cat);
    const now = new Date();
    const [circle] = await kit
      .db()
      .insert(circles)
      .values({ status: 'accepted', size: 3, expiresAt: now, acceptedAt: now })
      .returning();
    const circleId = circle?.id as number;
    const written = await kit.db().transaction((tx) =>
      createHandOvers(
        tx,
        circleId,
        [
          { giverId: ann.id, receiverId: ben.id, itemId: drill.id },
          { giverId: ben.id, receiverId: cat.id, itemId: tent.id },
          { giverId: cat.id, receiverId: ann.id, itemId: guitar.id },
        ],
        { sharedThread: false, now },
      ),
    );
    const [annToBen, benToCat, catToAnn] = written.barterIds as [number, number, number];
    const circleStatus = async () =>
      (await kit.db().select({ status: circles.status }).from(circles).where(eq(circles.id, circleId)))[0]
        ?.status;
    // Each leg has its own pair of codes; Ann's code on her leg to Ben is not her code on Cat's.
    const annToBenCode = (await codeOf(ann, annToBen)).code;
    kit.refused(await enter(cat, catToAnn, annToBenCode), 400, HAND_OVER_CODE_ERROR_CODES.wrong);
    expect(kit.ok(await enter(ben, annToBen, annToBenCode)).status).toBe('completed');
    expect(await circleStatus()).toBe('accepted');
    expect(kit.ok(await enter(cat, benToCat, (await codeOf(ben, benToCat)).code)).status).toBe('completed');
    expect(kit.ok(await enter(ann, catToAnn, (await codeOf(cat, catToAnn)).code)).status).toBe('completed');
    expect(await circleStatus()).toBe('completed');
  });
});
