import type { MemberProfile, MemberRating, MemberWant } from '#common/schemas/members.ts';
import type { TradeStats } from '#common/schemas/trades.ts';
import { isTrustedTrader } from '#common/trader-reputation.ts';
import { approximateArea } from '../../geo/approximate-area';
import { presentMemberRef } from '../member-refs';
import type { MemberRow, ReceivedRatingRow } from './members-repository';

/**
 * A member's public page. A whitelist: the name as "Ann R." and picture (presentMemberRef), the
 * town near their public point (`area`, looked up by the service), when they joined, their record.
 */
export function presentMemberProfile(row: MemberRow, area: string | null, stats: TradeStats): MemberProfile {
  const ref = presentMemberRef(row);
  return {
    id: row.id,
    displayName: ref.displayName,
    profileImageUrl: ref.profileImageUrl,
    area,
    // From the public point only (ADR 015, ADR 032).
    approximateArea: approximateArea(row.publicPoint, area),
    memberSince: row.createdAt.toISOString(),
    stats,
    trustedTrader: isTrustedTrader(stats),
    bio: row.bio,
  };
}

/** A rating received, with who gave it as a member reference. */
export function presentMemberRating(row: ReceivedRatingRow): MemberRating {
  return {
    id: row.id,
    stars: row.stars,
    comment: row.comment,
    rater: presentMemberRef(row.rater),
    createdAt: row.createdAt.toISOString(),
  };
}

export function presentMemberWant(row: MemberWant): MemberWant {
  return { id: row.id, title: row.title, category: row.category, isService: row.isService };
}
