import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ItemDetail } from '#common/schemas/feed.ts';
import type { Db } from '../db/client';
import { mulberry32 } from '../lib/random';
import { createItem, createUser, sessionCookiesFor } from '../test/factories';
import { publicPointOf } from '../test/geo';
import { buildTestApp, type TestApp } from '../test/helpers';
import { KM_PER_DEGREE, KM_PER_MILE, kmBetween, milesBetween, type Point } from './earth';
import { cellAt, cellOf, OFFSET_KM } from './public-point';

/**
 * Issue 12 point 2, as the outside probe did it: an attacker moves their own location with
 * PUT /api/user/profile (the rate limit raised for the test) and bisects where a victim's rounded
 * `distanceMiles` flips (item detail), which pins circles of known radius; three or more circles
 * locate the point the distances are measured to. Against exact distances that is the victim's home
 * to within metres; with public points it is the public point, on average well over 0.4 km away.
 */

const RADIANS = Math.PI / 180;
const VICTIMS = 20;
/** Bisection stops when the bracket is this short (km): 4 m. */
const PRECISION_KM = 0.004;

/** The attacker's flat map around `origin`: km east and north to a point. */
const planar = (origin: Point) => {
  const kmPerLonDegree = KM_PER_DEGREE * Math.cos(origin.latitude * RADIANS);
  return (x: number, y: number): Point => ({
    latitude: origin.latitude + y / KM_PER_DEGREE,
    longitude: origin.longitude + x / kmPerLonDegree,
  });
};

/** The rounded distance (miles) the victim is shown at when the attacker stands at a point. */
type Oracle = (attacker: Point) => Promise<number>;

interface Circle {
  x: number;
  y: number;
  /** km */
  r: number;
}

/**
 * Walk from `base` along `dir` until the rounded distance changes, then bisect to where it flips:
 * there the distance is exactly halfway between the two rounded values.
 */
async function flip(oracle: Oracle, toPoint: (x: number, y: number) => Point, base: number[], dir: number[]) {
  const [bx = 0, by = 0] = base;
  const [ux = 0, uy = 0] = dir;
  const ask = (t: number) => oracle(toPoint(bx + t * ux, by + t * uy));
  const first = await ask(0);
  let lo = 0;
  let hi = Number.NaN;
  let high = first;
  for (const t of [0.4, 0.8, 1.6, 3.2, -0.4, -0.8, -1.6, -3.2]) {
    high = await ask(t);
    if (high !== first) {
      hi = t;
      break;
    }
  }
  if (Number.isNaN(hi)) throw new Error('no flip found');
  while (Math.abs(hi - lo) > PRECISION_KM) {
    const mid = (lo + hi) / 2;
    const value = await ask(mid);
    if (value === first) lo = mid;
    else [hi, high] = [mid, value];
  }
  const t = (lo + hi) / 2;
  return { x: bx + t * ux, y: by + t * uy, r: ((first + high) / 2) * KM_PER_MILE };
}

/** Least-squares intersection of circles on the flat map (each minus the first: linear in x, y). */
function trilaterate(circles: Circle[]): { x: number; y: number } {
  const [c0, ...rest] = circles;
  if (!c0) throw new Error('no circles');
  let a11 = 0;
  let a12 = 0;
  let a22 = 0;
  let b1 = 0;
  let b2 = 0;
  for (const c of rest) {
    const ax = 2 * (c.x - c0.x);
    const ay = 2 * (c.y - c0.y);
    const b = c0.r ** 2 - c.r ** 2 - c0.x ** 2 + c.x ** 2 - c0.y ** 2 + c.y ** 2;
    a11 += ax * ax;
    a12 += ax * ay;
    a22 += ay * ay;
    b1 += ax * b;
    b2 += ay * b;
  }
  const det = a11 * a22 - a12 * a12;
  return { x: (b1 * a22 - b2 * a12) / det, y: (a11 * b2 - a12 * b1) / det };
}

/** Three flips from the corners of a triangle around `start` (the town), then the point they agree on. */
async function locate(oracle: Oracle, start: Point): Promise<Point> {
  const toPoint = planar(start);
  const circles = [
    await flip(oracle, toPoint, [-3, -2.5], [1, 0]),
    await flip(oracle, toPoint, [3, -2.5], [-Math.SQRT1_2, Math.SQRT1_2]),
    await flip(oracle, toPoint, [0, 3], [0, -1]),
  ];
  const { x, y } = trilaterate(circles);
  return toPoint(x, y);
}

/**
 * The best guess of an attacker who also knows the grid: the centres of the cells the found point
 * can have been drawn from (0.4 to 0.8 km away), weighted by how likely each draw is (1/r).
 */
