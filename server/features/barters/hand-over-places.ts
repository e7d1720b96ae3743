import { eq, inArray } from 'drizzle-orm';
import type { HandOverPlaces } from '#common/schemas/public-spots.ts';
import type { Db } from '../../db/client';
import { barterRequests } from '../../db/schema/trading';
import { users } from '../../db/schema/users';
import { type Point, viewerPoint } from '../../geo/earth';
import { fairestNamedArea } from '../places';
import { type SpotMember, spotsNear } from '../public-spots';
import { barterNotFound } from './barters-service';
import { notAccepted } from './hand-over-plans';

// Where to meet (issue 30, ADR 080): the public spots near both members of a hand-over, fairest first;
// when none is near, the fairest named area between them (for a circle's hand-over, between every
// member of the circle). Measured from PUBLIC points only (ADR 015), and only names leave the server.

async function publicPointsOf(
  db: Db,
  ids: string[],
): Promise<Map<string, { point: Point | null; travelMiles: number }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: users.id,
      publicLatitude: users.publicLatitude,
      publicLongitude: users.publicLongitude,
      travelMiles: users.maxTravelDistance,
    })
    .from(users)
    .where(inArray(users.id, ids));
  return new Map(rows.map((row) => [row.id, { point: viewerPoint(row), travelMiles: row.travelMiles }]));
}

/** The members of a circle (or swap-day loop): everyone on either side of one of its hand-overs. */
async function circleMemberIds(db: Db, circleId: number): Promise<string[]> {
  const rows = await db
    .select({ from: barterRequests.fromUserId, to: barterRequests.toUserId })
    .from(barterRequests)
    .where(eq(barterRequests.circleId, circleId));
  const ids = new Set<string>();
  for (const row of rows) {
    if (row.from) ids.add(row.from);
    if (row.to) ids.add(row.to);
  }
  return [...ids];
}

/** What the plan form offers as places: 404 for others, 409 BARTER_TRANSITION when not accepted. */
export async function handOverPlaces(db: Db, member: { id: string }, id: number): Promise<HandOverPlaces> {
  const [request] = await db
    .select({
      status: barterRequests.status,
      fromUserId: barterRequests.fromUserId,
      toUserId: barterRequests.toUserId,
      circleId: barterRequests.circleId,
    })
    .from(barterRequests)
    .where(eq(barterRequests.id, id));
  if (!request || (request.fromUserId !== member.id && request.toUserId !== member.id))
    throw barterNotFound();
  if (request.status !== 'accepted') throw notAccepted(request.status);

  const pair = [request.fromUserId, request.toUserId].filter((m): m is string => m !== null);
  const everyone = request.circleId === null ? pair : await circleMemberIds(db, request.circleId);
  const points = await publicPointsOf(db, [...new Set([...pair, ...everyone])]);

  // Both members of this hand-over need a place on the map; a former member's side has none.
  const spotMembers: SpotMember[] = [];
  for (const memberId of pair) {
    const found = points.get(memberId);
    if (found?.point) spotMembers.push({ point: found.point, travelMiles: found.travelMiles });
  }
  const spots = pair.length === 2 && spotMembers.length === 2 ? await spotsNear(db, spotMembers) : [];
  if (spots.length > 0) return { spots, fairestArea: null };

  const areaPoints = everyone.map((m) => points.get(m)?.point ?? null);
  if (areaPoints.length < 2 || areaPoints.some((p) => p === null)) return { spots, fairestArea: null };
  const area = await fairestNamedArea(areaPoints as Point[]);
  return { spots, fairestArea: area ? { name: area.displayName } : null };
}
