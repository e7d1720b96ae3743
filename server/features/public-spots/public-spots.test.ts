import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HandOverPlan } from '#common/schemas/hand-over-plans.ts';
import {
  type HandOverPlaces,
  PUBLIC_SPOT_ERROR_CODES,
  type PublicSpot,
} from '#common/schemas/public-spots.ts';
import { handOverPlans } from '../../db/schema/hand-over-plans';
import { circles } from '../../db/schema/trading';
import { users } from '../../db/schema/users';
import { kmBetween, type Point, viewerPoint } from '../../geo/earth';
import { createUser, sessionCookiesFor } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { createHandOvers } from '../barters';
import { barterKit, type Member } from '../barters/barter-test-kit';
import { fairestNamedArea, searchPlaces } from '../places';
import { byFairness, spotsNear } from './public-spots';

// Public spots for the hand-over and the fairest named area (issue 30, ADR 080).

let t: TestApp;
let kit: ReturnType<typeof barterKit>;
let moderator: Member;
let ann: Member;

/** Points `km` east/west/north of a point (small distances: flat enough). */
const KM_PER_DEG = 111.195;
const shift = (p: Point, northKm: number, eastKm: number): Point => ({
  latitude: p.latitude + northKm / KM_PER_DEG,
  longitude: p.longitude + eastKm / (KM_PER_DEG * Math.cos((p.latitude * Math.PI) / 180)),
});

// Central Portland, where the bundled neighbourhoods are dense.
const PORTLAND = { latitude: 45.52, longitude: -122.65 };

beforeAll(async () => {
  t = await buildTestApp({ BARTER_PROPOSAL_RATE_LIMIT: '100000' });
  kit = barterKit(t);
  const user = await createUser(kit.db(), { firstName: 'Mona', lastName: 'Moderator', role: 'moderator' });
  moderator = { user, id: user.id, cookies: await sessionCookiesFor(t.app, user) };
  ann = await kit.member('Ann', PORTLAND);
});
afterAll(() => t.close());

const spotsUrl = '/api/moderation/public-spots';
const addSpot = (who: Member, body: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: spotsUrl, cookies: who.cookies, payload: body });
const spotBody = (name: string, point: Point, overrides: Record<string, unknown> = {}) => ({
  name,
  kind: 'library',
  source: 'https://www.multcolib.org/locations',
  place: { displayName: `${name} place, Portland, Oregon, United States`, ...point },
  ...overrides,
});
async function added(name: string, point: Point, overrides: Record<string, unknown> = {}) {
  return kit.ok<PublicSpot>(await addSpot(moderator, spotBody(name, point, overrides)), 201);
}

async function remove(id: number) {
  const answer = await t.app.inject({
    method: 'DELETE',
    url: `${spotsUrl}/${id}`,
    cookies: moderator.cookies,
  });
  expect(answer.statusCode, answer.body).toBe(204);
}

const planUrl = (id: number, tail = '') => `/api/barter-requests/${id}/hand-over-plan${tail}`;
const HOUR = 3_600_000;
const at = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

async function acceptedBetween(a: Member, b: Member) {
  const { barter } = await kit.pending(a, b);
  kit.ok(await kit.act(b, barter.id, 'accept'));
  return barter.id;
}

async function publicPointOf(member: Member): Promise<Point> {
  const [row] = await kit.db().select().from(users).where(eq(users.id, member.id));
  const point = row ? viewerPoint(row) : null;
  if (!point) throw new Error('no public point');
  return point;
}

