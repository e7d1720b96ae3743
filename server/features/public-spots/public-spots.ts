import { and, asc, desc, eq, gte, isNull, lte } from 'drizzle-orm';
import {
  type AddPublicSpotInput,
  type EditPublicSpotInput,
  PUBLIC_SPOT_ERROR_CODES,
  type PublicSpot,
  type PublicSpotKind,
  type SpotSuggestion,
} from '#common/schemas/public-spots.ts';
import type { Db } from '../../db/client';
import { type PublicSpotRow, publicSpots } from '../../db/schema/public-spots';
import { users } from '../../db/schema/users';
import { badRequest, conflict, notFound } from '../../errors';
import { milesBetween, type Point } from '../../geo/earth';
import { boundingBox } from '../../geo/sql';
import { townNear } from '../places';

// The moderators' list of public spots for hand-overs (issue 30, ADR 080). Spots are public places
// (a library, a station), so their own positions are no secret; members' positions are: a spot is
// measured from members' PUBLIC points only, and no distance leaves the server.

/** How many spots a plan's form offers at most. */
export const SPOT_SUGGESTIONS_MAX = 8;

type Actor = { id: string };

function present(row: PublicSpotRow & { addedByName: string | null }): PublicSpot {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind as PublicSpotKind,
    area: row.areaName,
    place: row.placeName,
    latitude: row.latitude,
    longitude: row.longitude,
    source: row.source,
    addedBy: row.addedByName,
    addedAt: row.addedAt.toISOString(),
  };
}

const listColumns = { spot: publicSpots, displayName: users.displayName };

type ListRow = { spot: PublicSpotRow; displayName: string | null };
/** The moderator who added it, by the name members see (null once their account is gone). */
const withAdder = (row: ListRow) => present({ ...row.spot, addedByName: row.displayName });

/** The spots moderators keep, by area then name (removed ones left out). */
export async function listPublicSpots(db: Db): Promise<PublicSpot[]> {
  const rows = await db
    .select(listColumns)
    .from(publicSpots)
    .leftJoin(users, eq(users.id, publicSpots.addedBy))
    .where(isNull(publicSpots.removedAt))
    .orderBy(asc(publicSpots.areaName), asc(publicSpots.name), desc(publicSpots.id));
  return rows.map(withAdder);
}

/** A moderator adds a spot; its area is the town nearest the place chosen in the place search. */
export async function addPublicSpot(
  db: Db,
  moderator: Actor,
  input: AddPublicSpotInput,
): Promise<PublicSpot> {
  const point = { latitude: input.place.latitude, longitude: input.place.longitude };
  const area = (await townNear(point))?.displayName ?? input.place.displayName;
  const [row] = await db
    .insert(publicSpots)
    .values({
      name: input.name,
      kind: input.kind,
      areaName: area,
      placeName: input.place.displayName,
      latitude: point.latitude,
      longitude: point.longitude,
      source: input.source,
      addedBy: moderator.id,
    })
    .returning();
  if (!row) throw new Error('public spot not stored');
  return readBack(db, row.id);
}

/** A spot as the moderators' list shows it, read after a write. */
async function readBack(db: Db, id: number): Promise<PublicSpot> {
  const [row] = await db
    .select(listColumns)
    .from(publicSpots)
    .leftJoin(users, eq(users.id, publicSpots.addedBy))
    .where(eq(publicSpots.id, id));
  if (!row) throw new Error('public spot not read back');
  return withAdder(row);
}

/**
 * A moderator corrects a spot on the list (name, kind, place, source): 404 when it is not on the list
 * (never added, or removed: a removed spot is added again instead). Its area follows the new place.
 * Plans that chose it keep the name they agreed on (`hand_over_plans.place_name`); new plans offer
 * the corrected spot. Who added it stays.
 */
