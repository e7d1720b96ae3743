import { type FeedItem, LOOKING_FOR_ON_CARD } from '#common/schemas/feed.ts';
import {
  MEMBER_WANTS_MAX,
  type MemberProfile,
  type MemberRating,
  type MemberWant,
} from '#common/schemas/members.ts';
import type { Db } from '../../db/client';
import type { Page, PageRequest } from '../../db/paging';
import type { UserRow } from '../../db/schema/users';
import { notFound } from '../../errors';
import { viewerPoint } from '../../geo/earth';
import { presentFeedItem } from '../feed';
import { isMemberId, requireMemberId } from '../member-refs';
import { nearestPlace } from '../places';
import { tradeStatsOf } from '../trades';
import { presentMemberProfile, presentMemberRating, presentMemberWant } from './members-presenter';
import { findActiveWants, findListedItems, findMember, findReceivedRatings } from './members-repository';

/**
 * The approximate area of a member: the name of the town nearest their PUBLIC point, from the
 * bundled place list (no network). Never the exact point, and never the location text they saved,
 * which reverse geocoding can make a street address.
 */
function areaOf(publicPoint: { latitude: number; longitude: number } | null): string | null {
  if (!publicPoint) return null;
  return nearestPlace(publicPoint.latitude, publicPoint.longitude)?.displayName ?? null;
}

/** A member's public page (GET /api/members/:id); 404 for a malformed or unknown id. */
export async function getMemberProfile(db: Db, id: string): Promise<MemberProfile> {
  const member = isMemberId(id) ? await findMember(db, id) : null;
  if (!member) throw notFound('Member not found.');
  const stats = await tradeStatsOf(db, member.id);
  return presentMemberProfile(member, areaOf(member.publicPoint), stats);
}

/** A page of the ratings a member received, newest first, and how many in all. */
export async function listMemberRatings(db: Db, id: string, page: PageRequest): Promise<Page<MemberRating>> {
  const memberId = await requireMemberId(db, id);
  const found = await findReceivedRatings(db, memberId, page);
  return { rows: found.rows.map(presentMemberRating), total: found.total };
}

/** A page of a member's listed items as feed cards for the viewer, and how many in all. */
export async function listMemberItems(
  db: Db,
  viewer: UserRow,
  id: string,
  page: PageRequest,
): Promise<Page<FeedItem>> {
  const memberId = await requireMemberId(db, id);
  const found = await findListedItems(
    db,
    viewer.id,
    viewerPoint(viewer),
    memberId,
    LOOKING_FOR_ON_CARD,
    page,
  );
  return { rows: found.rows.map((row) => presentFeedItem(row)), total: found.total };
}

/** A member's active wants, newest first (at most MEMBER_WANTS_MAX). */
export async function listMemberWants(db: Db, id: string): Promise<MemberWant[]> {
  const memberId = await requireMemberId(db, id);
  return (await findActiveWants(db, memberId, MEMBER_WANTS_MAX)).map(presentMemberWant);
}
