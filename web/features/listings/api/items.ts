import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { ERROR_CODES } from '#common/error-codes.ts';
import type { Item, ItemFormValues, ItemUpdateValues } from '#common/schemas/listings.ts';
import { ApiError, apiRequest } from '#web/lib/api-client.ts';
import { gettingStartedKeys, itemKeys, swapDayKeys } from '#web/lib/query-keys.ts';
import { itemRequestBody } from './item-body';

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
  values: ItemFormValues | ItemUpdateValues,
): Promise<Item> {
  for (let tries = 1; ; tries++) {
    try {
      return (await (await apiRequest(method, url, itemRequestBody(values))).json()) as Item;
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