describe('the moderators’ list of public spots', () => {
  it('only moderators list, add and remove spots; a source and a chosen place are required', async () => {
    // A member is refused everything.
    for (const request of [
      { method: 'GET' as const, url: spotsUrl },
      { method: 'POST' as const, url: spotsUrl, payload: spotBody('Library', PORTLAND) },
      { method: 'DELETE' as const, url: `${spotsUrl}/1` },
    ]) {
      const answer = await t.app.inject({ ...request, cookies: ann.cookies });
      expect({ status: answer.statusCode, code: answer.json().code }).toEqual({
        status: 403,
        code: 'NOT_MODERATOR',
      });
    }
    expect((await t.app.inject({ method: 'GET', url: spotsUrl })).statusCode).toBe(401);

    // Validation: no source, blank name, an unknown kind, no place, coordinates out of range, extra fields.
    for (const body of [
      spotBody('Library', PORTLAND, { source: '  ' }),
      spotBody('', PORTLAND),
      spotBody('Library', PORTLAND, { kind: 'bar' }),
      { name: 'Library', kind: 'library', source: 'https://example.org' },
      spotBody('Library', { latitude: 91, longitude: 0 }),
      spotBody('Library', PORTLAND, { latitude: 45 }),
      spotBody('Library\u0000', PORTLAND),
    ]) {
      kit.refused(await addSpot(moderator, body), 400, 'VALIDATION_FAILED');
    }

    const spot = await added('Central Library', PORTLAND, { kind: 'library' });
    expect(spot).toMatchObject({
      name: 'Central Library',
      kind: 'library',
      source: 'https://www.multcolib.org/locations',
      addedBy: expect.stringContaining('Mona'),
    });
    // The area is the town nearest the chosen place.
    expect(spot.area).toMatch(/^Portland, Oregon/);
    const list = kit.ok<PublicSpot[]>(
      await t.app.inject({ method: 'GET', url: spotsUrl, cookies: moderator.cookies }),
    );
    expect(list.map((s) => s.id)).toContain(spot.id);

    expect(
      (await t.app.inject({ method: 'DELETE', url: `${spotsUrl}/${spot.id}`, cookies: moderator.cookies }))
        .statusCode,
    ).toBe(204);
    kit.refused(
      await t.app.inject({ method: 'DELETE', url: `${spotsUrl}/${spot.id}`, cookies: moderator.cookies }),
      404,
      'NOT_FOUND',
    );
    const after = kit.ok<PublicSpot[]>(
      await t.app.inject({ method: 'GET', url: spotsUrl, cookies: moderator.cookies }),
    );
    expect(after.map((s) => s.id)).not.toContain(spot.id);
  });

  it('a moderator corrects a spot by the rules of adding one; 404 off the list; plans keep the agreed name', async () => {
    const home = shift(PORTLAND, -20, 0);
    const eli = await kit.member('Eli', shift(home, 0, -2));
    const fay = await kit.member('Fay', shift(home, 0, 2));
    const spot = await added('Westside Librery', home, { kind: 'other', source: 'Cited: a flyer' });
    const edit = (who: Member, id: number | string, body: Record<string, unknown>) =>
      t.app.inject({ method: 'PUT', url: `${spotsUrl}/${id}`, cookies: who.cookies, payload: body });

    // A plan agreed on the spot before the correction.
    const barterId = await acceptedBetween(eli, fay);
    kit.ok(
      await kit.call(eli, 'PUT', planUrl(barterId), {
        startsAt: at(24),
        endsAt: at(25),
        place: 'typed text',
        replaces: null,
        spotId: spot.id,
      }),
    );

    // Members are refused; the same validation as adding.
    const corrected = spotBody('Westside Library', PORTLAND, {
      kind: 'library',
      source: 'https://www.multcolib.org/locations/westside',
    });
    kit.refused(await edit(ann, spot.id, corrected), 403, 'NOT_MODERATOR');
    expect(
      (await t.app.inject({ method: 'PUT', url: `${spotsUrl}/${spot.id}`, payload: corrected })).statusCode,
    ).toBe(401);
    for (const body of [
      spotBody('Library', PORTLAND, { source: '  ' }),
      spotBody('', PORTLAND),
      spotBody('Library', PORTLAND, { kind: 'bar' }),
      { name: 'Library', kind: 'library', source: 'https://example.org' },
      spotBody('Library', { latitude: 91, longitude: 0 }),
      spotBody('Library', PORTLAND, { latitude: 45 }),
      spotBody('x'.repeat(121), PORTLAND),
    ]) {
      kit.refused(await edit(moderator, spot.id, body), 400, 'VALIDATION_FAILED');
    }
    kit.refused(await edit(moderator, 'abc', corrected), 400, 'VALIDATION_FAILED');
    kit.refused(await edit(moderator, 99_999_999, corrected), 404, 'NOT_FOUND');

    const saved = kit.ok<PublicSpot>(await edit(moderator, spot.id, corrected));
    expect(saved).toMatchObject({
      id: spot.id,
      name: 'Westside Library',
      kind: 'library',
      place: 'Westside Library place, Portland, Oregon, United States',
      latitude: PORTLAND.latitude,
      longitude: PORTLAND.longitude,
      source: 'https://www.multcolib.org/locations/westside',
      addedBy: spot.addedBy,
      addedAt: spot.addedAt,
    });
    expect(saved.area).toMatch(/^Portland, Oregon/);
    const list = kit.ok<PublicSpot[]>(
      await t.app.inject({ method: 'GET', url: spotsUrl, cookies: moderator.cookies }),
    );
    expect(list.find((s) => s.id === spot.id)).toEqual(saved);
    // The plan keeps the name both members agreed on.
    expect(kit.ok<HandOverPlan>(await kit.call(fay, 'GET', planUrl(barterId))).place).toBe(
      'Westside Librery',
    );

    // A removed spot is off the list: 404, and it stays removed.
    await remove(spot.id);
    kit.refused(await edit(moderator, spot.id, corrected), 404, 'NOT_FOUND');
    const after = kit.ok<PublicSpot[]>(
      await t.app.inject({ method: 'GET', url: spotsUrl, cookies: moderator.cookies }),
    );
    expect(after.map((s) => s.id)).not.toContain(spot.id);
  });
});

