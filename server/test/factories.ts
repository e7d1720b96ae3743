import { randomUUID } from 'node:crypto';
import { sign as signCookie } from '@fastify/cookie';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';
import {
  barterRequestItems,
  barterRequests,
  type ItemRow,
  items,
  messages,
  ratings,
  type WantRow,
  wants,
} from '../db/schema/trading';
import { type NewUserRow, type UserRow, users } from '../db/schema/users';
import { hashPassword } from '../features/auth';
import { hashSessionId, SESSION_COOKIE, SESSION_IDLE_MS } from '../plugins/session';
import { insertSession } from '../plugins/session-store';

let sequence = 0;
const next = () => ++sequence;

/** Values for a member with a unique e-mail; `password` (plain) becomes a real argon2id hash in createUser. */
export function buildUser(overrides: Partial<NewUserRow> = {}): NewUserRow {
  const n = next();
  return {
    email: `member${n}-${randomUUID().slice(0, 8)}@example.test`,
    firstName: `Member${n}`,
    lastName: 'Tester',
    ...overrides,
  };
}

/** Insert a member. Pass `password` to give them one they can sign in with. */
export async function createUser(
  db: Db,
  overrides: Partial<NewUserRow> & { password?: string } = {},
): Promise<UserRow> {
  const { password, ...values } = overrides;
  const passwordHash = password ? await hashPassword(password) : (values.passwordHash ?? null);
  const [row] = await db
    .insert(users)
    .values(buildUser({ ...values, passwordHash }))
    .returning();
  if (!row) throw new Error('createUser: insert returned nothing');
  return row;
}

/** Insert a message between two members, creating either side when not given. */
export async function createMessage(
  db: Db,
  overrides: { fromUserId?: string; toUserId?: string; content?: string; isRead?: boolean } = {},
) {
  const fromUserId = overrides.fromUserId ?? (await createUser(db)).id;
  const toUserId = overrides.toUserId ?? (await createUser(db)).id;
  const [row] = await db
    .insert(messages)
    .values({
      fromUserId,
      toUserId,
      content: overrides.content ?? `Hello ${next()}`,
      isRead: overrides.isRead ?? false,
    })
    .returning();
  if (!row) throw new Error('createMessage: insert returned nothing');
  return row;
}

/** Insert an item (goods, category "tools" unless overridden), creating its owner when not given. */
export async function createItem(
  db: Db,
  overrides: Partial<typeof items.$inferInsert> = {},
): Promise<ItemRow> {
  const n = next();
  const userId = overrides.userId ?? (await createUser(db)).id;
  const [row] = await db
    .insert(items)
    .values({
      title: `Item ${n}`,
      description: `A useful thing, number ${n}.`,
      category: 'tools',
      ...overrides,
      userId,
    })
    .returning();
  if (!row) throw new Error('createItem: insert returned nothing');
  return row;
}

/** Insert a want (goods, category "books" unless overridden), creating its owner when not given. */
export async function createWant(
  db: Db,
  overrides: Partial<typeof wants.$inferInsert> = {},
): Promise<WantRow> {
  const n = next();
  const userId = overrides.userId ?? (await createUser(db)).id;
  const [row] = await db
    .insert(wants)
    .values({ title: `Want ${n}`, category: 'books', ...overrides, userId })
    .returning();
  if (!row) throw new Error('createWant: insert returned nothing');
  return row;
}

/**
 * Cookies of a session for this member, made directly in the database (no password round trip),
 * for `app.inject({ cookies })`. Tests of sign-in itself go through the endpoints instead.
 */
export async function sessionCookiesFor(app: FastifyInstance, user: { id: string }) {
  return signedSessionCookies(app.db, user, app.config.sessionSecret);
}

/**
 * The same for a server in another process (its SESSION_SECRET): the session made in `db`, the
 * cookie signed as @fastify/cookie signs it.
 */
export async function signedSessionCookies(db: Db, user: { id: string }, secret: string) {
  const id = randomUUID() + randomUUID();
  const now = Date.now();
  await insertSession(
    db,
    hashSessionId(id),
    { userId: user.id, createdAt: now },
    new Date(now + SESSION_IDLE_MS),
  );
  return { [SESSION_COOKIE]: signCookie(id, secret) };
}

/**
 * Insert a barter request ('pending' unless overridden), creating either member when not given;
 * pass `fromUserId: null` or `toUserId: null` for a member who has since been deleted. Like a
 * request made before issue 13 (migration 0010): its own thread unless `threadId` is given, and
 * `fromItemId`/`toItemId` listed as its one item per side.
 */
export async function createBarterRequest(
  db: Db,
  overrides: Partial<typeof barterRequests.$inferInsert> = {},
): Promise<typeof barterRequests.$inferSelect> {
  const fromUserId = 'fromUserId' in overrides ? overrides.fromUserId : (await createUser(db)).id;
  const toUserId = 'toUserId' in overrides ? overrides.toUserId : (await createUser(db)).id;
  const [inserted] = await db
    .insert(barterRequests)
    .values({ createdAt: overrides.updatedAt, ...overrides, fromUserId, toUserId })
    .returning();
  if (!inserted) throw new Error('createBarterRequest: insert returned nothing');
  let row = inserted;
  if (inserted.threadId === null) {
    // The same updated_at, so lists ordered by it see the request as given.
    const [threaded] = await db
      .update(barterRequests)
      .set({ threadId: inserted.id, updatedAt: inserted.updatedAt })
      .where(eq(barterRequests.id, inserted.id))
      .returning();
    if (threaded) row = threaded;
  }
  const sides = [
    ['from', row.fromItemId],
    ['to', row.toItemId],
  ] as const;
  for (const [side, itemId] of sides) {
    if (itemId === null) continue;
    const [item] = await db.select().from(items).where(eq(items.id, itemId));
    if (!item) continue;
    await db.insert(barterRequestItems).values({
      barterRequestId: row.id,
      itemId,
      side,
      position: 0,
      title: item.title,
      category: item.category,
      isService: item.isService,
    });
  }
  return row;
}

/** Insert a rating (5 stars unless overridden) by the requester of a trade for the other member. */
export async function createRating(
  db: Db,
  overrides: Partial<typeof ratings.$inferInsert> = {},
): Promise<typeof ratings.$inferSelect> {
  const trade =
    overrides.barterRequestId === undefined
      ? await createBarterRequest(db, { status: 'completed' })
      : undefined;
  const raterId = 'raterId' in overrides ? overrides.raterId : trade?.fromUserId;
  const rateeId = overrides.rateeId ?? trade?.toUserId;
  const barterRequestId = overrides.barterRequestId ?? trade?.id;
  if (!rateeId || barterRequestId === undefined) {
    throw new Error('createRating: give barterRequestId and rateeId together, or neither');
  }
  const [row] = await db
    .insert(ratings)
    .values({ stars: 5, revealedAt: new Date(), ...overrides, barterRequestId, raterId, rateeId })
    .returning();
  if (!row) throw new Error('createRating: insert returned nothing');
  return row;
}
