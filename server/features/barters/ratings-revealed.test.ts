import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Barter } from '#common/schemas/barters.ts';
import type { MemberProfile, MemberRating } from '#common/schemas/members.ts';
import type { TradeStats } from '#common/schemas/trades.ts';
import { RATING_REVEAL_DAYS, RATING_REVEAL_MS } from '#common/trader-reputation.ts';
import { ratings } from '../../db/schema/trading';
import { sessionCookiesFor } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { barterKit, type Member } from './barter-test-kit';

// Issue 30, ADR 074: ratings are revealed together. A rating is hidden from the member rated and
// from everyone until both sides of the barter have rated, or RATING_REVEAL_DAYS after the first.

let t: TestApp;
let kit: ReturnType<typeof barterKit>;

beforeAll(async () => {
  t = await buildTestApp({ BARTER_PROPOSAL_RATE_LIMIT: '100000', MESSAGE_RATE_LIMIT: '100000' });
  kit = barterKit(t);
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

/** A barter between two new members, completed by both. */
async function completedBarter(): Promise<{ ann: Member; ben: Member; id: number }> {
  const ann = await kit.member('Ann');
  const ben = await kit.member('Ben');
  const { barter } = await kit.pending(ann, ben);
  kit.ok(await kit.act(ben, barter.id, 'accept'));
  kit.ok(await kit.act(ann, barter.id, 'confirm'));
  expect(kit.ok(await kit.act(ben, barter.id, 'confirm')).status).toBe('completed');
  return { ann, ben, id: barter.id };
}

const stats = async (viewer: Member, of: Member) =>
  kit.ok<TradeStats>(await kit.call(viewer, 'GET', `/api/users/${of.id}/trade-stats`));
const received = async (viewer: Member, of: Member) =>
  kit.ok<MemberRating[]>(await kit.call(viewer, 'GET', `/api/members/${of.id}/ratings`));
const profile = async (viewer: Member, of: Member) =>
  kit.ok<MemberProfile>(await kit.call(viewer, 'GET', `/api/members/${of.id}`));

/** Sign in again at the moved clock (a session ends after 14 idle days). */
async function signInAgain(...members: Member[]) {
  for (const member of members) member.cookies = await sessionCookiesFor(t.app, member.user);
}

describe('ratings revealed together', () => {
  it('hides the first rating from the member rated and everyone, and shows both once the other rates', async () => {
    const { ann, ben, id } = await completedBarter();
    const cat = await kit.member('Cat');
    const before = Date.now();
    const rated = kit.ok<Barter>(await kit.act(ann, id, 'rating', { stars: 2, comment: 'Came late' }));

    // Ann sees her own rating at once, and until when Ben does not.
    expect(rated).toMatchObject({
      myRating: { stars: 2, comment: 'Came late' },
      theirRating: null,
      theirRatingHiddenUntil: null,
    });
    const until = Date.parse(rated.myRatingHiddenUntil ?? '');
    expect(until).toBeGreaterThanOrEqual(before + RATING_REVEAL_MS);
    expect(until).toBeLessThanOrEqual(Date.now() + RATING_REVEAL_MS);

    // Ben is told he was rated, but not how: the page says until when it stays hidden.
    expect(await kit.notificationKinds(ben.id, id)).toContain('rating_received');
    const benView = kit.ok<Barter>(await kit.get(ben, id));
    expect(benView).toMatchObject({
      myRating: null,
      theirRating: null,
      myRatingHiddenUntil: null,
      theirRatingHiddenUntil: rated.myRatingHiddenUntil,
      allowedActions: ['rate', 'message'],
    });
    expect(JSON.stringify(benView)).not.toContain('Came late');
    // Nor anyone else: Ben's page, his ratings and his average.
    for (const viewer of [ben, cat, ann]) {
      expect(await received(viewer, ben)).toEqual([]);
      expect(await stats(viewer, ben)).toMatchObject({ totalTrades: 1, rating: null });
    }

    // Ben rates: both appear at once, to both and to everyone.
    const answered = kit.ok<Barter>(await kit.act(ben, id, 'rating', { stars: 5, comment: 'Lovely' }));
    expect(answered).toMatchObject({
      myRating: { stars: 5, comment: 'Lovely' },
      theirRating: { stars: 2, comment: 'Came late' },
      myRatingHiddenUntil: null,
      theirRatingHiddenUntil: null,
    });
    expect(kit.ok<Barter>(await kit.get(ann, id))).toMatchObject({
      myRating: { stars: 2, comment: 'Came late' },
      theirRating: { stars: 5, comment: 'Lovely' },
      myRatingHiddenUntil: null,
      theirRatingHiddenUntil: null,
    });
    expect((await received(cat, ben)).map((r) => [r.stars, r.comment])).toEqual([[2, 'Came late']]);
    expect((await received(cat, ann)).map((r) => [r.stars, r.comment])).toEqual([[5, 'Lovely']]);
    expect(await stats(cat, ben)).toMatchObject({ rating: 2 });
    expect(await stats(cat, ann)).toMatchObject({ rating: 5 });
    const stored = await kit.db().select().from(ratings).where(eq(ratings.barterRequestId, id));
    expect(new Set(stored.map((r) => r.revealedAt.getTime())).size).toBe(1);
  });

  it(`reveals a lone rating ${RATING_REVEAL_DAYS} days after it was made, by the moved clock`, async () => {
    const { ann, ben, id } = await completedBarter();
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start);
    const rated = kit.ok<Barter>(await kit.act(ann, id, 'rating', { stars: 5, comment: 'Smooth' }));
    expect(rated.myRatingHiddenUntil).toBe(new Date(start + RATING_REVEAL_MS).toISOString());

    // A minute before the day: still hidden from Ben, his page and his record.
    vi.setSystemTime(start + RATING_REVEAL_MS - 60_000);
    await signInAgain(ann, ben);
    expect(kit.ok<Barter>(await kit.get(ben, id))).toMatchObject({
      theirRating: null,
      theirRatingHiddenUntil: rated.myRatingHiddenUntil,
    });
    expect(await received(ann, ben)).toEqual([]);
    expect(await stats(ann, ben)).toMatchObject({ rating: null });

    // The day comes: shown to Ben and everyone, though he never rated.
    vi.setSystemTime(start + RATING_REVEAL_MS);
    expect(kit.ok<Barter>(await kit.get(ben, id))).toMatchObject({
      theirRating: { stars: 5, comment: 'Smooth' },
      theirRatingHiddenUntil: null,
    });
    expect(kit.ok<Barter>(await kit.get(ann, id))).toMatchObject({ myRatingHiddenUntil: null });
    expect((await received(ann, ben)).map((r) => r.stars)).toEqual([5]);
    expect(await stats(ann, ben)).toMatchObject({ rating: 5 });

    // Ben may still rate later; his rating shows at once (Ann's is out already).
    vi.setSystemTime(start + RATING_REVEAL_MS + 5 * 24 * 60 * 60 * 1000);
    await signInAgain(ann, ben);
    const late = kit.ok<Barter>(await kit.act(ben, id, 'rating', { stars: 4 }));
    expect(late).toMatchObject({ myRating: { stars: 4 }, myRatingHiddenUntil: null });
    expect((await received(ben, ann)).map((r) => r.stars)).toEqual([4]);
    const stored = await kit.db().select().from(ratings).where(eq(ratings.barterRequestId, id));
    const byRater = new Map(stored.map((r) => [r.raterId, r.revealedAt.getTime()]));
    // Ann's kept the day it came out; Ben's came out when made.
    expect(byRater.get(ann.id)).toBe(start + RATING_REVEAL_MS);
    expect(byRater.get(ben.id)).toBe(start + RATING_REVEAL_MS + 5 * 24 * 60 * 60 * 1000);
  });

  it('two ratings at once are both revealed (the request is locked, the second sees the first)', async () => {
    const { ann, ben, id } = await completedBarter();
    const [a, b] = await Promise.all([
      kit.act(ann, id, 'rating', { stars: 4 }),
      kit.act(ben, id, 'rating', { stars: 3 }),
    ]);
    kit.ok(a);
    kit.ok(b);
    for (const [viewer, theirs] of [
      [ann, 3],
      [ben, 4],
    ] as const) {
      expect(kit.ok<Barter>(await kit.get(viewer, id))).toMatchObject({
        theirRating: { stars: theirs },
        myRatingHiddenUntil: null,
        theirRatingHiddenUntil: null,
      });
    }
  });

  it('a rating revealed at this very millisecond is shown: one clock writes and reads the moment', async () => {
    // The clock stands still, so the second rating and every read happen in one millisecond. A
    // moment from the database's own clock (microseconds) would lie after the server's reading
    // of the same instant and hide the ratings (CI on PostgreSQL, 2026-11-28).
    const { ann, ben, id } = await completedBarter();
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(Date.now() + 1000) });
    kit.ok(await kit.act(ann, id, 'rating', { stars: 4 }));
    kit.ok(await kit.act(ben, id, 'rating', { stars: 2 }));
    expect((await received(ann, ben)).map((r) => r.stars)).toEqual([4]);
    expect((await received(ben, ann)).map((r) => r.stars)).toEqual([2]);
    expect((await stats(ann, ben)).rating).toBe(4);
    const defaults = await kit
      .db()
      .execute(
        sql`SELECT column_default FROM information_schema.columns WHERE table_name = 'ratings' AND column_name = 'revealed_at'`,
      );
    expect((defaults as unknown as { rows: unknown[] }).rows).toEqual([{ column_default: null }]);
  });

  it('ratings made before the rule stay shown since they were made (migration 0029)', async () => {
    const { ann, ben, id } = await completedBarter();
    const made = new Date('2026-01-02T03:04:05.000Z');
    // As the column's default left them, say: revealed far ahead, which the migration puts right.
    await kit
      .db()
      .insert(ratings)
      .values({
        barterRequestId: id,
        raterId: ann.id,
        rateeId: ben.id,
        stars: 3,
        createdAt: made,
        revealedAt: new Date(Date.now() + RATING_REVEAL_MS),
      });
    expect(await received(ann, ben)).toEqual([]);
    const migration = readFileSync(
      fileURLToPath(new URL('../../../drizzle/0029_ratings-revealed-together.sql', import.meta.url)),
      'utf8',
    );
    const update = migration
      .split('--> statement-breakpoint')
      .map((statement) => statement.trim())
      .find((statement) => statement.includes('UPDATE'));
    expect(update).toContain('SET "revealed_at" = "created_at"');
    await kit.db().execute(sql.raw(update ?? ''));
    const [stored] = await kit.db().select().from(ratings).where(eq(ratings.barterRequestId, id));
    expect(stored?.revealedAt.toISOString()).toBe(made.toISOString());
    expect((await received(ann, ben)).map((r) => r.stars)).toEqual([3]);
  });

  it('the Trusted Trader badge waits for revealed ratings', async () => {
    // Three partners each rate Ann 5 stars, and she has not rated them back yet.
    const ann = await kit.member('Ann');
    const partners: Member[] = [];
    for (let i = 0; i < 3; i++) {
      const partner = await kit.member(`Partner${i}`);
      const { barter } = await kit.pending(ann, partner);
      kit.ok(await kit.act(partner, barter.id, 'accept'));
      kit.ok(await kit.act(ann, barter.id, 'confirm'));
      kit.ok(await kit.act(partner, barter.id, 'confirm'));
      kit.ok(await kit.act(partner, barter.id, 'rating', { stars: 5 }));
      partners.push(partner);
    }
    const viewer = partners[0] as Member;
    expect(await profile(viewer, ann)).toMatchObject({
      stats: { totalTrades: 3, tradingPartners: 3, rating: null },
      trustedTrader: false,
    });
    // Ann rates them back: the ratings come out, and with them the badge.
    const barters = kit.ok<Barter[]>(await kit.call(ann, 'GET', '/api/barter-requests?box=past'));
    for (const barter of barters) kit.ok(await kit.act(ann, barter.id, 'rating', { stars: 5 }));
    expect(await profile(viewer, ann)).toMatchObject({
      stats: { totalTrades: 3, tradingPartners: 3, rating: 5 },
      trustedTrader: true,
    });
  });
});