describe('choosing a spot in the hand-over plan', () => {
  it('orders spots near both members by the larger distance, then the sum; names only', async () => {
    // Exact public points, so the order is certain: A and B 10 km apart west-east.
    const a = shift(PORTLAND, 0, -5);
    const b = shift(PORTLAND, 0, 5);
    const base = shift(PORTLAND, 30, 0); // away from the other tests' spots
    const A = shift(a, 30, 0);
    const B = shift(b, 30, 0);
    const middle = await added('Midway station', base, { kind: 'station' });
    const onLine = await added('On-line café', shift(base, 0, 1), { kind: 'cafe' });
    const nearAnn = await added('Police safe trade spot', shift(A, 0, 0.5), { kind: 'police_safe_trade' });
    const far = await added('Far library', shift(base, 100, 0));
    const removed = await added('Removed library', base);
    await remove(removed.id);

    const spots = await spotsNear(kit.db(), [
      { point: A, travelMiles: 25 },
      { point: B, travelMiles: 25 },
    ]);
    const ids = spots.map((s) => s.id);
    // middle: the larger distance 5 km; onLine: 6 km; nearAnn: 9.5 km.
    expect(ids.slice(0, 3)).toEqual([middle.id, onLine.id, nearAnn.id]);
    expect(ids).not.toContain(far.id);
    expect(ids).not.toContain(removed.id);
    expect(spots[0]).toEqual({ id: middle.id, name: 'Midway station', kind: 'station', area: middle.area });

    // "Near" is each member's own travel distance: Ben travels 5 miles (8 km), so the spot 9.5 km
    // from him is not offered.
    const short = await spotsNear(kit.db(), [
      { point: A, travelMiles: 25 },
      { point: B, travelMiles: 5 },
    ]);
    expect(short.map((s) => s.id)).not.toContain(nearAnn.id);
    expect(short.map((s) => s.id)).toContain(middle.id);
  });

  it('breaks a tie of the larger distance by the sum, then the name', () => {
    const spot = (id: number, name: string, max: number, sum: number) => ({ row: { id, name }, max, sum });
    const sorted = [spot(1, 'B', 6, 12), spot(2, 'A', 6, 10), spot(3, 'C', 5, 10), spot(4, 'A', 6, 12)].sort(
      byFairness,
    );
    expect(sorted.map((s) => s.row.id)).toEqual([3, 2, 4, 1]);
  });

  it('the plan form offers the spots near both members; a chosen spot is validated and named', async () => {
    const home = shift(PORTLAND, -40, 0);
    const cara = await kit.member('Cara', shift(home, 0, -3));
    const dan = await kit.member('Dan', shift(home, 0, 3));
    const library = await added('Southside Library', home);
    const id = await acceptedBetween(cara, dan);
    const places = kit.ok<HandOverPlaces>(await kit.call(cara, 'GET', planUrl(id, '/places')));
    expect(places.spots[0]).toEqual({
      id: library.id,
      name: 'Southside Library',
      kind: 'library',
      area: library.area,
    });
    expect(places.fairestArea).toBeNull();
    // The other member sees the same list.
    expect(kit.ok<HandOverPlaces>(await kit.call(dan, 'GET', planUrl(id, '/places'))).spots[0]?.id).toBe(
      library.id,
    );
    // Not theirs: 404.
    kit.refused(await kit.call(ann, 'GET', planUrl(id, '/places')), 404, 'NOT_FOUND');

    const proposal = { startsAt: at(24), endsAt: at(25), place: 'typed text', replaces: null };
    kit.refused(
      await kit.call(cara, 'PUT', planUrl(id), { ...proposal, spotId: 99_999_999 }),
      400,
      PUBLIC_SPOT_ERROR_CODES.unknown,
    );
    kit.refused(
      await kit.call(cara, 'PUT', planUrl(id), { ...proposal, spotId: 'x' }),
      400,
      'VALIDATION_FAILED',
    );
    const gone = await added('Closed Library', home);
    await remove(gone.id);
    kit.refused(
      await kit.call(cara, 'PUT', planUrl(id), { ...proposal, spotId: gone.id }),
      409,
      PUBLIC_SPOT_ERROR_CODES.removed,
    );
    // Nothing was stored by the refused proposals.
    expect(kit.ok(await kit.call(cara, 'GET', planUrl(id)))).toBeNull();

    const plan = kit.ok<HandOverPlan>(
      await kit.call(cara, 'PUT', planUrl(id), { ...proposal, spotId: library.id }),
    );
    expect(plan.place).toBe('Southside Library');
    const [row] = await kit.db().select().from(handOverPlans).where(eq(handOverPlans.barterRequestId, id));
    expect(row).toMatchObject({ spotId: library.id, placeName: 'Southside Library' });
    // Removing the spot later leaves the plan reading the same.
    await remove(library.id);
    expect(kit.ok<HandOverPlan>(await kit.call(dan, 'GET', planUrl(id))).place).toBe('Southside Library');
    // Typing freely still works, and clears the spot.
    kit.ok(await kit.call(dan, 'PUT', planUrl(id), { ...proposal, place: 'By the fountain', replaces: 1 }));
    const [typed] = await kit.db().select().from(handOverPlans).where(eq(handOverPlans.barterRequestId, id));
    expect(typed).toMatchObject({ spotId: null, placeName: 'By the fountain' });
  });
});

