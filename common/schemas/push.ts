import { z } from 'zod';
import { NOTIFICATION_KINDS } from '../notification-text';
import { wholeNumberParam } from './numbers';

/** GET /api/push/key: the VAPID public key the service worker subscribes with (ADR 087). */
export const pushKeySchema = z.object({ publicKey: z.string() });

const base64url = (label: string, length: number) =>
  z.string().regex(new RegExp(`^[A-Za-z0-9_-]{${length}}$`), `${label} is not a valid key`);

/**
 * POST /api/push/subscriptions: a device's subscription as PushSubscription.toJSON() gives it:
 * the endpoint (https, at a push service), the device's P-256 key (65 bytes) and auth secret (16).
 */
export const pushSubscribeSchema = z.object({
  endpoint: z
    .string()
    .max(2048, 'The endpoint is too long')
    // A URL is printable ASCII: no spaces, no control characters.
    .regex(/^[\x21-\x7e]+$/, 'The endpoint must be a URL')
    .refine((text) => URL.canParse(text), 'The endpoint must be a URL'),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    p256dh: base64url('keys.p256dh', 87),
    auth: base64url('keys.auth', 22),
  }),
});
export type PushSubscribeInput = z.infer<typeof pushSubscribeSchema>;

/** One device of the member's that gets pushes, as the Account tab lists it. */
export const pushDeviceSchema = z.object({
  id: z.number().int(),
  /** The endpoint, so the page can tell which entry is the device it runs on. */
  endpoint: z.string(),
  /** Browser and system from the device's User-Agent, as the sessions name them: "Firefox on Android". */
  device: z.string(),
  createdAt: z.iso.datetime(),
});
export type PushDevice = z.infer<typeof pushDeviceSchema>;
export const pushDeviceListSchema = z.array(pushDeviceSchema);

export const pushDeviceParamsSchema = z.strictObject({ id: wholeNumberParam('id', 1, 2_147_483_647) });

/**
 * The member's push choice per notification kind (every kind the bell has: common/notification-text.ts):
 * GET lists them all, PUT takes the kinds they do not want pushed.
 */
export const pushKindsSchema = z.object({
  kinds: z.array(z.object({ kind: z.enum(NOTIFICATION_KINDS), push: z.boolean() })),
});
export type PushKinds = z.infer<typeof pushKindsSchema>;
export const pushKindsUpdateSchema = z.strictObject({
  muted: z.array(z.enum(NOTIFICATION_KINDS)).max(NOTIFICATION_KINDS.length * 2),
});
