import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DATA_URL_BODY_LIMIT_BYTES } from '#common/constants.ts';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import {
  ITEM_PHOTOS_MAX,
  itemFormSchema,
  itemPhotoAddSchema,
  itemPhotoOrderSchema,
  itemSchema,
  itemUpdateSchema,
  listingIdParamsSchema,
  ownListQuerySchema,
  TOTAL_COUNT_HEADER,
} from '#common/schemas/listings.ts';
import { photoJsonParser } from '../../photos/photo-json';
import { PHOTO_FILE_FIELD, photoUploadHooks, photoUploadOf } from '../../photos/photo-upload';
import { memberRateLimit } from '../../plugins/member-rate-limit';
import type { PhotoStore } from '../../storage/photo-store';
import { photoScreeningPolicy } from '../safety';
import { presentItem } from './items-presenter';
import * as itemsService from './items-service';

export interface ItemsRoutesOptions {
  /** Where photos go; default the app's store (app.photoStore). */
  store?: PhotoStore;
}

const PHOTO_ERRORS =
  'The photo comes either as `imageUrl`, a data URL in a JSON body, or (better: streamed, a quarter ' +
  `smaller) as multipart/form-data with the same fields as text (isService and isActive as "true" ` +
  `or "false") and the photo as a file part named "${PHOTO_FILE_FIELD}" (ADR 013). ` +
  'Photo errors: 413 PHOTO_TOO_LARGE (over 10 MB), 400 INVALID_PHOTO (not a JPEG, PNG or WebP ' +
  'photo, or damaged), 400 PHOTO_TOO_MANY_PIXELS (over 50 megapixels), 503 PHOTO_QUEUE_FULL (too ' +
  'many photos in progress; retry after Retry-After seconds). Wording that breaks the ' +
  'Terms: 400 CONTENT_NOT_ALLOWED (message contains "not appropriate"). A photo the screening finds ' +
  'likely explicit (ADR 027) is stored but the item is answered with isActive false and moderation ' +
  '"held": it waits for a moderator instead of showing.';

/**
 * The signed-in member's items (spec sections 2 and 7): list, create, edit, deactivate, delete.
 * Someone else's item answers 404, like a missing one.
 */
