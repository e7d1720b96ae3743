import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedItem } from '#common/schemas/feed.ts';
import type { FlyerNeighborhood } from '#common/schemas/flyer.ts';
import type { Item } from '#common/schemas/listings.ts';
import { createWant } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { settleMatchGraph } from '../match-graph';
import { barterKit, type Member } from './barter-test-kit';

/**
 * An item an accepted barter holds leaves other members' feeds, search, saved list and flyer (and
 * comes back when the barter is cancelled); a completed barter's items leave them for good. Rankings
 * kept between pages (ADR 012) notice at once: the reservation moves the listing version.
 */
describe('reserved items and the listings', () => {
  let t: TestApp;
  let kit: ReturnType<typeof barterKit>;
  let vic: Member;
  let ben: Member;
  let cat: Member;
  // A town of its own, so the flyer's newest six and the feeds hold only this file's items.
  const town = { latitude: -33.9, longitude: 18.4 };

  beforeAll(async () => {
    t = await buildTestApp({ BARTER_PROPOSAL_RATE_LIMIT: '100000' });
    kit = barterKit(t);
    vic = await kit.member('Vic', town);
    ben = await kit.member('Ben', town);
    cat = await kit.member('Cat', town);
    await createWant(t.app.db, { userId: vic.id, title: 'Telescope', category: 'hobbies' });
  });
  afterAll(() => t.close());

  /** Where the item shows for `who`: each feed, search, the saved list and the flyer. */
  async function placesShowing(who: Member, itemId: number, title: string) {
    // Barter Match reads the match graph, which the job brings up to date after a write (ADR 022).
    await settleMatchGraph(t.app.db);
    const ids = async (url: string) => {
      const response = await kit.call(who, 'GET', url);
      return kit.ok<FeedItem[]>(response).map((item) => item.id);
    };
    const shown: string[] = [];
    if ((await ids('/api/feed/everything?limit=50')).includes(itemId)) shown.push('everything');
    if ((await ids('/api/feed/everything?limit=50&sort=distance')).includes(itemId))
      shown.push('by distance');
    if ((await ids('/api/feed/random-barter?limit=50&seed=7')).includes(itemId)) shown.push('random');
    if ((await ids('/api/feed/barter-match?limit=50')).includes(itemId)) shown.push('barter-match');
    if ((await ids('/api/feed/everything?limit=50&q=telescope')).includes(itemId)) shown.push('search');
    if ((await ids('/api/saved-items?limit=50')).includes(itemId)) shown.push('saved');
    const flyer = kit.ok<FlyerNeighborhood>(await kit.call(who, 'GET', '/api/flyer/neighborhood'));
    if (flyer.offers.some((offer) => offer.title === title)) shown.push('flyer');
    return shown;
  }
  const EVERYWHERE = ['everything', 'by distance', 'random', 'barter-match', 'search', 'saved', 'flyer'];

  const myItem = async (who: Member, id: number) =>
    kit.ok<Item[]>(await kit.call(who, 'GET', '/api/items/my?limit=50')).find((item) => item.id === id);

  it('leaves while reserved, comes back when cancelled, and leaves for good when completed', async () => {
    const telescope = await kit.item(ben, { title: 'Brass telescope', category: 'hobbies' });
    const catsItem = await kit.item(cat, { title: 'Camping stove', category: 'outdoors' });
    expect((await kit.call(vic, 'POST', `/api/saved-items/${telescope.id}`)).statusCode).toBe(201);
    // Read once first: the rankings are now kept, and must notice the reservation.
    expect(await placesShowing(vic, telescope.id, telescope.title)).toEqual(EVERYWHERE);

    const first = kit.ok(await kit.propose(cat, [catsItem.id], [telescope.id]), 201);
    expect(await placesShowing(vic, telescope.id, telescope.title)).toEqual(EVERYWHERE);
    kit.ok(await kit.act(ben, first.id, 'accept'));
    expect(await placesShowing(vic, telescope.id, telescope.title)).toEqual([]);
    // Not for the partner either; the owner still has it, marked reserved.
    expect(await placesShowing(cat, telescope.id, telescope.title)).toEqual([]);
    expect(await myItem(ben, telescope.id)).toMatchObject({ isActive: true, isReserved: true });
    const vicsItem = await kit.item(vic, { title: 'Star chart', category: 'hobbies' });
    kit.refused(await kit.propose(vic, [vicsItem.id], [telescope.id]), 409, 'BARTER_ITEM_UNAVAILABLE');

    kit.ok(await kit.act(cat, first.id, 'cancel', { reason: 'Found a bigger one' }));
    expect(await placesShowing(vic, telescope.id, telescope.title)).toEqual(EVERYWHERE);
    expect(await myItem(ben, telescope.id)).toMatchObject({ isActive: true, isReserved: false });

    const second = kit.ok(await kit.propose(cat, [catsItem.id], [telescope.id]), 201);
    kit.ok(await kit.act(ben, second.id, 'accept'));
    kit.ok(await kit.act(ben, second.id, 'confirm'));
    kit.ok(await kit.act(cat, second.id, 'confirm'));
    expect(await placesShowing(vic, telescope.id, telescope.title)).toEqual([]);
    expect(await myItem(ben, telescope.id)).toMatchObject({ isActive: false, isReserved: false });
    expect(await myItem(cat, catsItem.id)).toMatchObject({ isActive: false, isReserved: false });
  });
});
