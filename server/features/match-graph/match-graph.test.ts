import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedItem } from '#common/schemas/feed.ts';
import { queryRows } from '../../db/rows';
import { createWant } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { TOWNS } from '../../test/neighbourhood';
import { barterKit, type Member } from '../barters/barter-test-kit';
import { graphState } from './graph-maintenance';

/** Degrees of latitude per mile. */
const DEG_PER_MILE = 1 / 69.0936;

/**
 * Changes reach the graph off the request path (the job, woken by the change log's NOTIFY), within
 * 2 s of the write, through the real routes and nothing else.
 */
describe('listing changes reach the graph', () => {
  let t: TestApp;
  let kit: ReturnType<typeof barterKit>;
  let vic: Member;
  let olga: Member;
  let cat: Member;
  const town = { latitude: TOWNS[0].latitude + 3, longitude: TOWNS[0].longitude };

  beforeAll(async () => {
    t = await buildTestApp({ BARTER_PROPOSAL_RATE_LIMIT: '100000' });
    kit = barterKit(t);
    vic = await kit.member('Vic', town);
    olga = await kit.member('Olga', town);
    cat = await kit.member('Cat', town);
    await createWant(t.app.db, { userId: vic.id, title: 'Telescope', category: 'photo+video' });
    // Vic's first visit asks for the graph; pages come from it once it is built.
    kit.ok<FeedItem[]>(await kit.call(vic, 'GET', '/api/feed/barter-match'));
    await within(async () => (await graphState(t.app.db, vic.id)) === 'built');
  });
  afterAll(() => t.close());

  /** Poll until `check` holds; fails after 2 s. How long it took. */
  async function within(check: () => Promise<boolean>, ms = 2_000): Promise<number> {
    const started = Date.now();
    while (!(await check())) {
      if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return Date.now() - started;
  }

  const matches = async () =>
    kit.ok<FeedItem[]>(await kit.call(vic, 'GET', '/api/feed/barter-match?radius=50&limit=50'));
  const shows = (id: number) => async () => (await matches()).some((item) => item.id === id);
  const hides = (id: number) => async () => !(await matches()).some((item) => item.id === id);
  /** The graph's own row for Vic and this item (not the page, which also checks the item). */
  const graphRow = async (id: number) =>
    (
      await queryRows<{
        score: number;
        mutual: boolean;
        distance: number;
        same_category: boolean;
        text_pct: number;
      }>(
        t.app.db,
        sql`SELECT score, mutual, distance, same_category, text_pct FROM match_graph WHERE member_id = ${vic.id}::uuid AND item_id = ${id}::int`,
      )
    )[0] ?? null;
  const newTelescope = async (owner: Member) => {
    const response = await kit.call(owner, 'POST', '/api/items', {
      title: 'Brass telescope',
      description: 'Sees the rings of Saturn.',
      category: 'photo+video',
      estimatedValue: 80,
    });
    return kit.ok<{ id: number }>(response, 201).id;
  };

  it('added: a new listing reaches Barter Match within 2 s', async () => {
    const id = await newTelescope(olga);
    const took = await within(shows(id));
    expect(took).toBeLessThan(2_000);
    expect(await graphRow(id)).toMatchObject({ mutual: false });
  });

  it('edited: an item that no longer matches leaves, and comes back when it does again', async () => {
    const id = await newTelescope(olga);
    await within(shows(id));
    // Neither the category nor the words match any more.
    kit.ok(
      await kit.call(olga, 'PATCH', `/api/items/${id}`, { title: 'Brass microscope', category: 'tools' }),
    );
    await within(hides(id));
    expect(await graphRow(id)).toBeNull();
    kit.ok(await kit.call(olga, 'PATCH', `/api/items/${id}`, { title: 'Brass telescope' }));
    await within(shows(id));
    // By its words alone now (all of the want's in the title, and one more): no category points.
    expect(await graphRow(id)).toMatchObject({ same_category: false, text_pct: 70 });
  });

  it('reciprocity: the owner starts wanting something Vic offers, and the score rises by 43', async () => {
    const id = await newTelescope(cat);
    await within(shows(id));
    const before = await graphRow(id);
    await kit.item(vic, { title: 'Camping stove', category: 'rvs+camp' });
    kit.ok(await kit.call(cat, 'POST', '/api/wants', { title: 'Camping stove', category: 'rvs+camp' }), 201);
    await within(async () => (await graphRow(id))?.mutual === true);
    const after = await graphRow(id);
    expect(after?.score).toBe((before?.score ?? 0) + 43);
    const card = (await matches()).find((item) => item.id === id);
    expect(card?.match).toMatchObject({ mutual: true, theirWantTitle: 'Camping stove' });
  });

  it('owner moved: out of range leaves, back in range returns with the new distance', async () => {
    const id = await newTelescope(olga);
    await within(shows(id));
    const near = await graphRow(id);
    // Olga's own profile answer carries her own e-mail: not through the kit's privacy check.
    const move = (latitude: number) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/user/profile',
        cookies: olga.cookies,
        payload: { location: 'Somewhere', latitude, longitude: town.longitude, maxTravelDistance: 25 },
      });
    kit.ok(await move(town.latitude + 80 * DEG_PER_MILE));
    await within(hides(id));
    expect(await graphRow(id)).toBeNull();
    kit.ok(await move(town.latitude + 30 * DEG_PER_MILE));
    await within(shows(id));
    const far = await graphRow(id);
    expect(far?.distance).toBeGreaterThan((near?.distance ?? 0) + 25);
    expect(far?.score).toBeLessThan(near?.score ?? 0);
    kit.ok(await move(town.latitude + 0.003));
  });

  it('reserved, then released, then traded: leaves at once, returns, leaves the graph for good', async () => {
    const id = await newTelescope(olga);
    await within(shows(id));
    const catsItem = await kit.item(cat, { title: 'Binoculars', category: 'photo+video' });
    const barter = kit.ok(await kit.propose(cat, [catsItem.id], [id]), 201);
    kit.ok(await kit.act(olga, barter.id, 'accept'));
    // The page checks the item itself: gone at once, and gone from the graph soon after.
    expect(await hides(id)()).toBe(true);
    await within(async () => (await graphRow(id)) === null);
    kit.ok(await kit.act(cat, barter.id, 'cancel', { reason: 'Changed my mind' }));
    await within(shows(id));
    const again = kit.ok(await kit.propose(cat, [catsItem.id], [id]), 201);
    kit.ok(await kit.act(olga, again.id, 'accept'));
    kit.ok(await kit.act(olga, again.id, 'confirm'));
    kit.ok(await kit.act(cat, again.id, 'confirm'));
    expect(await hides(id)()).toBe(true);
    await within(async () => (await graphRow(id)) === null);
  });

  it('deleted: leaves at once and leaves the graph', async () => {
    const id = await newTelescope(olga);
    await within(shows(id));
    expect((await kit.call(olga, 'DELETE', `/api/items/${id}`)).statusCode).toBe(204);
    expect(await hides(id)()).toBe(true);
    await within(async () => (await graphRow(id)) === null);
  });

  it("the member's own want gone: the graph empties", async () => {
    const wants = await queryRows<{ id: number }>(
      t.app.db,
      sql`SELECT id FROM wants WHERE user_id = ${vic.id}::uuid`,
    );
    for (const want of wants)
      expect((await kit.call(vic, 'DELETE', `/api/wants/${want.id}`)).statusCode).toBe(204);
    expect(await matches()).toEqual([]);
    await within(async () => {
      const [row] = await queryRows<{ n: number }>(
        t.app.db,
        sql`SELECT count(*)::int AS n FROM match_graph WHERE member_id = ${vic.id}::uuid`,
      );
      return row?.n === 0;
    });
  });
});
