import { and, count, desc, eq, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type Page, type PageRequest, withTotal } from '../../db/paging';
import { items, ratings, wants } from '../../db/schema/trading';
import { users } from '../../db/schema/users';
import type { Point } from '../../geo/earth';
import { distanceMiles, itemPoint, usersPublicPoint } from '../../geo/sql';
import { type FeedRow, readCardPage } from '../feed';
import type { MemberRefRow } from '../member-refs';

/** What a member's page is made of, from `users`: no e-mail, no exact point, no location text. */
export interface MemberRow extends MemberRefRow {
  id: string;
  createdAt: Date;
  /** A few words about themselves (moderated), or null. */
  bio: string | null;
  /** The member's public point (ADR 015); null without a location. */
  publicPoint: Point | null;
}

/** The member's public columns, or null when there is no such member. */
export async function findMember(db: Db, userId: string): Promise<MemberRow | null> {
  const [row] = await db
    .select({
      id: users.id,
      displayName: users.displayName,
      firstName: users.firstName,
      lastName: users.lastName,
      profileImageUrl: users.profileImageUrl,
      bio: users.bio,
      createdAt: users.createdAt,
      latitude: sql<number | null>`${usersPublicPoint.latitude}::float8`,
      longitude: sql<number | null>`${usersPublicPoint.longitude}::float8`,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) return null;
  const { latitude, longitude, ...member } = row;
  return {
    ...member,
    publicPoint: latitude === null || longitude === null ? null : { latitude, longitude },
  };
}

/** A rating received, with its rater's name columns (null when their account was deleted). */
export interface ReceivedRatingRow {
  id: number;
  stars: number;
  comment: string | null;
  createdAt: Date;
  rater: MemberRefRow;
}

/** One page of the ratings the member received and revealed by `now`, newest first, with how many in all. */
export async function findReceivedRatings(
  db: Db,
  userId: string,
  page: PageRequest,
  now: Date = new Date(),
): Promise<Page<ReceivedRatingRow>> {
  // Ratings a moderator removed are left out (ADR 025), and those not revealed yet (ADR 074).
  const received = and(eq(ratings.rateeId, userId), isNull(ratings.removedAt), lte(ratings.revealedAt, now));
  const rows = await db
    .select({
      id: ratings.id,
      stars: ratings.stars,
      comment: ratings.comment,
      createdAt: ratings.createdAt,
      raterId: users.id,
      displayName: users.displayName,
      firstName: users.firstName,
      lastName: users.lastName,
      profileImageUrl: users.profileImageUrl,
    })
    .from(ratings)
    .leftJoin(users, eq(users.id, ratings.raterId))
    .where(received)
    .orderBy(desc(ratings.createdAt), desc(ratings.id))
    .limit(page.limit)
    .offset(page.offset);
  const found = rows.map(({ raterId, displayName, firstName, lastName, profileImageUrl, ...rating }) => ({
    ...rating,
    rater: { id: raterId, displayName, firstName, lastName, profileImageUrl },
  }));
  return withTotal(found, page, async () => {
    const [row] = await db.select({ n: count() }).from(ratings).where(received);
    return row?.n ?? 0;
  });
}

/** The member's items others may be offered: active and not held by an accepted barter. */
const listed = (userId: string) =>
  and(eq(items.userId, userId), eq(items.isActive, true), isNull(items.reservedByRequestId));

/**
 * One page of the member's listed items (active, unreserved), newest first, as feed cards for the
 * viewer (their saved flags; distance from the viewer's own point to the owner's public point, 0 for
 * the viewer's own items as in the item detail), with how many in all.
 */
export async function findListedItems(
  db: Db,
  viewerId: string,
  origin: Point | null,
  userId: string,
  lookingFor: number,
  page: PageRequest,
): Promise<Page<FeedRow>> {
  const distance = origin && viewerId === userId ? sql`0::float8` : distanceMiles(origin, itemPoint('items'));
  const pageQuery = sql`SELECT ${items.id}, ${items.createdAt}, ${distance} AS distance FROM ${items}
    WHERE ${listed(userId)}
    ORDER BY ${items.createdAt} DESC, ${items.id} DESC
    LIMIT ${page.limit}::int OFFSET ${page.offset}::int`;
  const rows = await readCardPage(db, {
    page: pageQuery,
    viewerId,
    order: [
      ['created_at', 'DESC'],
      ['id', 'DESC'],
    ],
    lookingFor,
  });
  return withTotal(rows, page, async () => {
    const [row] = await db.select({ n: count() }).from(items).where(listed(userId));
    return row?.n ?? 0;
  });
}

/** The member's active wants, newest first, at most `limit`. */
export async function findActiveWants(db: Db, userId: string, limit: number) {
  return db
    .select({ id: wants.id, title: wants.title, category: wants.category, isService: wants.isService })
    .from(wants)
    .where(and(eq(wants.userId, userId), eq(wants.isActive, true)))
    .orderBy(desc(wants.createdAt), desc(wants.id))
    .limit(limit);
}
