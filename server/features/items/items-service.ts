import type { FastifyBaseLogger } from 'fastify';
import { isCategoryAllowed } from '#common/categories.ts';
import { ERROR_CODES } from '#common/error-codes.ts';
import {
  ITEM_ERROR_CODES,
  type ItemInput,
  type ItemUpdate,
  LISTING_MESSAGES,
} from '#common/schemas/listings.ts';
import { SAFETY_ERROR_CODES } from '#common/schemas/safety.ts';
import type { Db } from '../../db/client';
import type { Page, PageRequest } from '../../db/paging';
import type { ItemRow } from '../../db/schema/trading';
import { badRequest, conflict, forbidden, notFound } from '../../errors';
import type { StoredPhoto } from '../../photos/photo-pipeline';
import { type PhotoUpload, storeUploadedPhoto } from '../../photos/photo-upload';
import { type Actor, itemPolicy, listingPolicy } from '../../policies/listing-policy';
import type { PhotoStore } from '../../storage/photo-store';
import {
  assertAppropriateFields,
  likelyExplicit,
  listingScreening,
  logUnscreened,
  type PhotoScreeningPolicy,
  reportScreenedPhoto,
} from '../safety';
import {
  countItemsUsingPhoto,
  deleteItemOfUser,
  findItemById,
  type ItemChanges,
  insertItem,
  listItemsByUser,
  type OwnItemRow,
  updateItemOfUser,
} from './items-repository';

/** What the item service needs from the app. */
export interface ItemsDeps {
  db: Db;
  store: PhotoStore;
  log: FastifyBaseLogger;
  /** Explicit-content screening of new photos (ADR 027); null when the settings turn it off. */
  screening: PhotoScreeningPolicy | null;
}

type Member = NonNullable<Actor>;

const categoryNotInList = () =>
  badRequest(`category: ${LISTING_MESSAGES.categoryNotInList}.`, ERROR_CODES.validation);

/**
 * Someone else's item answers exactly like a missing one (404, not 403): a member probing ids must
 * not learn which items exist or who owns them.
 */
const itemNotFound = () => notFound('Item not found.');

/** What the owner of a listing held for a moderator is told (ADR 027). */
export const HELD_MESSAGE =
  'A moderator is checking this listing’s photo. It shows to neighbors once they have.';

/**
 * Changing, hiding or deleting an item an accepted barter holds would change what the other member
 * agreed to take (issues 13 and 27): 409 until the barter is cancelled or completed.
 */
const itemReserved = () =>
  conflict('This item is reserved in an accepted barter. Cancel the barter first.', ERROR_CODES.conflict);

/** A traded item went to another member (issue 30): it is never shown again nor edited. */
const itemTraded = () =>
  conflict(
    'This item was traded in a completed barter. It cannot be shown again or edited.',
    ITEM_ERROR_CODES.traded,
  );

/**
 * Check, re-encode, screen and store the photo of a create or an edit, in the photo queue: the
 * multipart file if one came, otherwise the JSON body's data URL (as bytes when the parser kept it
 * out of the body, else `dataUrl`); null when there is none.
 */
async function storePhoto(
  deps: ItemsDeps,
  upload: PhotoUpload,
  dataUrl: string | null | undefined,
): Promise<StoredPhoto | null> {
  const options = { ticket: upload.ticket, screening: listingScreening(deps.screening) };
  let photo: StoredPhoto | null = null;
  if (upload.file) photo = await storeUploadedPhoto(deps.store, { file: upload.file }, options);
  else if (dataUrl && upload.dataUrl)
    photo = await storeUploadedPhoto(deps.store, { dataUrl: upload.dataUrl }, options);
  else if (dataUrl) photo = await storeUploadedPhoto(deps.store, { dataUrl }, options);
  logUnscreened(deps.log, photo?.screening ?? null);
  return photo;
}

/** A new photo the screening found likely explicit: the listing waits for a moderator (ADR 027). */
const heldPhoto = (deps: ItemsDeps, photo: StoredPhoto | null): boolean =>
  photo !== null && likelyExplicit(photo.screening, deps.screening);

/**
 * Remove photo files no item shows any more. Files are named by content, so the same photo listed
 * twice is one file; it stays while any item uses it. Failures are logged, never thrown: the
 * database is the truth and an orphan file is harmless.
 */
export async function removeUnusedPhotos(
  deps: Pick<ItemsDeps, 'db' | 'store' | 'log'>,
  urls: Array<string | null | undefined>,
): Promise<void> {
  for (const url of new Set(urls)) {
    if (!url) continue;
    try {
      if ((await countItemsUsingPhoto(deps.db, url)) === 0) await deps.store.remove(url);
    } catch (error) {
      deps.log.warn({ err: error, url }, 'could not remove a photo file');
    }
  }
}

/** The caller's own item, or 404 (also for someone else's: see itemNotFound). */
async function loadOwnItem(deps: ItemsDeps, actor: Member, id: number, action: 'update' | 'delete') {
  const item = await findItemById(deps.db, id);
  if (!item || !listingPolicy[action](actor, item)) throw itemNotFound();
  return item;
}

/**
 * List a new item for the member: moderated, its photo (a multipart file in `upload`, or a data URL
 * in `input.imageUrl`) re-encoded and stored (spec section 7).
 */
