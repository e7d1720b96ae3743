import type { Item } from '../../../common/schemas/listings';
import type { ItemRow } from '../../db/schema/items';
import { itemAllowedActions } from '../../policies/listing-policy';

/**
 * An item as its owner sees it. A whitelist: the owner's id and anything added to the table later
 * stay on the server until a presenter option asks for them.
 */
export function presentItem(row: ItemRow): Item {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category: row.category,
    isService: row.isService,
    imageUrl: row.imageUrl,
    // Items stored before feed-size photos existed (and the demo illustrations) only have the large one.
    thumbnailUrl: row.thumbnailUrl ?? row.imageUrl,
    estimatedValue: row.estimatedValue,
    isActive: row.isActive,
    moderation: row.moderation,
    isReserved: row.reservedByRequestId !== null,
    allowedActions: itemAllowedActions({ id: row.userId }, row),
    viewCount: row.viewCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