describe('the fairest named area', () => {
  it('is the area at the middle of two points, and at the centre of three', async () => {
    const [buckman] = searchPlaces('Buckman, Portland', 1);
    if (!buckman) throw new Error('Buckman is in the bundled data');
    // Two points 6 km either side: only the midpoint is 3 km from both; anything else is farther.
    const two = await fairestNamedArea([shift(buckman, 0, -6), shift(buckman, 0, 6)]);
    expect(two?.displayName).toBe(buckman.displayName);
    // Three points on a circle of 7 km around it (an acute triangle): its centre is the only point
    // within 7 km of all three.
    const three = await fairestNamedArea([
      shift(buckman, 7, 0),
      shift(buckman, -3.5, 6.062),
      shift(buckman, -3.5, -6.062),
    ]);
    expect(three?.displayName).toBe(buckman.displayName);
    // Not simply the area nearest one member: from two points, one at Buckman, it is not Buckman.
    const lopsided = await fairestNamedArea([buckman, shift(buckman, 0, 12)]);
    expect(lopsided?.displayName).not.toBe(buckman.displayName);
    expect(kmBetween(lopsided as Point, shift(buckman, 0, 6))).toBeLessThan(3);
  });

  it('is suggested when no spot is near, from public points, for a pair and for a circle', async () => {
    // Seattle: far beyond every member's travel distance from the other tests' spots in Portland.
    const east = { latitude: 47.62, longitude: -122.32 };
    const eve = await kit.member('Eve', shift(east, 0, -6));
    const finn = await kit.member('Finn', shift(east, 0, 6));
    // Gus 18 km north: the centre of the three (the circumcentre, 8 km north of the pair's midpoint)
    // is far from the pair's, beyond anything the public points' random offsets (at most about
    // 1.5 km each, ADR 059) can move either; 10 km (3.2 km north) sometimes named the same area.
    const gus = await kit.member('Gus', shift(east, 18, 0));
    const pair = await acceptedBetween(eve, finn);
    const places = kit.ok<HandOverPlaces>(await kit.call(eve, 'GET', planUrl(pair, '/places')));
    expect(places.spots).toEqual([]);
    const expected = await fairestNamedArea([await publicPointOf(eve), await publicPointOf(finn)]);
    expect(places.fairestArea).toEqual({ name: expected?.displayName });
    // kit.call refuses any answer with a latitude or longitude; the name is all that is said.
    expect(Object.keys(places.fairestArea ?? {})).toEqual(['name']);

    // A circle of three: the area is fair to every member of the circle, not only the hand-over's two.
    const [drill, tent, guitar] = [await kit.item(eve), await kit.item(finn), await kit.item(gus)];
    const now = new Date();
    const [circle] = await kit
      .db()
      .insert(circles)
      .values({ status: 'accepted', size: 3, expiresAt: now, acceptedAt: now })
      .returning();
    const written = await kit.db().transaction((tx) =>
      createHandOvers(
        tx,
        circle?.id as number,
        [
          { giverId: eve.id, receiverId: finn.id, itemId: drill.id },
          { giverId: finn.id, receiverId: gus.id, itemId: tent.id },
          { giverId: gus.id, receiverId: eve.id, itemId: guitar.id },
        ],
        { sharedThread: false, now },
      ),
    );
    const [eveToFinn] = written.barterIds as [number];
    const circlePlaces = kit.ok<HandOverPlaces>(await kit.call(finn, 'GET', planUrl(eveToFinn, '/places')));
    const fairToAll = await fairestNamedArea(
      await Promise.all([eve, finn, gus].map((m) => publicPointOf(m))),
    );
    expect(circlePlaces.fairestArea).toEqual({ name: fairToAll?.displayName });
    expect(fairToAll?.displayName).not.toBe(expected?.displayName);
    // Gus is not a member of this hand-over: 404.
    kit.refused(await kit.call(gus, 'GET', planUrl(eveToFinn, '/places')), 404, 'NOT_FOUND');

    // A member without a location: nothing to suggest from.
    await kit.db().update(users).set({ latitude: null, longitude: null }).where(eq(users.id, finn.id));
    expect(kit.ok<HandOverPlaces>(await kit.call(eve, 'GET', planUrl(pair, '/places')))).toEqual({
      spots: [],
      fairestArea: null,
    });
  });
});
