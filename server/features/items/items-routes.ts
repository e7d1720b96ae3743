import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../../common/schemas/errors';
import {
  itemFormSchema,
  itemSchema,
  itemUpdateSchema,
  listingIdParamsSchema,
} from '../../../common/schemas/listings';
import { localPhotoStore, type PhotoStore } from '../../storage/photo-store';
import { presentItem } from './items-presenter';
import * as itemsService from './items-service';

export interface ItemsRoutesOptions {
  /** Where photos go; local files under DATA_DIR unless a test or object storage says otherwise. */
  store?: PhotoStore;
}

const PHOTO_ERRORS =
  'Photo errors: 413 PHOTO_TOO_LARGE (over 10 MB), 400 INVALID_PHOTO (not a JPEG, PNG or WebP ' +
  'photo, or damaged), 400 PHOTO_TOO_MANY_PIXELS (over 50 megapixels). Wording that breaks the ' +
  'Terms: 400 CONTENT_NOT_ALLOWED (message contains "not appropriate").';

/**
 * The signed-in member's items (spec sections 2 and 7): list, create, edit, deactivate, delete.
 * Someone else's item answers 404, like a missing one.
 */
export async function itemsRoutes(app: FastifyInstance, options: ItemsRoutesOptions = {}): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const store = options.store ?? localPhotoStore(app.config.dataDir);
  const deps = (log: itemsService.ItemsDeps['log']): itemsService.ItemsDeps => ({ db: app.db, store, log });

  routes.get(
    '/api/items/my',
    {
      schema: {
        tags: ['items'],
        summary: "The signed-in member's items, active and inactive, newest first",
        response: { 200: z.array(itemSchema), 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const rows = await itemsService.listMyItems(deps(request.log), request.member);
      return rows.map(presentItem);
    },
  );

  routes.post(
    '/api/items',
    {
      schema: {
        tags: ['items'],
        summary: 'List a new item or service; the photo (a data URL) is checked, re-encoded and stored',
        description: PHOTO_ERRORS,
        body: itemFormSchema,
        response: { 201: itemSchema, 400: apiErrorSchema, 401: apiErrorSchema, 413: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const row = await itemsService.createItem(deps(request.log), request.member, request.body);
      return reply.code(201).send(presentItem(row));
    },
  );

  routes.patch(
    '/api/items/:id',
    {
      schema: {
        tags: ['items'],
        summary: 'Edit your item: fields, photo (data URL replaces, null removes), isActive',
        description: PHOTO_ERRORS,
        params: listingIdParamsSchema,
        body: itemUpdateSchema,
        response: {
          200: itemSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          404: apiErrorSchema,
          413: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const row = await itemsService.updateItem(
        deps(request.log),
        request.member,
        request.params.id,
        request.body,
      );
      return presentItem(row);
    },
  );

  routes.delete(
    '/api/items/:id',
    {
      schema: {
        tags: ['items'],
        summary: 'Delete your item and its photos',
        params: listingIdParamsSchema,
        response: { 204: z.undefined(), 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      await itemsService.deleteItem(deps(request.log), request.member, request.params.id);
      return reply.code(204).send();
    },
  );
}