function gridGuess(found: Point): Point {
  const home = cellOf(found);
  let weight = 0;
  let latitude = 0;
  let longitude = 0;
  for (let row = home.row - 2; row <= home.row + 2; row++) {
    const column = cellOf({ latitude: cellAt(row, 0).centre.latitude, longitude: found.longitude }).column;
    for (let c = column - 2; c <= column + 2; c++) {
      const centre = cellAt(row, c).centre;
      const r = kmBetween(found, centre);
      if (r < OFFSET_KM.min - 0.01 || r > OFFSET_KM.max + 0.01) continue;
      weight += 1 / r;
      latitude += centre.latitude / r;
      longitude += centre.longitude / r;
    }
  }
  return weight > 0 ? { latitude: latitude / weight, longitude: longitude / weight } : found;
}

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

describe('triangulating members from their distances', () => {
  let t: TestApp;
  let attackerCookies: Record<string, string>;
  const random = mulberry32(20240612);
  /** Where each victim lives and where the attacker starts looking (the victim's town). */
  const victims: Array<{ home: Point; start: Point; itemId: number; public: Point }> = [];

  beforeAll(async () => {
    t = await buildTestApp({ LOCATION_CHANGE_RATE_LIMIT: '100000' });
    const attacker = await createUser(t.app.db, { firstName: 'Mallory' });
    attackerCookies = await sessionCookiesFor(t.app, attacker);
    // The database draws public points with random(): seeded on the one connection of this
    // transaction, so the draws (and so this test's outcome) are the same every run.
    await t.app.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT setseed(0.42)`);
      for (let n = 0; n < VICTIMS; n++) await addVictim(tx, n);
    });
  });
  afterAll(() => t.close());

  /** A victim in a town anywhere in the inhabited latitudes, up to 2 km from the town's centre. */
  async function addVictim(db: Db, n: number) {
    const start = { latitude: -55 + 115 * random(), longitude: -170 + 340 * random() };
    const bearing = 2 * Math.PI * random();
    const km = 0.3 + 1.7 * random();
    const home = planar(start)(km * Math.sin(bearing), km * Math.cos(bearing));
    const victim = await createUser(db, { firstName: `Victim${n}`, ...home });
    const item = await createItem(db, { userId: victim.id, title: `Bicycle ${n}` });
    const point = publicPointOf(victim);
    if (!point) throw new Error('a victim without a public point');
    victims.push({
      home: { latitude: Number(victim.latitude), longitude: Number(victim.longitude) },
      start,
      itemId: item.id,
      public: point,
    });
  }

  /** The distance the API shows the attacker, standing at `attacker`, for the victim's item. */
  const shownDistance =
    (itemId: number): Oracle =>
    async (attacker) => {
      const moved = await t.app.inject({
        method: 'PUT',
        url: '/api/user/profile',
        cookies: attackerCookies,
        payload: { location: 'Anywhere', ...attacker, maxTravelDistance: 25 },
      });
      expect(moved.statusCode, moved.body).toBe(200);
      const detail = await t.app.inject({
        method: 'GET',
        url: `/api/items/${itemId}`,
        cookies: attackerCookies,
      });
      const miles = detail.json<ItemDetail>().distanceMiles;
      if (miles === null) throw new Error('no distance shown');
      return miles;
    };

  it('the attack itself works: against exact distances (the old code, simulated) it finds every home to metres', async () => {
    const errors: number[] = [];
    for (const victim of victims.slice(0, 5)) {
      const exact: Oracle = async (attacker) => Math.round(milesBetween(attacker, victim.home) * 10) / 10;
      errors.push(kmBetween(await locate(exact, victim.start), victim.home));
    }
    expect(Math.max(...errors)).toBeLessThan(0.03);
  });

  it(`ends on average more than 0.4 km from ${VICTIMS} members' homes through the API`, async () => {
    const errors: number[] = [];
    const gridErrors: number[] = [];
    const offPublic: number[] = [];
    for (const victim of victims) {
      const found = await locate(shownDistance(victim.itemId), victim.start);
      errors.push(kmBetween(found, victim.home));
      gridErrors.push(kmBetween(gridGuess(found), victim.home));
      offPublic.push(kmBetween(found, victim.public));
    }
    // About 0.61 km with this seed (0.68 km expected over all draws), however many requests.
    expect(mean(errors)).toBeGreaterThan(0.4);
    // Knowing the grid and how offsets are drawn does not help enough either (about 0.54 km here).
    expect(mean(gridErrors)).toBeGreaterThan(0.4);
    // Nothing finer than the public point leaks; and since the attacker is measured from their own
    // public point too (ADR 059), moving their exact point only moves it a cell at a time: the attack
    // does not even find the victim's public point precisely (it did, to 0.03 km, from an exact origin).
    expect(mean(offPublic)).toBeGreaterThan(0.1);
  }, 300_000);
});
