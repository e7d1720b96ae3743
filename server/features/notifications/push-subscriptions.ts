import { and, desc, eq, sql } from 'drizzle-orm';
import type { PushDevice, PushSubscribeInput } from '#common/schemas/push.ts';
import type { Db } from '../../db/client';
import { pushSubscriptions } from '../../db/schema/web-push';
import { badRequest } from '../../errors';
import { describeDevice } from '../../plugins/session';

/** A member's devices at most; a new one past it replaces their oldest (a flood keeps this many). */
export const DEVICES_PER_MEMBER = 20;
/** How much of a User-Agent is kept: enough to name the browser and system. */
const USER_AGENT_LENGTH = 512;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether the server may POST to `endpoint` (ADR 087): https at a push service's host
 * (WEB_PUSH_SERVICE_HOSTS; ".push.apple.com" takes any subdomain), so a member cannot make the
 * server post to an address of its own network. Plain http only to a loopback host listed there
 * (a push service on the same machine, as the tests run).
 */
export function isPushServiceEndpoint(endpoint: string, serviceHosts: readonly string[]): boolean {
  if (!URL.canParse(endpoint)) return false;
  const url = new URL(endpoint);
  if (url.username || url.password) return false;
  const host = url.hostname.toLowerCase();
  const listed = serviceHosts.some((allowed) =>
    allowed.startsWith('.') ? host.endsWith(allowed) && host.length > allowed.length : host === allowed,
  );
  if (!listed) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(host));
}

function present(row: typeof pushSubscriptions.$inferSelect): PushDevice {
  return {
    id: row.id,
    endpoint: row.endpoint,
    device: describeDevice(row.userAgent),
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Keep a device's subscription for the member. The endpoint is the device's: subscribing it again
 * (new keys, or another member signed in on it) replaces the row. Past DEVICES_PER_MEMBER the
 * member's oldest devices go.
 */
export async function subscribeDevice(
  db: Db,
  input: {
    userId: string;
    subscription: PushSubscribeInput;
    userAgent: string;
    serviceHosts: readonly string[];
  },
): Promise<PushDevice> {
  const { endpoint, keys } = input.subscription;
  if (!isPushServiceEndpoint(endpoint, input.serviceHosts))
    throw badRequest('The endpoint is not at a push service this site sends to.');
  return db.transaction(async (tx) => {
    const userAgent = input.userAgent.slice(0, USER_AGENT_LENGTH);
    const [row] = await tx
      .insert(pushSubscriptions)
      .values({ userId: input.userId, endpoint, p256dh: keys.p256dh, auth: keys.auth, userAgent })
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: { userId: input.userId, p256dh: keys.p256dh, auth: keys.auth, userAgent, createdAt: sql`now()` },
      })
      .returning();
    if (!row) throw new Error('subscribeDevice: nothing returned');
    await tx.execute(sql`
      DELETE FROM ${pushSubscriptions} WHERE id IN (
        SELECT id FROM ${pushSubscriptions} WHERE user_id = ${input.userId}::uuid
         ORDER BY created_at DESC, id DESC OFFSET ${DEVICES_PER_MEMBER})`);
    return present(row);
  });
}

/** The member's devices, newest first. */
export async function listDevices(db: Db, userId: string): Promise<PushDevice[]> {
  const rows = await db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(desc(pushSubscriptions.createdAt), desc(pushSubscriptions.id));
  return rows.map(present);
}

/** Stop pushing to one of the member's devices; false when it is not theirs (or gone). */
export async function removeDevice(db: Db, userId: string, id: number): Promise<boolean> {
  const gone = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.userId, userId)))
    .returning({ id: pushSubscriptions.id });
  return gone.length > 0;
}