export async function editPublicSpot(db: Db, id: number, input: EditPublicSpotInput): Promise<PublicSpot> {
  const point = { latitude: input.place.latitude, longitude: input.place.longitude };
  const area = (await townNear(point))?.displayName ?? input.place.displayName;
  // One statement: a removal at the same moment either comes first (404 here) or after the edit.
  const [row] = await db
    .update(publicSpots)
    .set({
      name: input.name,
      kind: input.kind,
      areaName: area,
      placeName: input.place.displayName,
      latitude: point.latitude,
      longitude: point.longitude,
      source: input.source,
    })
    .where(and(eq(publicSpots.id, id), isNull(publicSpots.removedAt)))
    .returning({ id: publicSpots.id });
  if (!row) throw notFound('This spot is not on the list (removed already?).');
  return readBack(db, row.id);
}

/** A moderator removes a spot: no longer offered nor accepted; plans that chose it keep its name. */
export async function removePublicSpot(db: Db, moderator: Actor, id: number): Promise<void> {
  const [row] = await db
    .update(publicSpots)
    .set({ removedAt: new Date(), removedBy: moderator.id })
    .where(and(eq(publicSpots.id, id), isNull(publicSpots.removedAt)))
    .returning({ id: publicSpots.id });
  if (!row) throw notFound('This spot is not on the list (removed already?).');
}

/**
 * A spot a plan may choose: 400 PUBLIC_SPOT_UNKNOWN when there is none with that id, 409
 * PUBLIC_SPOT_REMOVED when moderators removed it.
 */
export async function liveSpot(db: Db, id: number): Promise<{ id: number; name: string }> {
  const [row] = await db
    .select({ id: publicSpots.id, name: publicSpots.name, removedAt: publicSpots.removedAt })
    .from(publicSpots)
    .where(eq(publicSpots.id, id))
    // Inside the plan's transaction: a removal waits until the plan that chose the spot is stored.
    .for('share');
  if (!row) throw badRequest('There is no such public spot.', PUBLIC_SPOT_ERROR_CODES.unknown);
  if (row.removedAt !== null) {
    throw conflict(
      'Moderators removed this public spot from the list. Choose another place.',
      PUBLIC_SPOT_ERROR_CODES.removed,
    );
  }
  return { id: row.id, name: row.name };
}

/** A spot scored against some members: the larger distance to one of them, and the sum. */
export interface ScoredSpot {
  row: { id: number; name: string };
  max: number;
  sum: number;
}

/** Fairest first: the smaller larger distance, then the smaller sum, then by name and id. */
export const byFairness = (a: ScoredSpot, b: ScoredSpot) =>
  a.max - b.max || a.sum - b.sum || a.row.name.localeCompare(b.row.name) || a.row.id - b.row.id;

/** A member as a spot is measured from: their public point and how far they said they travel. */
export interface SpotMember {
  point: Point;
  /** Their travel distance in miles (users.max_travel_distance). */
  travelMiles: number;
}

/**
 * Spots near every member: within each member's own travel distance of their PUBLIC point (the
 * "near" the matching already uses). Fairest first: the larger distance to a member, then the sum,
 * then the name. Names only in the answer: no distance to anyone.
 */
export async function spotsNear(db: Db, members: readonly SpotMember[]): Promise<SpotSuggestion[]> {
  if (members.length === 0) return [];
  // Every spot near all of them is inside the first member's box (a btree range on the live spots).
  const [first] = members;
  if (!first) return [];
  const box = boundingBox(first.point, first.travelMiles);
  const rows = await db
    .select()
    .from(publicSpots)
    .where(
      and(
        isNull(publicSpots.removedAt),
        gte(publicSpots.latitude, box.latMin),
        lte(publicSpots.latitude, box.latMax),
        ...(box.lon
          ? [gte(publicSpots.longitude, box.lon.min), lte(publicSpots.longitude, box.lon.max)]
          : []),
      ),
    );
  const scored = [];
  for (const row of rows) {
    let max = 0;
    let sum = 0;
    let near = true;
    for (const member of members) {
      const miles = milesBetween(member.point, row);
      if (miles > member.travelMiles) near = false;
      max = Math.max(max, miles);
      sum += miles;
    }
    if (near) scored.push({ row, max, sum });
  }
  scored.sort(byFairness);
  return scored.slice(0, SPOT_SUGGESTIONS_MAX).map(({ row }) => ({
    id: row.id,
    name: row.name,
    kind: row.kind as PublicSpotKind,
    area: row.areaName,
  }));
}
