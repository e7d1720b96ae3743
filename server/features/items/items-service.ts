import type { FastifyBaseLogger } from 'fastify';
import { isCategoryAllowed } from '#common/categories.ts';
import { ERROR_CODES } from '#common/error-codes.ts';
import {
  ITEM_ERROR_CODES,
  ITEM_PHOTOS_MAX,
  type ItemInput,
  type ItemPhotoOrder,
  type ItemPhotoUrls,
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
import { withdrawItemNotifications } from '../notifications';
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
  lockOwnItem,
  lockOwnItemPhotos,
  type OwnItemRow,
  updateItemOfUser,
} from './items-repository';
import { STALE_KINDS } from './stale-listings';

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

/** The ninth photo (ADR 082). */
const photoLimit = () =>
  conflict(
    `An item has at most ${ITEM_PHOTOS_MAX} photos. Remove one before adding another.`,
    ITEM_ERROR_CODES.photoLimit,
  );

/** A photo order naming a photo the item does not have now (ADR 082). */
const photosChanged = () =>
  conflict(
    'The photos of this item changed meanwhile, or one of these is not its photo. Reload and try again.',
    ITEM_ERROR_CODES.photosChanged,
  );

/** A service has no condition (ADR 082). */
const serviceCondition = () =>
  badRequest(`condition: ${LISTING_MESSAGES.conditionForService}.`, ERROR_CODES.validation);

/** A stored photo as the item's photo list holds it. */
const photoUrls = (photo: StoredPhoto): ItemPhotoUrls => ({
  imageUrl: photo.imageUrl,
  thumbnailUrl: photo.thumbnailUrl,
});

/** The item's photos and their cover's copy in image_url and thumbnail_url, written together (ADR 082). */
const withCover = (photos: ItemPhotoUrls[]): Pick<ItemChanges, 'photos' | 'imageUrl' | 'thumbnailUrl'> => ({
  photos,
  imageUrl: photos[0]?.imageUrl ?? null,
  thumbnailUrl: photos[0]?.thumbnailUrl ?? null,
});

