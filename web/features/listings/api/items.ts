import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { ERROR_CODES } from '#common/error-codes.ts';
import type { Item, ItemFormValues, ItemUpdateValues } from '#common/schemas/listings.ts';
import { ApiError, apiRequest } from '#web/lib/api-client.ts';
import { gettingStartedKeys, itemKeys, notificationKeys, swapDayKeys } from '#web/lib/query-keys.ts';
import { dataUrlToBlob, itemRequestBody } from './item-body';

/** Tries of an item with a photo while the server's photo queue is full (503 PHOTO_QUEUE_FULL). */
const PHOTO_QUEUE_TRIES = 4;
/** The longest wait between them, whatever Retry-After says. */
const PHOTO_QUEUE_MAX_WAIT_S = 5;

/**
 * Send an item create or edit: a new photo as a file in multipart/form-data (ADR 013). When the
 * server's photo queue is full, wait as long as its Retry-After says and send it again, a few times,
 * so a busy minute costs the member a moment instead of an error.
 */
async function sendItem(
  method: 'POST' | 'PATCH',
  url: string,
  values: ItemFormValues | ItemUpdateValues | FormData,
): Promise<Item> {
  for (let tries = 1; ; tries++) {
    try {
      const body = values instanceof FormData ? values : itemRequestBody(values);
      return (await (await apiRequest(method, url, body)).json()) as Item;
    } catch (error) {
      const queueFull = error instanceof ApiError && error.code === ERROR_CODES.photoQueueFull;
      if (!queueFull || tries >= PHOTO_QUEUE_TRIES) throw error;
      const seconds = Math.min(PHOTO_QUEUE_MAX_WAIT_S, error.retryAfterSeconds ?? 1);
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    }
  }
}

/**
 * Everything that lists the member's own items is read again after one is added, changed or deleted:
 * their item lists, and a swap day's "Your items" (what they can still offer there comes with the swap
 * day). The one place item writes say what went stale, whichever screen opened the form.
 */
export function ownItemsChanged(queryClient: QueryClient, { added = false } = {}): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: itemKeys.all }),
    queryClient.invalidateQueries({ queryKey: swapDayKeys.all }),
    // A first item is a step of the guided start.
    added ? queryClient.invalidateQueries({ queryKey: gettingStartedKeys.all }) : undefined,
  ]);
}

/** POST /api/items (spec section 7): the saved item (its `moderation` says if it waits); the lists are refetched. */
export function useCreateItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ItemFormValues) => sendItem('POST', '/api/items', input),
    onSuccess: () => ownItemsChanged(queryClient, { added: true }),
  });
}

/** PATCH /api/items/:id: edit, replace (as multipart, like POST) or remove the photo, deactivate or reactivate. */
export function useUpdateItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: number; changes: ItemUpdateValues }) =>
      sendItem('PATCH', `/api/items/${id}`, changes),
    onSuccess: () => ownItemsChanged(queryClient),
  });
}

/**
 * POST /api/items/:id/renew (issue 31, ADR 088): "Yes, still available" or "Renew" with one click; the
 * listing's clock starts again and one out of the feeds comes back. The lists and the bell are read
 * again (the question's entries are gone).
 */
export function useRenewItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) =>
      (await (await apiRequest('POST', `/api/items/${id}/renew`)).json()) as Item,
    onSuccess: () =>
      Promise.all([
        ownItemsChanged(queryClient),
        queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
      ]),
  });
}

/** A new photo (a data URL) as the multipart form POST /api/items/:id/photos takes (ADR 013, 082). */
function photoForm(dataUrl: string): FormData {
  const form = new FormData();
  const photo = dataUrlToBlob(dataUrl);
  form.append(
    'photo',
    photo,
    `photo.${photo.type === 'image/png' ? 'png' : photo.type === 'image/webp' ? 'webp' : 'jpg'}`,
  );
  return form;
}

/** PUT /api/items/:id/photos: keep these photos (served URLs), in this order (ADR 082). */
async function orderPhotos(id: number, photos: string[]): Promise<Item> {
  return (await (await apiRequest('PUT', `/api/items/${id}/photos`, { photos })).json()) as Item;
}

const urlsOf = (item: Item): string[] =>
  (item.photos ?? (item.imageUrl ? [{ imageUrl: item.imageUrl }] : [])).map((photo) => photo.imageUrl);
const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((url, i) => url === b[i]);

/**
 * Make the saved item's photos those of the form, in its order (ADR 082): the form holds served URLs
 * (kept) and data URLs (new). Those removed go first (so an item of eight can swap one), the new ones
 * are added one at a time (each through the photo queue, retried like the item), then the order is set.
 */
export async function savePhotos(saved: Item, wanted: readonly string[]): Promise<Item> {
  let item = saved;
  const kept = wanted.filter((photo) => !photo.startsWith('data:'));
  const keptInPlace = urlsOf(item).filter((url) => kept.includes(url));
  if (!same(urlsOf(item), keptInPlace)) item = await orderPhotos(item.id, keptInPlace);
  const served = new Map<string, string>();
  for (const photo of wanted) {
    if (!photo.startsWith('data:')) continue;
    const before = new Set(urlsOf(item));
    item = await sendItem('POST', `/api/items/${item.id}/photos`, photoForm(photo));
    const added = urlsOf(item).find((url) => !before.has(url));
    if (added) served.set(photo, added);
  }
  const now = urlsOf(item);
  const final = wanted.map((photo) => served.get(photo) ?? photo).filter((url) => now.includes(url));
  if (!same(now, final) && final.length === now.length) item = await orderPhotos(item.id, final);
  return item;
}

/** savePhotos as a mutation: the lists are refetched after. */
export function useSaveItemPhotos() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ saved, photos }: { saved: Item; photos: readonly string[] }) => savePhotos(saved, photos),
    onSettled: () => ownItemsChanged(queryClient),
  });
}

/** DELETE /api/items/:id (its photos go with it). */
export function useDeleteItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await apiRequest('DELETE', `/api/items/${id}`);
    },
    onSuccess: () => ownItemsChanged(queryClient),
  });
}
