import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedItem } from '#common/schemas/feed.ts';
import type { Item } from '#common/schemas/listings.ts';
import { queryRows } from '../../db/rows';
import { items, notifications } from '../../db/schema/trading';
import { users } from '../../db/schema/users';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { startTestSmtp } from '../../test/smtp';
import { barterKit, type Member } from '../barters/barter-test-kit';
import { sendMailDigests } from '../notifications';
import { sweepStaleListings } from './stale-listings';

// Stale listings (issue 31, ADR 088): a listing confirmed more than STALE_LISTING_DAYS ago asks its
// owner "Still available?" once; STALE_LISTING_GRACE_DAYS later with no answer it leaves the feeds
// and the owner is told; "Yes, still available" and "Renew" answer with one click. The sweep takes
// its clock as an argument: each test sets its own listings' confirmation times against `now` and
// sweeps at the times it means (other tests' listings may be asked too; each test reads its own).

let t: TestApp;
let kit: ReturnType<typeof barterKit>;
let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
let ann: Member;
let ben: Member;

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const SETTINGS = { days: 30, graceDays: 7 };

beforeAll(async () => {
  smtp = await startTestSmtp();
  t = await buildTestApp({
    BARTER_PROPOSAL_RATE_LIMIT: '100000',
    SMTP_URL: smtp.url,
    PUBLIC_URL: 'http://barter.example',
  });
  kit = barterKit(t);
  ann = await kit.member('Ann');
  ben = await kit.member('Ben');
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const sweep = (at: number) => sweepStaleListings(t.app.db, SETTINGS, new Date(at));

/** A listing of `owner` last confirmed `daysAgo` days before `now`. */
async function listing(owner: Member, now: number, daysAgo: number, title = 'Cordless drill') {
  const row = await kit.item(owner, { title });
  await t.app.db
    .update(items)
    .set({ confirmedAt: new Date(now - daysAgo * DAY) })
    .where(eq(items.id, row.id));
  return row;
}

/** The item's stale state as stored. */
async function stored(id: number) {
  const [row] = await t.app.db
    .select({
      isActive: items.isActive,
      askedAt: items.staleAskedAt,
      pausedAt: items.stalePausedAt,
      confirmedAt: items.confirmedAt,
    })
    .from(items)
    .where(eq(items.id, id));
  if (!row) throw new Error(`no item ${id}`);
  return row;
}

/** The bell entries about item `id`, as [kind, title]. */
async function entries(id: number) {
  const rows = await t.app.db
    .select({ kind: notifications.kind, title: notifications.itemTitle, userId: notifications.userId })
    .from(notifications)
    .where(eq(notifications.itemId, id))
    .orderBy(notifications.id);
  return rows.map((row) => [row.kind, row.title, row.userId]);
}

/** The owner's item as My Items shows it. */
async function mine(owner: Member, id: number): Promise<Item> {
  const list = kit.ok<Item[]>(await kit.call(owner, 'GET', '/api/items/my?limit=100'));
  const item = list.find((row) => row.id === id);
  if (!item) throw new Error(`item ${id} not in My Items`);
  return item;
}

/** The ids Ben's Everything feed finds for `q` (each test's titles have their own words). */
const feedIds = async (who: Member, q: string) =>
  kit
    .ok<FeedItem[]>(
      await kit.call(who, 'GET', `/api/feed/everything?q=${encodeURIComponent(q)}&radius=50&limit=50`),
    )
    .map((item) => item.id);

const renew = (who: Member | null, id: number | string) => kit.call(who, 'POST', `/api/items/${id}/renew`);

describe('the stale-listings job', () => {
  it('asks nothing before 30 days, then asks the owner once, live, with the title', async () => {
    const now = Date.now();
    const young = await listing(ann, now, 29, 'Young drill');
    const old = await listing(ann, now, 30, 'Old ladder');
    await sweep(now - MINUTE);
    expect((await stored(old.id)).askedAt).toBeNull();
    await sweep(now);
    expect((await stored(young.id)).askedAt).toBeNull();
    expect((await stored(old.id)).askedAt?.getTime()).toBe(now);
    await sweep(now + MINUTE);
    await sweep(now + DAY - 2 * MINUTE);
    expect(await entries(old.id)).toEqual([['listing_still_available', 'Old ladder', ann.id]]);
    expect(await entries(young.id)).toEqual([]);
    // Live: Ann's open pages hear the entry.
    const events = await queryRows<{ data: { notification: { kind: string; item?: unknown } } }>(
      t.app.db,
      sql`SELECT data FROM member_events WHERE user_id = ${ann.id}::uuid AND type = 'notification'
          AND (data->'notification'->'item'->>'id')::int = ${old.id}::int`,
    );
    expect(events.map((event) => event.data.notification)).toMatchObject([
      { kind: 'listing_still_available', item: { id: old.id, title: 'Old ladder' } },
    ]);
    // The bell lists it with the item; My Items says it was asked.
    const bell = kit.ok<{ kind: string; item?: unknown }[]>(
      await kit.call(ann, 'GET', '/api/notifications?limit=100'),
    );
    expect(bell.find((entry) => entry.kind === 'listing_still_available')).toMatchObject({
      item: { id: old.id, title: 'Old ladder' },
    });
    expect((await mine(ann, old.id)).stale).toEqual({ askedAt: new Date(now).toISOString(), pausedAt: null });
    expect((await mine(ann, young.id)).stale).toBeNull();
    // Still in the feeds while the question is open.
    expect(await feedIds(ben, 'ladder')).toContain(old.id);
  });

  it('takes an unanswered listing out of the feeds 7 days after asking, tells the owner, and Renew puts it back', async () => {
    const now = Date.now();
    const old = await listing(ann, now, 31, 'Camping tent');
    await sweep(now);
    await sweep(now + 7 * DAY - MINUTE);
    expect((await stored(old.id)).isActive).toBe(true);
    expect(await feedIds(ben, 'tent')).toContain(old.id);
    await sweep(now + 7 * DAY);
    const paused = await stored(old.id);
    expect(paused).toMatchObject({
      isActive: false,
      askedAt: new Date(now),
      pausedAt: new Date(now + 7 * DAY),
    });
    expect(await entries(old.id)).toEqual([
      ['listing_still_available', 'Camping tent', ann.id],
      ['listing_paused_stale', 'Camping tent', ann.id],
    ]);
    // Out of the feeds and search. (The match graph hears of it through its trigger on is_active;
    // its change log is not counted here: on a database the suites share, another test app's drain
    // may take the change first.)
    expect(await feedIds(ben, 'tent')).not.toContain(old.id);
    expect(await feedIds(ben, 'camping')).not.toContain(old.id);
    const shown = await mine(ann, old.id);
    expect(shown).toMatchObject({
      isActive: false,
      stale: { askedAt: new Date(now).toISOString(), pausedAt: new Date(now + 7 * DAY).toISOString() },
    });
    // Never paused or asked twice.
    await sweep(now + 30 * DAY);
    expect(await entries(old.id)).toHaveLength(2);

    // Renew: listed again, the clock starts now, the entries go.
    const renewed = kit.ok<Item>(await renew(ann, old.id));
    expect(renewed).toMatchObject({ isActive: true, stale: null });
    const after = await stored(old.id);
    expect(after).toMatchObject({ isActive: true, askedAt: null, pausedAt: null });
    expect(Math.abs(after.confirmedAt.getTime() - Date.now())).toBeLessThan(60 * MINUTE);
    expect(await entries(old.id)).toEqual([]);
    expect(await feedIds(ben, 'tent')).toContain(old.id);
    expect(await feedIds(ben, 'camping')).toContain(old.id);
    await sweep(Date.now() + 29 * DAY);
    expect((await stored(old.id)).askedAt).toBeNull();
  });

  it('"Yes, still available" answers an open question: the clock starts again, the listing stays', async () => {
    const now = Date.now();
    const old = await listing(ann, now, 40, 'Bread maker');
    await sweep(now);
    const yes = kit.ok<Item>(await renew(ann, old.id));
    expect(yes).toMatchObject({ isActive: true, stale: null });
    expect(await entries(old.id)).toEqual([]);
    await sweep(now + 8 * DAY);
    expect(await stored(old.id)).toMatchObject({ isActive: true, askedAt: null, pausedAt: null });
    expect(await feedIds(ben, 'bread')).toContain(old.id);
  });

  it('an edit confirms the listing; "No, it\'s gone" hides it and answers', async () => {
    const now = Date.now();
    const edited = await listing(ann, now, 35, 'Old bike');
    const gone = await listing(ann, now, 35, 'Old sofa');
    await sweep(now);
    kit.ok<Item>(await kit.call(ann, 'PATCH', `/api/items/${edited.id}`, { title: 'Old bike, new tyres' }));
    expect(await stored(edited.id)).toMatchObject({ isActive: true, askedAt: null });
    expect(await entries(edited.id)).toEqual([]);
    const hidden = kit.ok<Item>(await kit.call(ann, 'PATCH', `/api/items/${gone.id}`, { isActive: false }));
    expect(hidden).toMatchObject({ isActive: false, stale: null });
    await sweep(now + 8 * DAY);
    expect(await stored(gone.id)).toMatchObject({ isActive: false, askedAt: null, pausedAt: null });
    expect(await entries(gone.id)).toEqual([]);
    // Show on a paused listing renews it too.
    const paused = await listing(ann, now, 50, 'Old lamp');
    await sweep(now);
    await sweep(now + 8 * DAY);
    expect((await stored(paused.id)).isActive).toBe(false);
    kit.ok<Item>(await kit.call(ann, 'PATCH', `/api/items/${paused.id}`, { isActive: true }));
    expect(await stored(paused.id)).toMatchObject({ isActive: true, askedAt: null, pausedAt: null });
  });

  it('never asks about a reserved, traded, hidden or moderated listing', async () => {
    const now = Date.now();
    const { barter, requested } = await kit.pending(ben, ann);
    kit.ok(await kit.act(ann, barter.id, 'accept'));
    const traded = await listing(ann, now, 60, 'Traded kettle');
    const hidden = await listing(ann, now, 60, 'Hidden chair');
    const held = await listing(ann, now, 60, 'Held photo');
    await t.app.db
      .update(items)
      .set({ confirmedAt: new Date(now - 60 * DAY) })
      .where(eq(items.id, requested.id));
    await t.app.db
      .update(items)
      .set({ tradedAt: new Date(), isActive: false })
      .where(eq(items.id, traded.id));
    await t.app.db.update(items).set({ isActive: false }).where(eq(items.id, hidden.id));
    await t.app.db.update(items).set({ isActive: false, moderation: 'held' }).where(eq(items.id, held.id));
    await sweep(now);
    await sweep(now + 8 * DAY);
    for (const id of [requested.id, traded.id, hidden.id, held.id]) {
      expect((await stored(id)).askedAt, `item ${id}`).toBeNull();
      expect(await entries(id)).toEqual([]);
    }
    expect((await stored(requested.id)).isActive).toBe(true);
  });

  it('puts the question in the e-mail digest of an away member, with a link to My Items', async () => {
    const cleo = await kit.member('Cleo');
    await t.app.db
      .update(users)
      .set({
        email: 'cleo-stale@example.com',
        emailVerifiedAt: new Date(),
        lastSeenAt: null,
        mailedUntil: null,
        locale: 'en',
      })
      .where(eq(users.id, cleo.id));
    const now = Date.now();
    await listing(cleo, now, 31, 'Garden hose');
    await sweep(now);
    await sendMailDigests(t.app);
    const mail = await smtp.waitFor('cleo-stale@example.com');
    expect(mail.text).toContain('Still available? Garden hose: http://barter.example/profile?tab=items');
  });
});

describe('renewing (hostile input and races)', () => {
  it("answers 400 for bad ids, 401 signed out, 404 for a missing or someone else's item, 409 traded", async () => {
    const own = await kit.item(ann);
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999', '%00', '1%0A', '%2e%2e', 'x'.repeat(300)]) {
      const status = (await renew(ann, bad)).statusCode;
      expect(status >= 400 && status < 500, `${bad}: ${status}`).toBe(true);
    }
    expect((await renew(ann, 'abc')).statusCode).toBe(400);
    expect((await renew(null, own.id)).statusCode).toBe(401);
    kit.refused(await renew(ben, own.id), 404, 'NOT_FOUND');
    kit.refused(await renew(ann, 2_000_000_000), 404, 'NOT_FOUND');
    await t.app.db.update(items).set({ tradedAt: new Date(), isActive: false }).where(eq(items.id, own.id));
    kit.refused(await renew(ann, own.id), 409, 'ITEM_TRADED');
    // A body is ignored, never a 500.
    const other = await kit.item(ann);
    const withBody = await kit.call(ann, 'POST', `/api/items/${other.id}/renew`, {
      isActive: false,
      evil: '\u0000',
    });
    expect(withBody.statusCode).toBeLessThan(500);
  });

  it('two renewals at once both answer 200 and leave it listed', async () => {
    const now = Date.now();
    for (let round = 0; round < 3; round++) {
      const old = await listing(ann, now, 45, `Race ${round}`);
      await sweep(now);
      await sweep(now + 8 * DAY);
      expect((await stored(old.id)).isActive).toBe(false);
      const answers = await Promise.all([renew(ann, old.id), renew(ann, old.id)]);
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
      expect(await stored(old.id)).toMatchObject({ isActive: true, askedAt: null, pausedAt: null });
      expect(await entries(old.id)).toEqual([]);
    }
  });

  it('a renewal racing the sweep that would take it out leaves it listed, whichever comes first', async () => {
    const now = Date.now();
    for (let round = 0; round < 4; round++) {
      const old = await listing(ann, now, 45, `Sweep race ${round}`);
      await sweep(now);
      const [answer] = await Promise.all([renew(ann, old.id), sweep(now + 8 * DAY)]);
      expect(answer.statusCode, answer.body).toBe(200);
      expect(await stored(old.id)).toMatchObject({ isActive: true, askedAt: null, pausedAt: null });
      expect(await entries(old.id)).toEqual([]);
    }
    // Two sweeps at once ask each listing once.
    const many = await Promise.all([0, 1, 2, 3, 4].map((n) => listing(ben, now, 31, `Twin sweep ${n}`)));
    await Promise.all([sweep(now), sweep(now)]);
    const asked = await t.app.db
      .select({ id: notifications.itemId })
      .from(notifications)
      .where(
        and(
          inArray(
            notifications.itemId,
            many.map((row) => row.id),
          ),
          eq(notifications.kind, 'listing_still_available'),
        ),
      );
    expect(asked).toHaveLength(5);
  });
});
