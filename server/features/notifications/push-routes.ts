import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import {
  pushDeviceListSchema,
  pushDeviceParamsSchema,
  pushDeviceSchema,
  pushKeySchema,
  pushKindsSchema,
  pushKindsUpdateSchema,
  pushSubscribeSchema,
} from '#common/schemas/push.ts';
import { notFound } from '../../errors';
import { HOUR_MS, memberRateLimit } from '../../plugins/member-rate-limit';
import { pushKinds, setMutedKinds } from './notification-channels';
import { listDevices, removeDevice, subscribeDevice } from './push-subscriptions';
import { vapidKeys } from './web-push';

/** Web Push (ADR 087), member scope: the key to subscribe with, the member's devices, their kinds. */
export async function pushRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/api/push/key',
    {
      schema: {
        tags: ['account'],
        summary: "The site's VAPID public key, for PushManager.subscribe's applicationServerKey",
        response: { 200: pushKeySchema, 401: apiErrorSchema },
      },
    },
    async () => ({ publicKey: (await vapidKeys(app)).publicKey }),
  );

  routes.get(
    '/api/push/subscriptions',
    {
      schema: {
        tags: ['account'],
        summary: "The member's devices that get pushes, newest first",
        response: { 200: pushDeviceListSchema, 401: apiErrorSchema },
      },
    },
    async (request) => listDevices(app.db, request.member.id),
  );

  routes.post(
    '/api/push/subscriptions',
    {
      config: memberRateLimit({
        name: 'push-subscribe',
        max: 60,
        windowMs: HOUR_MS,
        what: 'devices turned on',
      }),
      schema: {
        tags: ['account'],
        summary: "Push the member's notifications to this device (its PushSubscription as JSON)",
        description:
          'The endpoint must be https at a push service (WEB_PUSH_SERVICE_HOSTS), else 400. The same ' +
          'endpoint again replaces its keys (and its member); a member keeps at most 20 devices, the oldest go.',
        body: pushSubscribeSchema,
        response: { 201: pushDeviceSchema, 400: apiErrorSchema, 401: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const device = await subscribeDevice(app.db, {
        userId: request.member.id,
        subscription: request.body,
        userAgent: request.headers['user-agent'] ?? '',
        serviceHosts: app.config.webPush.serviceHosts,
      });
      return reply.code(201).send(device);
    },
  );

  routes.delete(
    '/api/push/subscriptions/:id',
    {
      schema: {
        tags: ['account'],
        summary: 'Stop pushing to one of the member’s devices',
        params: pushDeviceParamsSchema,
        response: { 204: z.undefined(), 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      if (!(await removeDevice(app.db, request.member.id, request.params.id)))
        throw notFound('This device does not get your notifications.');
      return reply.code(204).send();
    },
  );

  routes.get(
    '/api/push/kinds',
    {
      schema: {
        tags: ['account'],
        summary: 'Every kind of notification, and whether the member gets it pushed',
        description:
          'A view of /api/account/notification-channels (ADR 090): a kind is pushed when its group goes by push.',
        response: { 200: pushKindsSchema, 401: apiErrorSchema },
      },
    },
    async (request) => pushKinds(app.db, request.member.id),
  );

  routes.put(
    '/api/push/kinds',
    {
      schema: {
        tags: ['account'],
        summary: 'Push every kind of notification but the ones named',
        body: pushKindsUpdateSchema,
        response: { 200: pushKindsSchema, 400: apiErrorSchema, 401: apiErrorSchema },
      },
    },
    async (request) => setMutedKinds(app.db, request.member.id, request.body.muted),
  );
}
