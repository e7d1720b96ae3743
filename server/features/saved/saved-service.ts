import { ERROR_CODES } from '#common/error-codes.ts';
import { type FeedItem, LOOKING_FOR_ON_CARD } from '#common/schemas/feed.ts';
import type { Db } from '../../db/client';
import type { PageRequest } from '../../db/paging';
import type { UserRow } from '../../db/schema/users';
import { badRequest, notFound } from '../../errors';
import { viewerPoint } from '../../geo/earth';
import { presentFeedItem } from '../feed';
import { deleteSavedItem, findItemOwner, findSavedItems, insertSavedItem } from './saved-repository';

/**
 * Save an item for later (spec sections 4 and 7). Idempotent: true when newly saved. Your own item
 * is a 400 CANNOT_SAVE_OWN_ITEM; a missing or inactive item, or one of a member who blocked the saver
 * or whom the saver blocked, a 404 (the same answer as an unknown id).
 */
export async function saveItem(db: Db, member: UserRow, itemId: number): Promise<boolean> {
  const item = await findItemOwner(db, itemId, member.id);
  if (!item || (!item.isActive && item.userId !== member.id)) throw notFound('Item not found.');
  if (item.userId === member.id) {
    throw badRequest('You cannot save your own item.', ERROR_CODES.cannotSaveOwnItem);
  }
  return insertSavedItem(db, member.id, itemId);
}

/** Unsave an item; fine when it was not saved or does not exist (idempotent). */
export async function unsaveItem(db: Db, member: UserRow, itemId: number): Promise<void> {
  await deleteSavedItem(db, member.id, itemId);
}

/**
 * One page of the member's saved items as feed cards, newest saved first, and how many in all. Only items that are still active:
 * an item its owner deactivated or deleted drops out (and comes back if reactivated).
 */
export async function listSavedItems(
  db: Db,
  member: UserRow,
  page: PageRequest,
): Promise<{ items: FeedItem[]; total: number }> {
  const found = await findSavedItems(db, member.id, viewerPoint(member), LOOKING_FOR_ON_CARD, page);
  return { items: found.rows.map((row) => presentFeedItem(row)), total: found.total };
}
