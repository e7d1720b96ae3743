import { shownNameParts } from '#common/member-name.ts';
import { FEED_DESCRIPTION_MAX_LENGTH, type FeedItem, type ItemDetail } from '#common/schemas/feed.ts';
import type { ApproximateArea } from '#common/schemas/places.ts';
import type { FeedRow } from './feed-types';
import { matchReason } from './match-reason';

/** At most `max` characters (code points), ending in "…" when cut. */
export function shorten(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars
    .slice(0, max - 1)
    .join('')
    .trimEnd()}…`;
}

/** "O." from "O": the initial only, so a card never shows a member's whole last name. */

export interface PresentOptions {
  /** Barter Match: the score and its reasons. */
  withMatch?: boolean;
}

/**
 * A feed card (spec section 3 feed items, docs/product.md). A whitelist: the owner appears by id,
 * first name, last initial and photo; their e-mail and coordinates never leave the server (the
 * distance is computed there).
 */
export function presentFeedItem(row: FeedRow, options: PresentOptions = {}): FeedItem {
  const summary = row.owner;
  const item: FeedItem = {
    id: row.id,
    title: row.title,
    description: shorten(row.description, FEED_DESCRIPTION_MAX_LENGTH),
    category: row.category,
    isService: row.isService,
    imageUrl: row.imageUrl,
    thumbnailUrl: row.thumbnailUrl ?? row.imageUrl,
    condition: row.condition,
    estimatedValue: row.estimatedValue,
    createdAt: row.createdAt,
    isSaved: row.isSaved,
    user: {
      id: row.userId,
      ...shownNameParts(row.shownName, row.firstName, row.lastInitial),
      profileImageUrl: row.profileImageUrl,
    },
    distanceMiles: row.distanceMiles,
    owner: {
      rating: summary.averageRating,
      completedTrades: summary.completedTrades,
      handOvers: summary.handOvers,
    },
    lookingFor: row.lookingFor,
  };
  if (options.withMatch && row.match) {
    const reason = matchReason(row.match);
    item.match = {
      score: row.match.score,
      wantId: row.match.wantId,
      wantTitle: row.match.wantTitle,
      ...(reason ? { reason } : {}),
      mutual: row.match.mutual,
      ...(row.match.mutual && row.match.theirWantTitle ? { theirWantTitle: row.match.theirWantTitle } : {}),
    };
  }
  return item;
}

/** An item's detail: the card with the whole description, the match when there is one, and whose it is. */
export function presentItemDetail(
  row: FeedRow,
  viewerId: string,
  approximateArea: ApproximateArea | null = null,
): ItemDetail {
  return {
    ...presentFeedItem(row, { withMatch: true }),
    description: row.description,
    photos: row.photos ?? [],
    isOwn: row.userId === viewerId,
    isActive: row.isActive,
    approximateArea,
  };
}