export async function itemsRoutes(app: FastifyInstance, options: ItemsRoutesOptions = {}): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const store = options.store ?? app.photoStore;
  const screening = photoScreeningPolicy(app.config);
  const deps = (log: itemsService.ItemsDeps['log']): itemsService.ItemsDeps => ({
    db: app.db,
    store,
    log,
    screening,
  });
  // Photos may come as multipart/form-data on this plugin's routes (streamed, size-limited), and a
  // data URL in JSON stays bytes, never a 13 MB string (ADR 013).
  await app.register(multipart);
  photoJsonParser(app);
  const photoHooks = photoUploadHooks();

  routes.get(
    '/api/items/my',
    {
      schema: {
        tags: ['items'],
        summary: "The signed-in member's items, active and inactive, newest first, a page at a time",
        description:
          '`limit` (default 50, at most 100) and `offset` page the list; the X-Total-Count header ' +
          'says how many items the member has in all.',
        querystring: ownListQuerySchema,
        response: { 200: z.array(itemSchema), 400: apiErrorSchema, 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const page = await itemsService.listMyItems(deps(request.log), request.member, request.query);
      reply.header(TOTAL_COUNT_HEADER, String(page.total));
      return page.rows.map(presentItem);
    },
  );

  routes.post(
    '/api/items',
    {
      bodyLimit: DATA_URL_BODY_LIMIT_BYTES,
      ...photoHooks,
      config: memberRateLimit({
        name: 'item-create',
        max: app.config.rateLimits.itemCreatePerHour,
        what: 'new items',
      }),
      schema: {
        tags: ['items'],
        summary: 'List a new item or service; the photo is checked, re-encoded and stored',
        description: `${PHOTO_ERRORS} More than ITEM_CREATE_RATE_LIMIT new items an hour: 429 RATE_LIMITED.`,
        body: itemFormSchema,
        response: {
          201: itemSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          413: apiErrorSchema,
          429: apiErrorSchema,
          503: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const row = await itemsService.createItem(
        deps(request.log),
        request.member,
        request.body,
        photoUploadOf(request),
      );
      return reply.code(201).send(presentItem(row));
    },
  );

  routes.patch(
    '/api/items/:id',
    {
      bodyLimit: DATA_URL_BODY_LIMIT_BYTES,
      ...photoHooks,
      schema: {
        tags: ['items'],
        summary: 'Edit your item: fields, photo (a new one replaces, null removes), isActive',
        description:
          `${PHOTO_ERRORS} Any change (fields, photo, isActive) to an item an accepted barter ` +
          'holds: 409 CONFLICT (cancel the barter first; allowedActions says what may be done).',
        params: listingIdParamsSchema,
        body: itemUpdateSchema,
        response: {
          200: itemSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          404: apiErrorSchema,
          409: apiErrorSchema,
          413: apiErrorSchema,
          503: apiErrorSchema,
        },
      },
    },
    async (request, _reply) => {
      const row = await itemsService.updateItem(
        deps(request.log),
        request.member,
        request.params.id,
        request.body,
        photoUploadOf(request),
      );
      return presentItem(row);
    },
  );

  routes.post(
    '/api/items/:id/photos',
    {
      bodyLimit: DATA_URL_BODY_LIMIT_BYTES,
      ...photoHooks,
      schema: {
        tags: ['items'],
        summary: `Add a photo to your item, after the others (at most ${ITEM_PHOTOS_MAX}; the first is the cover)`,
        description:
          `${PHOTO_ERRORS} The photo comes as \`imageUrl\` (a data URL) or as the multipart file ` +
          `"${PHOTO_FILE_FIELD}" with no other field. An item with ${ITEM_PHOTOS_MAX} photos: 409 ` +
          'ITEM_PHOTO_LIMIT (remove one first). An item an accepted barter holds, or a traded one: 409.',
        params: listingIdParamsSchema,
        body: itemPhotoAddSchema,
        response: {
          200: itemSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          404: apiErrorSchema,
          409: apiErrorSchema,
          413: apiErrorSchema,
          503: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const row = await itemsService.addItemPhoto(
        deps(request.log),
        request.member,
        request.params.id,
        request.body.imageUrl,
        photoUploadOf(request),
      );
      return presentItem(row);
    },
  );

  routes.put(
    '/api/items/:id/photos',
    {
      schema: {
        tags: ['items'],
        summary: "Reorder or remove your item's photos: the ones to keep, the cover first",
        description:
          '`photos`: the large URLs (`imageUrl`) of the photos to keep, in their new order; any left ' +
          'out are removed, an empty list removes all. Each must be a photo the item has now, once: ' +
          'otherwise 409 ITEM_PHOTOS_CHANGED (reload). An item an accepted barter holds, or a traded one: 409.',
        params: listingIdParamsSchema,
        body: itemPhotoOrderSchema,
        response: {
          200: itemSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          404: apiErrorSchema,
          409: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const row = await itemsService.orderItemPhotos(
        deps(request.log),
        request.member,
        request.params.id,
        request.body,
      );
      return presentItem(row);
    },
  );

  routes.post(
    '/api/items/:id/renew',
    {
      config: memberRateLimit({
        name: 'item-renew',
        max: app.config.rateLimits.itemCreatePerHour,
        what: 'renewals',
      }),
      schema: {
        tags: ['items'],
        summary: '"Yes, still available" or "Renew": confirm your listing is still there (ADR 088)',
        description:
          'The listing\'s clock starts again (it asks "Still available?" STALE_LISTING_DAYS from now) ' +
          'and an open question is answered; a listing that left the feeds for want of an answer is ' +
          "listed again. No body. Someone else's item or a missing one: 404; a traded one: 409 " +
          'ITEM_TRADED; one a moderator hid: 403.',
        params: listingIdParamsSchema,
        response: {
          200: itemSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
          404: apiErrorSchema,
          409: apiErrorSchema,
          429: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const row = await itemsService.renewItem(deps(request.log), request.member, request.params.id);
      return presentItem(row);
    },
  );

  routes.delete(
    '/api/items/:id',
    {
      schema: {
        tags: ['items'],
        summary: 'Delete your item and its photos',
        description: 'An item an accepted barter holds: 409 CONFLICT (cancel the barter first).',
        params: listingIdParamsSchema,
        response: {
          204: z.undefined(),
          400: apiErrorSchema,
          401: apiErrorSchema,
          404: apiErrorSchema,
          409: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      await itemsService.deleteItem(deps(request.log), request.member, request.params.id);
      return reply.code(204).send();
    },
  );
}
