import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Barter } from '#common/schemas/barters.ts';
import type { FeedItem } from '#common/schemas/feed.ts';
import { type NewUserRow, users } from '../../db/schema/users';
import { createItem, createUser, sessionCookiesFor } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { startTestSmtp } from '../../test/smtp';
import { markSeen, sendMailDigests } from '../notifications';

/** Central Portland, Oregon, and central London: far more than 100 miles apart. */
const PORTLAND = { latitude: 45.5152, longitude: -122.6784 };
const LONDON = { latitude: 51.5072, longitude: -0.1276 };

/** How a card shows its owner (web/features/feed/format.ts: first name and what of the last name shows). */
const cardName = (item: FeedItem) => [item.user.firstName, item.user.lastName].filter(Boolean).join(' ');

/** Members near each other with the same first name and last initial are told apart (issue 28, ADR 058). */
describe('names told apart', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await buildTestApp({ SMTP_URL: smtp.url, PUBLIC_URL: 'http://barter.example' });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const db = () => t.app.db;
  let serial = 0;
  /** A member with a verified address, `km` east of `place` (about). */
  async function member(firstName: string, lastName: string | null, place: typeof PORTLAND | null, km = 0) {
    serial++;
    const values: Partial<NewUserRow> = {
      firstName,
      lastName,
      email: `shown${serial}@example.com`,
      emailVerifiedAt: new Date(),
      ...(place ? { latitude: place.latitude, longitude: place.longitude + km / 78 } : {}),
    };
    const user = await createUser(db(), values);
    return { user, id: user.id, cookies: await sessionCookiesFor(t.app, user) };
  }
  type Member = Awaited<ReturnType<typeof member>>;
  const shown = async (who: Member) => {
    const [row] = await db().select({ name: users.displayName }).from(users).where(eq(users.id, who.id));
    return row?.name;
  };
  const get = async <T>(who: Member, url: string): Promise<T> => {
    const response = await t.app.inject({ method: 'GET', url, cookies: who.cookies });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  };
  const feed = (who: Member) => get<FeedItem[]>(who, '/api/feed/everything?radius=50&limit=50');

  // Each test uses its own first name, so the members of one test are the only namesakes.
  it('a newcomer near a namesake gets the longer form on cards, in a barter and in the digest', async () => {
    const okafor = await member('Maya', 'Okafor', PORTLAND);
    const olsen = await member('Maya', 'Olsen', PORTLAND, 2);
    expect(await shown(okafor)).toBe('Maya O.');
    expect(await shown(olsen)).toBe('Maya Ol.');

    const drill = await createItem(db(), { userId: okafor.id, title: 'Cordless drill', category: 'tools' });
    const ladder = await createItem(db(), { userId: olsen.id, title: 'Step ladder', category: 'tools' });
    // Cards, both ways.
    const olsenSees = (await feed(olsen)).find((item) => item.id === drill.id);
    expect(olsenSees && cardName(olsenSees)).toBe('Maya O.');
    const okaforSees = (await feed(okafor)).find((item) => item.id === ladder.id);
    expect(okaforSees && cardName(okaforSees)).toBe('Maya Ol.');
    // The item dialog.
    const detail = await get<FeedItem>(okafor, `/api/items/${ladder.id}`);
    expect(cardName(detail)).toBe('Maya Ol.');

    // A barter, seen by each.
    await markSeen(db(), [okafor.id]);
    const proposed = await t.app.inject({
      method: 'POST',
      url: '/api/barter-requests',
      cookies: olsen.cookies,
      payload: { offeredItemIds: [ladder.id], requestedItemIds: [drill.id] },
    });
    expect(proposed.statusCode, proposed.body).toBe(201);
    const barter = proposed.json<Barter>();
    expect((await get<Barter>(okafor, `/api/barter-requests/${barter.id}`)).otherMember.displayName).toBe(
      'Maya Ol.',
    );
    expect((await get<Barter>(olsen, `/api/barter-requests/${barter.id}`)).otherMember.displayName).toBe(
      'Maya O.',
    );

    // The digest Okafor gets once she has been away.
    const back = sql`make_interval(mins => 11)`;
    await db().execute(
      sql`UPDATE users SET last_seen_at = last_seen_at - ${back} WHERE id = ${okafor.id}::uuid`,
    );
    await db().execute(
      sql`UPDATE notifications SET created_at = created_at - ${back} WHERE user_id = ${okafor.id}::uuid`,
    );
    expect(await sendMailDigests(t.app)).toBeGreaterThanOrEqual(1);
    const mail = await smtp.waitFor(okafor.user.email ?? '');
    expect(mail.text).toContain('Maya Ol.');
    expect(mail.text).not.toMatch(/Maya O\.(?! \()/);
  });

  it('far apart, both may read "Nia O."; a member without an area is named when she sets one', async () => {
    const here = await member('Nia', 'Okafor', PORTLAND);
    const there = await member('Nia', 'Olsen', LONDON);
    expect(await shown(here)).toBe('Nia O.');
    expect(await shown(there)).toBe('Nia O.');
    // No area yet: near nobody, so she claims nothing for anyone else.
    const nowhere = await member('Nia', 'Obi', null);
    expect(await shown(nowhere)).toBe('Nia O.');
    // She sets her area in Portland, where a Nia O. lives: she is the newcomer there.
    await db()
      .update(users)
      .set({ latitude: PORTLAND.latitude, longitude: PORTLAND.longitude + 0.02 })
      .where(eq(users.id, nowhere.id));
    expect(await shown(nowhere)).toBe('Nia Ob.');
    expect(await shown(here)).toBe('Nia O.');
    // A newcomer with no area yet takes the short form; in London she would be the second Nia O.
    const later = await member('Nia', 'Oduya', null);
    expect(await shown(later)).toBe('Nia O.');
    await db().update(users).set(LONDON).where(eq(users.id, later.id));
    expect(await shown(later)).toBe('Nia Od.');
  });

  it('adds one letter at a time, a number for the very same name, and never changes an established name', async () => {
    const first = await member('Ada', 'Olsen', PORTLAND);
    const second = await member('Ada', 'Oliver', PORTLAND, 1);
    const third = await member('Ada', 'Olsson', PORTLAND, 3);
    const twin = await member('Ada', 'olsen', PORTLAND, 4);
    const hyphen = await member('Ada', "O'Brien", PORTLAND, 5);
    expect(await shown(first)).toBe('Ada O.');
    expect(await shown(second)).toBe('Ada Ol.');
    // "Ada Ol." is taken: one more letter.
    expect(await shown(third)).toBe('Ada Ols.');
    // The same last name: letters would not tell them apart, a number does.
    expect(await shown(twin)).toBe('Ada O. (2)');
    // The apostrophe alone tells nobody apart: the next letter comes with it.
    expect(await shown(hyphen)).toBe("Ada O'B.");
    // Nobody's name changed as others arrived, nor when one of them leaves.
    await db().delete(users).where(eq(users.id, first.id));
    expect(await shown(second)).toBe('Ada Ol.');
    // A newcomer takes the short form the departed member left.
    const later = await member('Ada', 'Orr', PORTLAND, 6);
    expect(await shown(later)).toBe('Ada O.');
    // Moving within the same cell, or saving the same name again, keeps the name.
    await db().update(users).set({ firstName: 'Ada', lastName: 'Oliver' }).where(eq(users.id, second.id));
    expect(await shown(second)).toBe('Ada Ol.');
    // A new name is settled afresh; the others keep theirs.
    await db().update(users).set({ lastName: 'Smith' }).where(eq(users.id, third.id));
    expect(await shown(third)).toBe('Ada S.');
    expect(await shown(later)).toBe('Ada O.');
    // Nobody writes the name but the database.
    await db().update(users).set({ displayName: 'Someone else' }).where(eq(users.id, second.id));
    expect(await shown(second)).toBe('Ada Ol.');
  });

  it('a member never sees a card under her own name unless it is her own item', async () => {
    const established = await member('Zoe', 'Okafor', PORTLAND);
    await createItem(db(), { userId: established.id, title: 'Bread maker', category: 'appliances' });
    const newcomer = await member('Zoe', 'Okafor', PORTLAND, 1);
    await createItem(db(), { userId: newcomer.id, title: 'Waffle iron', category: 'appliances' });
    const own = await shown(newcomer);
    expect(own).not.toBe('Zoe O.');
    const cards = await feed(newcomer);
    expect(cards.some((item) => item.user.id === established.id)).toBe(true);
    for (const card of cards) if (card.user.id !== newcomer.id) expect(cardName(card)).not.toBe(own);
  });
});
