import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SWAP_DAY_ERROR_CODES,
  SWAP_DAY_MAX_OFFERS_PER_MEMBER,
  SWAP_DAY_MAX_OPEN_ORGANISED,
  SWAP_DAY_MAX_WANTS_PER_OFFER,
  SWAP_DAY_MESSAGES,
  type SwapDay,
  type SwapDayLists,
} from '#common/schemas/swap-days.ts';
import { memberBlocks } from '../../db/schema/safety';
import { items, swapDays, swapDayWants } from '../../db/schema/trading';
import { users } from '../../db/schema/users';
import { createUser, sessionCookiesFor } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import type { Member } from '../barters/barter-test-kit';
import { hoursFromNow, swapDayKit } from './swap-day-test-kit';
import { findWants } from './swap-days-repository';

const codes = SWAP_DAY_ERROR_CODES;
const sameTime = (at: string) => ({ startsAt: at, deadline: at });

describe('swap days: organizing, joining, offering and ranking', () => {
  let t: TestApp;
  let kit: ReturnType<typeof swapDayKit>;
  let ann: Member;
  let ben: Member;
  let cat: Member;
  /** Lives 300 miles away: swap days here are none of her business. */
  let far: Member;

  beforeAll(async () => {
    t = await buildTestApp();
    kit = swapDayKit(t);
    ann = await kit.member('Ann');
    ben = await kit.member('Ben');
    cat = await kit.member('Cat');
    far = await kit.member('Faye', { latitude: 41.2, longitude: -122.68 });
  });
  afterAll(() => t.close());

  describe('organizing', () => {
    it('makes the organizer its first member, at their public point, and says what they may do', async () => {
      const organiser = await kit.member('Olga');
      const day = await kit.organise(organiser, { name: '  Elm Park swap  ' });
      expect(day).toMatchObject({
        name: 'Elm Park swap',
        place: 'Community hall, 12 Maple Street',
        status: 'open',
        isOrganiser: true,
        joined: true,
        memberCount: 1,
        distanceMiles: expect.any(Number),
        result: null,
        offers: [],
      });
      expect(day.members).toEqual([{ id: organiser.id, displayName: 'Olga T.', profileImageUrl: null }]);
      expect(day.organiser.displayName).toBe('Olga T.');
      expect(day.allowedActions.sort()).toEqual(['cancel', 'close', 'offer']);
      // Stored at the public point (about a kilometre off), never the exact one.
      const [stored] = await kit.db().select().from(swapDays).where(eq(swapDays.id, day.id));
      const [user] = await kit.db().select().from(users).where(eq(users.id, organiser.id));
      expect(stored?.latitude).toBe(user?.publicLatitude);
      expect(stored?.longitude).toBe(user?.publicLongitude);
      expect(stored?.latitude).not.toBe(user?.latitude);
    });

    it('refuses what the form refuses, with its messages, and hostile text as 400s', async () => {
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ name: '' }, /Name is required/],
        [{ name: '   ' }, /Name is required/],
        [{ name: 'x'.repeat(81) }, /Name must be at most 80/],
        [{ name: 'x'.repeat(10_000) }, /Name must be at most 80/],
        [{ name: 'Swap\u0000day' }, /Name contains characters that are not allowed/],
        [{ name: 'Swap\u202eday' }, /Name contains characters that are not allowed/],
        [{ place: 'Hall\u0085' }, /Place contains characters that are not allowed/],
        [{ place: 'x'.repeat(161) }, /Place must be at most 160/],
        [{ place: undefined }, /Place is required/],
        [{ startsAt: 'tomorrow' }, /Enter a valid date and time/],
        [{ startsAt: '2030-05-01T10:00' }, /Enter a valid date and time/],
        [{ startsAt: 'x'.repeat(10_000) }, /Enter a valid date and time/],
        [{ deadline: 1_900_000_000_000 }, /Choose when want lists close/],
        [{ deadline: null }, /Choose when want lists close/],
        [{ deadline: hoursFromNow(-1) }, new RegExp(SWAP_DAY_MESSAGES.deadlineInPast)],
        [{ deadline: hoursFromNow(49) }, new RegExp(SWAP_DAY_MESSAGES.deadlineBeforeStart)],
        [sameTime(hoursFromNow(48)), new RegExp(SWAP_DAY_MESSAGES.deadlineBeforeStart)],
        [{ startsAt: hoursFromNow(24 * 400) }, new RegExp(SWAP_DAY_MESSAGES.startsTooFar)],
        [{ organiserId: ben.id }, /Unknown field: organiserId/],
      ];
      for (const [overrides, message] of cases) {
        const response = await kit.create(ann, overrides);
        kit.refused(response, 400, 'VALIDATION_FAILED');
        expect(response.json().message, JSON.stringify(overrides).slice(0, 80)).toMatch(message);
      }
      for (const body of [null, [], 'text', 42]) {
        const response = await kit.call(ann, 'POST', '/api/swap-days', body);
        // A string goes as text/plain: 415; the others are JSON of the wrong shape: 400.
        expect(response.statusCode, JSON.stringify(body)).toBe(typeof body === 'string' ? 415 : 400);
      }
    });

    it('accepts any offset, refuses wording that breaks the Terms, and needs a location', async () => {
      const start = new Date(Date.now() + 48 * 3_600_000);
      const withOffset = start.toISOString().replace('Z', '+00:00');
      const day = await kit.organise(cat, { startsAt: withOffset });
      expect(Date.parse(day.startsAt)).toBe(start.getTime());
      kit.refused(await kit.create(cat, { place: 'Text me at 503-555-0199' }), 400, 'CONTENT_NOT_ALLOWED');
      const nowhere = await createUser(kit.db(), { firstName: 'Nemo' });
      const response = await kit.create({
        user: nowhere,
        id: nowhere.id,
        cookies: await sessionCookiesFor(t.app, nowhere),
      });
      kit.refused(response, 400, codes.locationRequired);
    });

    it(`allows ${SWAP_DAY_MAX_OPEN_ORGANISED} open swap days per organizer at a time`, async () => {
      const busy = await kit.member('Busy');
      const made = [];
      for (let i = 0; i < SWAP_DAY_MAX_OPEN_ORGANISED; i++) made.push(await kit.organise(busy));
      kit.refused(await kit.create(busy), 409, codes.limit);
      kit.ok(await kit.swapDayAct(busy, made[0]?.id ?? 0, 'cancel'));
      await kit.organise(busy);
      // A failed match is not matched yet: it still counts until it is cancelled (or matched).
      await kit
        .db()
        .update(swapDays)
        .set({ status: 'failed', matchFailure: 'error' })
        .where(eq(swapDays.id, made[1]?.id ?? 0));
      kit.refused(await kit.create(busy), 409, codes.limit);
      kit.ok(await kit.swapDayAct(busy, made[1]?.id ?? 0, 'cancel'));
      await kit.organise(busy);
    });
  });

  describe('seeing swap days', () => {
    let day: SwapDay;
    beforeAll(async () => {
      day = await kit.organise(ann, { name: 'Visible swap' });
    });

    it('lists it near the neighbors who have not joined, and under "mine" for its members', async () => {
      const bens = kit.ok<SwapDayLists>(await kit.call(ben, 'GET', '/api/swap-days'));
      expect(bens.nearby.map((row) => row.id)).toContain(day.id);
      expect(bens.mine.map((row) => row.id)).not.toContain(day.id);
      const listed = bens.nearby.find((row) => row.id === day.id);
      expect(listed).toMatchObject({ joined: false, isOrganiser: false, memberCount: 1, status: 'open' });
      expect(listed?.organiser.displayName).toBe('Ann T.');

      kit.ok(await kit.swapDayAct(ben, day.id, 'join'));
      const after = kit.ok<SwapDayLists>(await kit.call(ben, 'GET', '/api/swap-days'));
      expect(after.mine.map((row) => row.id)).toContain(day.id);
      expect(after.nearby.map((row) => row.id)).not.toContain(day.id);
      const anns = kit.ok<SwapDayLists>(await kit.call(ann, 'GET', '/api/swap-days'));
      expect(anns.mine.find((row) => row.id === day.id)).toMatchObject({ isOrganiser: true, memberCount: 2 });

      const fayes = kit.ok<SwapDayLists>(await kit.call(far, 'GET', '/api/swap-days'));
      expect(fayes.nearby.map((row) => row.id)).not.toContain(day.id);
    });

    it('is 404 to members beyond their travel distance and to those blocked, like an unknown id', async () => {
      kit.refused(await kit.getSwapDay(far, day.id), 404, 'NOT_FOUND');
      kit.refused(await kit.swapDayAct(far, day.id, 'join'), 404, 'NOT_FOUND');
      kit.refused(await kit.swapDayAct(far, day.id, 'close'), 404, 'NOT_FOUND');
      kit.refused(await kit.sheet(far, day.id), 404, 'NOT_FOUND');
      kit.refused(await kit.getSwapDay(ben, 2_000_000_000), 404, 'NOT_FOUND');
      const blocked = await kit.member('Blocked');
      await kit.db().insert(memberBlocks).values({ blockerId: ann.id, blockedId: blocked.id });
      kit.refused(await kit.getSwapDay(blocked, day.id), 404, 'NOT_FOUND');
      const lists = kit.ok<SwapDayLists>(await kit.call(blocked, 'GET', '/api/swap-days'));
      expect(lists.nearby.map((row) => row.id)).not.toContain(day.id);
    });

    it('answers 400 to ids that are not ids, and the same swap day to an encoded one', async () => {
      for (const id of ['abc', '0', '-1', '1e3', '0x10', '99999999999', '1.5', '%00']) {
        kit.refused(await kit.getSwapDay(ben, id), 400, 'VALIDATION_FAILED');
      }
      const encoded = kit.ok<SwapDay>(
        await kit.getSwapDay(ben, [...String(day.id)].map((digit) => `%3${digit}`).join('')),
      );
      expect(encoded.id).toBe(day.id);
      expect((await kit.call(ben, 'GET', `/api/swap-days/${day.id}/offers/1/wants`)).statusCode).toBe(404);
    });

    it('signed out: 401', async () => {
      expect((await kit.call(null, 'GET', '/api/swap-days')).statusCode).toBe(401);
      expect((await kit.call(null, 'POST', `/api/swap-days/${day.id}/join`)).statusCode).toBe(401);
    });
  });

  describe('joining, offering and ranking', () => {
    /**
     * Each test makes its own swap day, members and items, so it passes alone and in any order:
     * Ann organizes it; with `offered`, Ben has joined and offers Drill and Tent, Ann offers Lamp and Kettle.
     */
    async function scene({ offered = false } = {}) {
      const [ann, ben, cat] = [await kit.member('Ann'), await kit.member('Ben'), await kit.member('Cat')];
      const day = await kit.organise(ann, { name: 'Offers swap' });
      const annLamp = (await kit.item(ann, { title: 'Desk lamp' })).id;
      const annKettle = (await kit.item(ann, { title: 'Kettle' })).id;
      const benDrill = (await kit.item(ben, { title: 'Drill' })).id;
      const benTent = (await kit.item(ben, { title: 'Tent' })).id;
      const catBike = (await kit.item(cat, { title: 'Bike' })).id;
      if (offered) {
        await kit.bring(ben, day.id, [benDrill, benTent]);
        kit.ok(await kit.offer(ann, day.id, [annLamp, annKettle]));
      }
      return { ann, ben, cat, day, annLamp, annKettle, benDrill, benTent, catBike };
    }

    it('offers only after joining, only your own, active and unreserved items', async () => {
      const { ann, ben, day, annLamp, annKettle, benDrill, benTent } = await scene();
      kit.refused(await kit.offer(ben, day.id, [benDrill]), 409, codes.notJoined);
      const joined = kit.ok<SwapDay>(await kit.swapDayAct(ben, day.id, 'join'));
      expect(joined.allowedActions.sort()).toEqual(['leave', 'offer']);
      expect(joined.offerableItems.map((item) => item.title).sort()).toEqual(['Drill', 'Tent']);
      // Joining twice changes nothing.
      expect(kit.ok<SwapDay>(await kit.swapDayAct(ben, day.id, 'join')).memberCount).toBe(2);

      kit.refused(await kit.offer(ben, day.id, [annLamp]), 400, codes.invalidItems);
      kit.refused(await kit.offer(ben, day.id, [2_000_000_000]), 400, codes.invalidItems);
      const hidden = await kit.item(ben, { title: 'Hidden radio', isActive: false });
      kit.refused(await kit.offer(ben, day.id, [hidden.id]), 409, codes.itemUnavailable);
      for (const bad of [[], [benDrill, benDrill], ['1'], [0], [1.5], [-3], null, 'x'.repeat(10_000)]) {
        kit.refused(await kit.offer(ben, day.id, bad), 400, 'VALIDATION_FAILED');
      }

      const offered = kit.ok<SwapDay>(await kit.offer(ben, day.id, [benDrill, benTent]));
      // Other tests' Bens are near too, so the name may carry more of the last name ("Ben Te.").
      const benName = offered.members.find((member) => member.id === ben.id)?.displayName;
      expect(benName).toMatch(/^Ben T/);
      expect(offered.offers.map((o) => [o.item.title, o.owner.displayName, o.mine])).toEqual([
        ['Drill', benName, true],
        ['Tent', benName, true],
      ]);
      expect(offered.offerableItems).toEqual([]);
      // Offering again is fine.
      kit.ok(await kit.offer(ben, day.id, [benDrill]));
      kit.ok(await kit.offer(ann, day.id, [annLamp, annKettle]));
      const annView = kit.ok<SwapDay>(await kit.getSwapDay(ann, day.id));
      expect(annView.offers.filter((o) => !o.mine).map((o) => o.item.title)).toEqual(['Drill', 'Tent']);
      expect(annView.offers.every((o) => o.item.available)).toBe(true);
    });

    it(`offers at most ${SWAP_DAY_MAX_OFFERS_PER_MEMBER} items per member`, async () => {
      const { day } = await scene();
      const busy = await kit.member('Hoarder');
      const many = [];
      for (let i = 0; i <= SWAP_DAY_MAX_OFFERS_PER_MEMBER; i++) many.push((await kit.item(busy)).id);
      kit.ok(await kit.swapDayAct(busy, day.id, 'join'));
      kit.refused(await kit.offer(busy, day.id, many), 400, 'VALIDATION_FAILED');
      kit.ok(await kit.offer(busy, day.id, many.slice(0, SWAP_DAY_MAX_OFFERS_PER_MEMBER)));
      kit.refused(await kit.offer(busy, day.id, many.slice(-1)), 409, codes.limit);
      kit.ok(await kit.swapDayAct(busy, day.id, 'leave'));
    });

    it('ranks only items other members offer here, most wanted first, replacing the whole list', async () => {
      const { ann, ben, cat, day, annLamp, annKettle, benDrill, benTent, catBike } = await scene({
        offered: true,
      });
      const ranked = kit.ok<SwapDay>(await kit.rank(ann, day.id, annLamp, [benTent, benDrill]));
      expect(ranked.offers.find((o) => o.item.id === annLamp)?.wantedItemIds).toEqual([benTent, benDrill]);
      // Other members never see anyone's rankings.
      const benView = kit.ok<SwapDay>(await kit.getSwapDay(ben, day.id));
      expect(benView.offers.find((o) => o.item.id === annLamp)?.wantedItemIds).toEqual([]);

      const replaced = kit.ok<SwapDay>(await kit.rank(ann, day.id, annLamp, [benDrill]));
      expect(replaced.offers.find((o) => o.item.id === annLamp)?.wantedItemIds).toEqual([benDrill]);
      const ranks = await kit.db().select().from(swapDayWants).where(eq(swapDayWants.swapDayId, day.id));
      expect(ranks.map((row) => [row.offerItemId, row.wantedItemId, row.rank])).toEqual([
        [annLamp, benDrill, 1],
      ]);

      // Your own item; an item not offered here; an item offered at another swap day.
      kit.refused(await kit.rank(ann, day.id, annLamp, [annKettle]), 400, codes.invalidItems);
      kit.refused(await kit.rank(ann, day.id, annLamp, [catBike]), 400, codes.invalidItems);
      const other = await kit.organise(cat, { name: 'Elsewhere' });
      kit.ok(await kit.offer(cat, other.id, [catBike]));
      kit.refused(await kit.rank(ann, day.id, annLamp, [catBike]), 400, codes.invalidItems);
      // Someone else's offer, an item you did not offer, an unknown one: 404.
      kit.refused(await kit.rank(ann, day.id, benDrill, [annKettle]), 404, 'NOT_FOUND');
      kit.refused(await kit.rank(ben, day.id, catBike, []), 404, 'NOT_FOUND');
      kit.refused(await kit.rank(ben, day.id, 2_000_000_000, []), 404, 'NOT_FOUND');
      // Not a member at all.
      kit.refused(await kit.rank(cat, day.id, catBike, [benDrill]), 409, codes.notJoined);
      // Hostile lists.
      const tooMany = Array.from({ length: SWAP_DAY_MAX_WANTS_PER_OFFER + 1 }, (_, i) => i + 1);
      for (const bad of [[benDrill, benDrill], tooMany, ['7'], [null], 'x', { a: 1 }]) {
        kit.refused(await kit.rank(ann, day.id, annLamp, bad), 400, 'VALIDATION_FAILED');
      }
      for (const path of ['abc', '0', '1e3', '99999999999']) {
        const response = await kit.call(ann, 'PUT', `/api/swap-days/${day.id}/offers/${path}/wants`, {
          wantedItemIds: [],
        });
        kit.refused(response, 400, 'VALIDATION_FAILED');
      }
      // An empty list clears it.
      const cleared = kit.ok<SwapDay>(await kit.rank(ann, day.id, annKettle, []));
      expect(cleared.offers.find((o) => o.item.id === annKettle)?.wantedItemIds).toEqual([]);
    });

    it('leaves the items of members who block each other out of each other’s view and rankings', async () => {
      const { ann, ben, day, annLamp } = await scene({ offered: true });
      const dan = await kit.member('Dan');
      const danRadio = await kit.item(dan, { title: 'Radio' });
      await kit.bring(dan, day.id, [danRadio.id]);
      await kit.db().insert(memberBlocks).values({ blockerId: dan.id, blockedId: ann.id });
      const annView = kit.ok<SwapDay>(await kit.getSwapDay(ann, day.id));
      expect(annView.offers.map((o) => o.item.title)).not.toContain('Radio');
      expect(annView.members.map((m) => m.id)).not.toContain(dan.id);
      kit.refused(await kit.rank(ann, day.id, annLamp, [danRadio.id]), 400, codes.invalidItems);
      expect(kit.ok<SwapDay>(await kit.getSwapDay(ben, day.id)).offers.map((o) => o.item.title)).toContain(
        'Radio',
      );
    });

    it('withdrawing an offer takes every ranking naming it; leaving takes your offers', async () => {
      const { ann, ben, day, annLamp, annKettle, benDrill, benTent } = await scene({ offered: true });
      kit.ok(await kit.rank(ben, day.id, benDrill, [annKettle, annLamp]));
      kit.ok(await kit.rank(ann, day.id, annLamp, [benTent, benDrill]));
      const withdrawn = kit.ok<SwapDay>(await kit.withdraw(ann, day.id, annKettle));
      // The match reads the rankings as stored (one aggregated row): Lamp keeps its rank 2 after
      // Kettle's rank 1 went, so the solver's costs are the member's own order.
      expect(await findWants(kit.db(), day.id)).toEqual(
        expect.arrayContaining([
          { offerItemId: benDrill, wantedItemId: annLamp, rank: 2 },
          { offerItemId: annLamp, wantedItemId: benTent, rank: 1 },
          { offerItemId: annLamp, wantedItemId: benDrill, rank: 2 },
        ]),
      );
      expect((await findWants(kit.db(), day.id)).some((want) => want.wantedItemId === annKettle)).toBe(false);
      expect(withdrawn.offers.map((o) => o.item.title)).not.toContain('Kettle');
      expect(withdrawn.offerableItems.map((o) => o.title)).toContain('Kettle');
      const benView = kit.ok<SwapDay>(await kit.getSwapDay(ben, day.id));
      expect(benView.offers.find((o) => o.item.id === benDrill)?.wantedItemIds).toEqual([annLamp]);
      kit.refused(await kit.withdraw(ann, day.id, annKettle), 404, 'NOT_FOUND');
      kit.refused(await kit.withdraw(ann, day.id, benDrill), 404, 'NOT_FOUND');

      const left = kit.ok<SwapDay>(await kit.swapDayAct(ben, day.id, 'leave'));
      expect(left).toMatchObject({ joined: false, offers: expect.any(Array) });
      expect(left.offers.map((o) => o.item.title)).not.toContain('Drill');
      expect(left.allowedActions).toEqual(['join']);
      const annView = kit.ok<SwapDay>(await kit.getSwapDay(ann, day.id));
      expect(annView.offers.find((o) => o.item.id === annLamp)?.wantedItemIds).toEqual([]);
      expect(annView.members.map((m) => m.id)).not.toContain(ben.id);
      kit.refused(await kit.swapDayAct(ann, day.id, 'leave'), 409, codes.organiserStays);
      // Members were told, through their pages.
      expect(await kit.swapDayEventCount(ann.id, day.id)).toBeGreaterThan(3);
    });

    it('shows an offered item that was hidden meanwhile as unavailable', async () => {
      const { ann, day, annLamp } = await scene({ offered: true });
      await kit.db().update(items).set({ isActive: false }).where(eq(items.id, annLamp));
      const view = kit.ok<SwapDay>(await kit.getSwapDay(ann, day.id));
      expect(view.offers.find((o) => o.item.id === annLamp)?.item.available).toBe(false);
      await kit.db().update(items).set({ isActive: true }).where(eq(items.id, annLamp));
    });
  });

  describe('the organizer', () => {
    it('alone closes and cancels: another member gets 403, someone who cannot see it 404', async () => {
      const olive = await kit.member('Olive');
      const day = await kit.organise(olive, { name: 'Organizer only' });
      kit.ok(await kit.swapDayAct(ben, day.id, 'join'));
      kit.refused(await kit.swapDayAct(ben, day.id, 'close'), 403, codes.organiserOnly);
      kit.refused(await kit.swapDayAct(ben, day.id, 'cancel'), 403, codes.organiserOnly);
      kit.refused(await kit.swapDayAct(far, day.id, 'close'), 404, 'NOT_FOUND');
      // Near but not joined: it can see the swap day, so 403.
      kit.refused(await kit.swapDayAct(cat, day.id, 'cancel'), 403, codes.organiserOnly);

      const cancelled = kit.ok<SwapDay>(await kit.swapDayAct(olive, day.id, 'cancel'));
      expect(cancelled).toMatchObject({ status: 'cancelled', allowedActions: [] });
      kit.refused(await kit.swapDayAct(olive, day.id, 'close'), 409, codes.closed);
      kit.refused(await kit.swapDayAct(olive, day.id, 'cancel'), 409, codes.closed);
      const refused = kit.refused(await kit.swapDayAct(cat, day.id, 'join'), 409, codes.closed);
      expect(refused.message).toBe('This swap day was canceled.');
      kit.refused(await kit.sheet(olive, day.id), 409, codes.notSolved);
    });
  });

  describe('the member’s data export', () => {
    it('lists the swap days they organize or joined, with their own offers and rankings only', async () => {
      const eli = await kit.member('Eli');
      const fox = await kit.member('Fox');
      const day = await kit.organise(eli, { name: 'Exported swap' });
      const lamp = await kit.item(eli, { title: 'Lamp' });
      const drill = await kit.item(fox, { title: 'Drill' });
      await kit.bring(eli, day.id, [lamp.id]);
      await kit.bring(fox, day.id, [drill.id]);
      kit.ok(await kit.rank(eli, day.id, lamp.id, [drill.id]));
      kit.ok(await kit.rank(fox, day.id, drill.id, [lamp.id]));
      // The export carries the member's own e-mail, so it is read past the kit's privacy check.
      const response = await t.app.inject({ url: '/api/account/export', cookies: fox.cookies });
      expect(response.statusCode).toBe(200);
      const exported = response.json().swapDays;
      expect(exported).toEqual([
        expect.objectContaining({
          id: day.id,
          name: 'Exported swap',
          status: 'open',
          organizedByMe: false,
          offers: [{ itemId: drill.id, wantedItemIds: [lamp.id] }],
        }),
      ]);
      expect(JSON.stringify(exported)).not.toMatch(/Eli|latitude|longitude/);
    });
  });

  describe('after the deadline', () => {
    it('refuses every change but the organizer’s match (409), and shows it as closed', async () => {
      const otto = await kit.member('Otto');
      const day = await kit.organise(otto, { name: 'Past deadline' });
      const benItem = await kit.item(ben);
      const annItem = await kit.item(ann);
      await kit.bring(ben, day.id, [benItem.id]);
      await kit.bring(ann, day.id, [annItem.id]);
      await kit.passDeadline(day.id);

      const view = kit.ok<SwapDay>(await kit.getSwapDay(ben, day.id));
      expect(view).toMatchObject({ status: 'closed', allowedActions: [], offerableItems: [] });
      const closed = 'Want lists for this swap day are closed.';
      for (const response of [
        await kit.swapDayAct(cat, day.id, 'join'),
        await kit.swapDayAct(ben, day.id, 'leave'),
        await kit.offer(ben, day.id, [benItem.id]),
        await kit.withdraw(ben, day.id, benItem.id),
        await kit.rank(ben, day.id, benItem.id, [annItem.id]),
      ]) {
        expect(kit.refused(response, 409, codes.closed).message).toBe(closed);
      }
      kit.refused(await kit.sheet(ben, day.id), 409, codes.notSolved);
      const ottos = kit.ok<SwapDay>(await kit.getSwapDay(otto, day.id));
      expect(ottos.allowedActions.sort()).toEqual(['cancel', 'close']);
      // The nearby list shows only swap days whose want lists are open.
      const lists = kit.ok<SwapDayLists>(await kit.call(cat, 'GET', '/api/swap-days'));
      expect(lists.nearby.map((row) => row.id)).not.toContain(day.id);
    });
  });
});
