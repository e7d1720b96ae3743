import { asc, sql } from 'drizzle-orm';
import { intArray } from '../../db/arrays';
import type { Db } from '../../db/client';
import { items } from '../../db/schema/trading';

/** An item as a barter, a circle or a swap day's match checks it before it changes hands. */
export interface ItemStateRow {
  id: number;
  userId: string;
  title: string;
  category: string;
  isService: boolean;
  isActive: boolean;
  reservedByRequestId: number | null;
  estimatedValue: number | null;
}

/**
 * How a transaction holds the items it read: `share` while it checks them for a proposal (none may
 * be reserved meanwhile), `no key update` when it reserves them (an accept, a circle's or a swap
 * day's hand-overs), null to read without a lock.
 */
export type ItemLockStrength = 'share' | 'no key update' | null;

/**
 * These items' states, locked in id order: one order for every transaction that reserves items
 * (barters, circles, swap days), so two never wait on each other crosswise and two barters never
 * reserve one item. One array parameter however many ids (a 100-member swap day offers 1,000).
 */
export async function lockItemsInIdOrder(
  db: Db,
  ids: readonly number[],
  strength: ItemLockStrength,
): Promise<ItemStateRow[]> {
  if (ids.length === 0) return [];
  const query = db
    .select({
      id: items.id,
      userId: items.userId,
      title: items.title,
      category: items.category,
      isService: items.isService,
      isActive: items.isActive,
      reservedByRequestId: items.reservedByRequestId,
      estimatedValue: items.estimatedValue,
    })
    .from(items)
    .where(sql`${items.id} = ANY(${intArray(ids)}::int[])`)
    .orderBy(asc(items.id));
  return strength ? query.for(strength) : query;
}

/** The item can change hands from `giverId` now: it exists, is theirs, is listed and no barter holds it. */
export const freeToGive = (item: ItemStateRow | undefined, giverId: string): item is ItemStateRow =>
  item !== undefined && item.userId === giverId && item.isActive && item.reservedByRequestId === null;
