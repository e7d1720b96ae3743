import type { Item, ItemTrade } from '#common/schemas/listings.ts';
import type { ItemRow } from '../../db/schema/trading';
import { itemAllowedActions } from '../../policies/listing-policy';
import { presentMemberRef } from '../member-refs';
import type { ItemTradeRow } from './items-repository';

/** Where a traded item went (issue 30); null while it is the owner's. */
function presentTrade(row: ItemRow, trade: ItemTradeRow | null | undefined): ItemTrade | null {
  if (row.tradedAt === null) return null;
  const to = presentMemberRef(trade?.receiver);
  return {
    at: row.tradedAt.toISOString(),
    barterRequestId: trade?.barterRequestId ?? row.tradedInRequestId,
    to: { id: to.id, displayName: to.displayName },
    swapDay: trade?.swapDay ?? null,
  };
}

/**
 * A stale listing's state (ADR 088): asked "Still available?" and not answered, or out of the feeds
 * for want of an answer (inactive with stale_paused_at); null otherwise (an item the owner hid after
 * it left the feeds answered the question).
 */
function presentStale(row: ItemRow): Item['stale'] {
  const paused = !row.isActive && row.stalePausedAt !== null;
  if (paused) {
    return {
      askedAt: (row.staleAskedAt ?? row.stalePausedAt)?.toISOString() ?? '',
      pausedAt: row.stalePausedAt?.toISOString() ?? null,
    };
  }
  if (row.isActive && row.staleAskedAt !== null)
    return { askedAt: row.staleAskedAt.toISOString(), pausedAt: null };
  return null;
}

/**
 * An item as its owner sees it. A whitelist: the owner's id and anything added to the table later
 * stay on the server until a presenter option asks for them.
 */
export function presentItem(row: ItemRow & { trade?: ItemTradeRow | null }): Item {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category: row.category,
    isService: row.isService,
    imageUrl: row.imageUrl,
    // Items stored before feed-size photos existed (and the demo illustrations) only have the large one.
    thumbnailUrl: row.thumbnailUrl ?? row.imageUrl,
    photos: row.photos,
    condition: row.condition,
    estimatedValue: row.estimatedValue,
    isActive: row.isActive,
    moderation: row.moderation,
    isReserved: row.reservedByRequestId !== null,
    traded: presentTrade(row, row.trade),
    allowedActions: itemAllowedActions({ id: row.userId }, row),
    confirmedAt: row.confirmedAt.toISOString(),
    stale: presentStale(row),
    viewCount: row.viewCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