/** The files of photos in `before` that are not in `after`. */
const droppedFiles = (before: ItemPhotoUrls[], after: ItemPhotoUrls[]): string[] => {
  const kept = new Set(after.map((photo) => photo.imageUrl));
  return before.filter((photo) => !kept.has(photo.imageUrl)).flatMap((p) => [p.imageUrl, p.thumbnailUrl]);
};

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
        condition: input.isService ? null : input.condition,
        estimatedValue: input.estimatedValue,
        isActive: held ? false : input.isActive,
        moderation: held ? 'held' : null,
        ...withCover(photo ? [photoUrls(photo)] : []),
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

  // A service has no condition: refused when asked for, dropped when a good becomes a service.
  if (patch.condition && isService) throw serviceCondition();

  const { imageUrl, ...fields } = patch;
  // Any edit confirms the listing is still there (ADR 088): the clock starts again and an open
  // "Still available?" is answered. Showing it again renews one that left the feeds as stale; hiding
  // it answers the question ("No, it's gone"). A stale listing edited but not shown stays out.
  const changes: ItemChanges = { ...fields, confirmedAt: new Date(), staleAskedAt: null };
  if (patch.isActive !== undefined) changes.stalePausedAt = null;
  if (isService && item.condition !== null) changes.condition = null;
  let newPhoto: StoredPhoto | null = null;
  // imageUrl acts on the cover (ADR 082): null removes it (the next photo becomes the cover), a new
  // photo takes its place; the list is settled in the write, on the locked row.
  let cover: 'remove' | 'replace' | null = null;
  if (imageUrl === null) {
    cover = 'remove';
  } else if (upload.file || (imageUrl !== undefined && imageUrl !== item.imageUrl)) {
    if (!upload.file && !imageUrl?.startsWith('data:')) {
      throw badRequest(
        'imageUrl: Send a new photo as a data URL, or the current photo URL to keep it.',
        ERROR_CODES.validation,
      );
    }
    newPhoto = await storePhoto(deps, upload, imageUrl);
    if (newPhoto) cover = 'replace';
  }
  const held = heldPhoto(deps, newPhoto);
  if (held && item.moderation !== 'removed') {
    changes.isActive = false;
    changes.moderation = 'held';
  }

  let updated: ItemRow | null;
  let dropped: string[] = [];
  try {
    updated = await deps.db.transaction(async (tx) => {
      if (cover !== null) {
        const locked = await lockOwnItemPhotos(tx, id, actor.id);
        if (!locked) return null;
        const rest = locked.photos.slice(1);
        const photos = cover === 'replace' && newPhoto ? [photoUrls(newPhoto), ...rest] : rest;
        Object.assign(changes, withCover(photos));
        dropped = droppedFiles(locked.photos, photos);
      }
      const row = await updateItemOfUser(tx, id, actor.id, changes, {
        unreservedOnly: true,
        untradedOnly: true,
      });
      if (row && held && newPhoto?.screening) await reportScreenedPhoto(tx, id, actor.id, newPhoto.screening);
      if (row && (item.staleAskedAt !== null || item.stalePausedAt !== null)) {
        await withdrawItemNotifications(tx, { userId: actor.id, itemId: id, kinds: STALE_KINDS });
      }
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
  if (dropped.length > 0) await removeUnusedPhotos(deps, dropped);
  return updated;
}

/** The owner's item that may change now: 404 (someone else's too), 409 traded or reserved. */
async function loadEditableItem(deps: ItemsDeps, actor: Member, id: number): Promise<ItemRow> {
  const item = await loadOwnItem(deps, actor, id, 'update');
  if (item.tradedAt !== null) throw itemTraded();
  if (!itemPolicy.edit(actor, item)) throw itemReserved();
  return item;
}

/** Why the locked write found no row: gone (404), or traded or reserved meanwhile (409). */
async function whyNotWritten(deps: ItemsDeps, id: number): Promise<Error> {
  const now = await findItemById(deps.db, id);
  return now ? (now.tradedAt !== null ? itemTraded() : itemReserved()) : itemNotFound();
}

/**
 * Add a photo to the member's item, last (ADR 082): a multipart file or a data URL, checked,
 * re-encoded, screened and stored by the same pipeline and queue as the cover; one it already has
 * changes nothing (a retry). The ninth is refused
 * (409 ITEM_PHOTO_LIMIT) before any work, and again on the locked row for a race of two adds. A photo
 * the screening finds likely explicit holds the listing for a moderator, as a cover does.
 */
export async function addItemPhoto(
  deps: ItemsDeps,
  actor: Member,
  id: number,
  dataUrl: string | undefined,
  upload: PhotoUpload = {},
): Promise<ItemRow> {
  const item = await loadEditableItem(deps, actor, id);
  if (item.photos.length >= ITEM_PHOTOS_MAX) throw photoLimit();
  if (!upload.file && !dataUrl) {
    throw badRequest(`imageUrl: ${LISTING_MESSAGES.photoInvalid}.`, ERROR_CODES.validation);
  }
  const photo = await storePhoto(deps, upload, dataUrl);
  if (!photo) throw badRequest(`imageUrl: ${LISTING_MESSAGES.photoInvalid}.`, ERROR_CODES.validation);
  const held = heldPhoto(deps, photo);
  let updated: ItemRow | null;
  try {
    updated = await deps.db.transaction(async (tx) => {
      const locked = await lockOwnItemPhotos(tx, id, actor.id);
      if (!locked) return null;
      // The same photo again (files are named by content: a retried upload) changes nothing.
      if (locked.photos.some((p) => p.imageUrl === photo.imageUrl)) return findItemById(tx, id);
      if (locked.photos.length >= ITEM_PHOTOS_MAX) throw photoLimit();
      const changes: ItemChanges = withCover([...locked.photos, photoUrls(photo)]);
      if (held && locked.moderation !== 'removed') {
        changes.isActive = false;
        changes.moderation = 'held';
      }
      const row = await updateItemOfUser(tx, id, actor.id, changes, {
        unreservedOnly: true,
        untradedOnly: true,
      });
      if (row && held && photo.screening) await reportScreenedPhoto(tx, id, actor.id, photo.screening);
      return row;
    });
  } catch (error) {
    await removeUnusedPhotos(deps, [photo.imageUrl, photo.thumbnailUrl]);
    throw error;
  }
  if (!updated) {
    await removeUnusedPhotos(deps, [photo.imageUrl, photo.thumbnailUrl]);
    throw await whyNotWritten(deps, id);
  }
  return updated;
}

/**
 * Reorder and remove the member's item's photos (ADR 082): `order.photos` lists the large URLs of
 * those to keep, the cover first. Judged on the locked row, so of two reorders each applies whole,
 * one after the other; one naming a photo the item no longer has answers 409 ITEM_PHOTOS_CHANGED.
 * Files no item shows any more go.
 */
export async function orderItemPhotos(
  deps: ItemsDeps,
  actor: Member,
  id: number,
  order: ItemPhotoOrder,
): Promise<ItemRow> {
  await loadEditableItem(deps, actor, id);
  let dropped: string[] = [];
  const updated = await deps.db.transaction(async (tx) => {
    const locked = await lockOwnItemPhotos(tx, id, actor.id);
    if (!locked) return null;
    const byUrl = new Map(locked.photos.map((photo) => [photo.imageUrl, photo]));
    const photos = order.photos.map((url) => byUrl.get(url));
    if (photos.some((photo) => photo === undefined)) throw photosChanged();
    const kept = photos as ItemPhotoUrls[];
    dropped = droppedFiles(locked.photos, kept);
    return updateItemOfUser(tx, id, actor.id, withCover(kept), { unreservedOnly: true, untradedOnly: true });
  });
  if (!updated) throw await whyNotWritten(deps, id);
  if (dropped.length > 0) await removeUnusedPhotos(deps, dropped);
  return updated;
}

/**
 * "Yes, still available" and "Renew" (issue 31, ADR 088), one click each: the owner confirms the
 * listing, so its clock starts again at `now` and an open question is answered (its bell entries go);
 * a listing that left the feeds as stale is listed again (active: the match graph's and the feeds'
 * triggers take it back, as for a Show). The row is locked first, so two renewals take turns and a
 * renewal beside the stale-listings job sees what the job left (asked or paused) and answers that.
 * Someone else's item or a missing one: 404; traded: 409; hidden by a moderator: 403.
 */
export async function renewItem(
  deps: ItemsDeps,
  actor: Member,
  id: number,
  now = new Date(),
): Promise<ItemRow> {
  await loadOwnItem(deps, actor, id, 'update');
  return deps.db.transaction(async (tx) => {
    const locked = await lockOwnItem(tx, id, actor.id);
    if (!locked) throw itemNotFound();
    if (locked.tradedAt !== null) throw itemTraded();
    const paused = !locked.isActive && locked.stalePausedAt !== null;
    if (paused && locked.moderation !== null) {
      throw forbidden(
        locked.moderation === 'held'
          ? HELD_MESSAGE
          : 'Your listings are hidden while your account is suspended.',
        SAFETY_ERROR_CODES.removedByModerator,
      );
    }
    // Only a paused listing's renewal writes is_active: the feeds' version moves for what changes them.
    const changes: ItemChanges = paused
      ? { isActive: true, stalePausedAt: null, staleAskedAt: null, confirmedAt: now }
      : { staleAskedAt: null, confirmedAt: now };
    const row = await updateItemOfUser(tx, id, actor.id, changes, { untradedOnly: true });
    if (!row) throw itemNotFound();
    await withdrawItemNotifications(tx, { userId: actor.id, itemId: id, kinds: STALE_KINDS });
    return row;
  });
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
  await removeUnusedPhotos(deps, [
    deleted.imageUrl,
    deleted.thumbnailUrl,
    ...deleted.photos.flatMap((photo) => [photo.imageUrl, photo.thumbnailUrl]),
  ]);
}