export async function createItem(
  deps: ItemsDeps,
  actor: Member,
  input: ItemInput,
  upload: PhotoUpload = {},
): Promise<ItemRow> {
  await assertAppropriateFields(deps.db, actor.id, 'item', {
    title: input.title,
    description: input.description,
  });
  if (input.imageUrl && !input.imageUrl.startsWith('data:')) {
    throw badRequest('imageUrl: Send the photo itself, as a data URL.', ERROR_CODES.validation);
  }
  const photo = await storePhoto(deps, upload, input.imageUrl);
  const held = heldPhoto(deps, photo);
  try {
    return await deps.db.transaction(async (tx) => {
      const row = await insertItem(tx, {
        userId: actor.id,
        title: input.title,
        description: input.description,
        category: input.category,
        isService: input.isService,
        estimatedValue: input.estimatedValue,
        isActive: held ? false : input.isActive,
        moderation: held ? 'held' : null,
        imageUrl: photo?.imageUrl ?? null,
        thumbnailUrl: photo?.thumbnailUrl ?? null,
      });
      if (held && photo?.screening) await reportScreenedPhoto(tx, row.id, actor.id, photo.screening);
      return row;
    });
  } catch (error) {
    await removeUnusedPhotos(deps, [photo?.imageUrl, photo?.thumbnailUrl]);
    throw error;
  }
}

/** One page of the member's own items, active and inactive, newest first, with the total. */
export function listMyItems(deps: ItemsDeps, actor: Member, page: PageRequest): Promise<Page<OwnItemRow>> {
  return listItemsByUser(deps.db, actor.id, page);
}

/**
 * Change the member's own item: any fields, the photo (a multipart file or a data URL replaces it,
 * null removes it, the current URL keeps it) and isActive (deactivate, reactivate). Old photo files
 * go once unused. An item an accepted barter holds is not changed at all (409, itemPolicy.edit),
 * checked before a photo is stored and again in the write, for a barter accepted meanwhile.
 */
export async function updateItem(
  deps: ItemsDeps,
  actor: Member,
  id: number,
  patch: ItemUpdate,
  upload: PhotoUpload = {},
): Promise<ItemRow> {
  const item = await loadOwnItem(deps, actor, id, 'update');
  if (item.tradedAt !== null) throw itemTraded();
  if (!itemPolicy.edit(actor, item)) throw itemReserved();
  // Hidden by a moderator (ADR 025): removed for good, or while the owner is suspended.
  if (patch.isActive === true && item.moderation !== null) {
    throw forbidden(
      item.moderation === 'removed'
        ? 'A moderator removed this listing for breaking the Terms.'
        : item.moderation === 'held'
          ? HELD_MESSAGE
          : 'Your listings are hidden while your account is suspended.',
      SAFETY_ERROR_CODES.removedByModerator,
    );
  }

  // The category must fit the list that applies after the change, whichever of the two was sent.
  const category = patch.category ?? item.category;
  const isService = patch.isService ?? item.isService;
  if (
    (patch.category !== undefined || patch.isService !== undefined) &&
    !isCategoryAllowed(category, isService)
  ) {
    throw categoryNotInList();
  }
  if (patch.title !== undefined || patch.description !== undefined) {
    await assertAppropriateFields(deps.db, actor.id, 'item', {
      title: patch.title ?? item.title,
      description: patch.description ?? item.description,
    });
  }

  const { imageUrl, ...fields } = patch;
  const changes: ItemChanges = { ...fields };
  let newPhoto: StoredPhoto | null = null;
  if (imageUrl === null) {
    changes.imageUrl = null;
    changes.thumbnailUrl = null;
  } else if (upload.file || (imageUrl !== undefined && imageUrl !== item.imageUrl)) {
    if (!upload.file && !imageUrl?.startsWith('data:')) {
      throw badRequest(
        'imageUrl: Send a new photo as a data URL, or the current photo URL to keep it.',
        ERROR_CODES.validation,
      );
    }
    newPhoto = await storePhoto(deps, upload, imageUrl);
    if (newPhoto) {
      changes.imageUrl = newPhoto.imageUrl;
      changes.thumbnailUrl = newPhoto.thumbnailUrl;
    }
  }
  const held = heldPhoto(deps, newPhoto);
  if (held && item.moderation !== 'removed') {
    changes.isActive = false;
    changes.moderation = 'held';
  }

  let updated: ItemRow | null;
  try {
    updated = await deps.db.transaction(async (tx) => {
      const row = await updateItemOfUser(tx, id, actor.id, changes, {
        unreservedOnly: true,
        untradedOnly: true,
      });
      if (row && held && newPhoto?.screening) await reportScreenedPhoto(tx, id, actor.id, newPhoto.screening);
      return row;
    });
  } catch (error) {
    if (newPhoto) await removeUnusedPhotos(deps, [newPhoto.imageUrl, newPhoto.thumbnailUrl]);
    throw error;
  }
  if (!updated) {
    // Deleted, reserved by an accepted barter or traded (its barter completed), by a parallel request
    // between the read and the write.
    if (newPhoto) await removeUnusedPhotos(deps, [newPhoto.imageUrl, newPhoto.thumbnailUrl]);
    const now = await findItemById(deps.db, id);
    throw now ? (now.tradedAt !== null ? itemTraded() : itemReserved()) : itemNotFound();
  }
  if ('imageUrl' in changes) await removeUnusedPhotos(deps, [item.imageUrl, item.thumbnailUrl]);
  return updated;
}

/**
 * Delete the member's own item and, once unused, its photo files; 409 while an accepted barter
 * holds it. Proposals keep what they showed of it (barter_request_items).
 */
export async function deleteItem(deps: ItemsDeps, actor: Member, id: number): Promise<void> {
  const item = await loadOwnItem(deps, actor, id, 'delete');
  if (!itemPolicy.delete(actor, item)) throw itemReserved();
  const deleted = await deleteItemOfUser(deps.db, id, actor.id);
  if (!deleted) throw (await findItemById(deps.db, id)) ? itemReserved() : itemNotFound();
  await removeUnusedPhotos(deps, [deleted.imageUrl, deleted.thumbnailUrl]);
}
