import { and, asc, eq, inArray, lte, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { AUTH_ERROR_CODES, normalizeEmail } from '#common/schemas/auth.ts';
import { memberBlocks, reports } from '../../db/schema/safety';
import {
  barterRequestItems,
  barterRequests,
  items,
  messages,
  ratings,
  savedItems,
  wants,
} from '../../db/schema/trading';
import { type UserRow, users } from '../../db/schema/users';
import { badRequest } from '../../errors';
import { endSessions, presentCurrentUser, verifyPassword } from '../auth';
import { exportHandOversOf } from '../barters';
import { exportCirclesOf } from '../circles';
import { removeUnusedPhotos } from '../items';
import { exportNotificationSettingsOf, notifyMember } from '../notifications';
import { exportSwapDaysOf } from '../swap-days';

type App = Pick<FastifyInstance, 'db' | 'mailer' | 'config' | 'log' | 'eventHub' | 'photoStore'>;

/** Columns never exported: the database's own working copies and secrets. */
const itemColumns = {
  id: items.id,
  title: items.title,
  description: items.description,
  category: items.category,
  isService: items.isService,
  estimatedValue: items.estimatedValue,
  imageUrl: items.imageUrl,
  photos: items.photos,
  condition: items.condition,
  isActive: items.isActive,
  moderation: items.moderation,
  viewCount: items.viewCount,
  createdAt: items.createdAt,
  updatedAt: items.updatedAt,
};

/**
 * Everything the member created, and their barters and messages, as one JSON document (ADR 025):
 * their account, listings, wants, saved items, barters with both sides' items, the messages of those
 * conversations, ratings given and received, reports filed, blocks, and swap days organized or
 * joined with their own offers and rankings, trade circles with their loops, and their hand-overs:
 * their own hand-over codes (never the other member's) and the plans (ADR 078), their notification
 * channels and push devices (named, never their endpoints or keys: ADR 090). Other members appear
 * by id only (their names are theirs).
 */
export async function exportMemberData(app: App, member: UserRow): Promise<Record<string, unknown>> {
  const db = app.db;
  const mine = or(eq(barterRequests.fromUserId, member.id), eq(barterRequests.toUserId, member.id));
  const barters = await db.select().from(barterRequests).where(mine).orderBy(asc(barterRequests.id));
  const ids = barters.map((row) => row.id);
  const threadIds = [...new Set(barters.map((row) => row.threadId ?? row.id))];
  const sides = ids.length
    ? await db.select().from(barterRequestItems).where(inArray(barterRequestItems.barterRequestId, ids))
    : [];
  const conversation = threadIds.length
    ? await db
        .select()
        .from(messages)
        .where(inArray(messages.barterRequestId, threadIds))
        .orderBy(asc(messages.id))
    : [];
  return {
    exportedAt: new Date().toISOString(),
    format: 'Barterhood member data, version 1',
    account: {
      ...presentCurrentUser(member),
      createdAt: member.createdAt.toISOString(),
      emailVerifiedAt: member.emailVerifiedAt?.toISOString() ?? null,
    },
    items: await db.select(itemColumns).from(items).where(eq(items.userId, member.id)).orderBy(asc(items.id)),
    wants: await db
      .select({
        id: wants.id,
        title: wants.title,
        description: wants.description,
        category: wants.category,
        isService: wants.isService,
        maxValue: wants.maxValue,
        isActive: wants.isActive,
        createdAt: wants.createdAt,
      })
      .from(wants)
      .where(eq(wants.userId, member.id))
      .orderBy(asc(wants.id)),
    savedItems: await db.select().from(savedItems).where(eq(savedItems.userId, member.id)),
    barters: barters.map((row) => ({
      id: row.id,
      threadId: row.threadId ?? row.id,
      role: row.fromUserId === member.id ? 'proposer' : 'recipient',
      otherMemberId: row.fromUserId === member.id ? row.toUserId : row.fromUserId,
      status: row.status,
      circleId: row.circleId,
      message: row.message,
      closeReason: row.closeReason,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      items: sides
        .filter((side) => side.barterRequestId === row.id)
        .map((side) => ({
          side: side.side,
          itemId: side.itemId,
          title: side.title,
          category: side.category,
          isService: side.isService,
        })),
    })),
    messages: conversation.map((row) => ({
      id: row.id,
      threadId: row.barterRequestId,
      fromMe: row.fromUserId === member.id,
      content: row.removedAt ? 'This message was removed by a moderator.' : row.content,
      createdAt: row.createdAt,
    })),
    ratingsGiven: await db.select().from(ratings).where(eq(ratings.raterId, member.id)),
    ratingsReceived: await db
      .select({
        id: ratings.id,
        barterRequestId: ratings.barterRequestId,
        stars: ratings.stars,
        comment: ratings.comment,
        createdAt: ratings.createdAt,
      })
      .from(ratings)
      // Not those still hidden from the member (revealed together, ADR 074).
      .where(and(eq(ratings.rateeId, member.id), lte(ratings.revealedAt, new Date()))),
    reportsFiled: await db
      .select({
        id: reports.id,
        targetKind: reports.targetKind,
        targetId: reports.targetId,
        reason: reports.reason,
        note: reports.note,
        status: reports.status,
        createdAt: reports.createdAt,
      })
      .from(reports)
      .where(eq(reports.reporterId, member.id)),
    blocked: await db
      .select({ memberId: memberBlocks.blockedId, since: memberBlocks.createdAt })
      .from(memberBlocks)
      .where(eq(memberBlocks.blockerId, member.id)),
    swapDays: await exportSwapDaysOf(db, member.id),
    tradeCircles: await exportCirclesOf(db, member.id),
    ...(await exportHandOversOf(db, member.id)),
    // How each group of notifications reaches them, and their push devices by name and date (ADR 090).
    ...(await exportNotificationSettingsOf(db, member.id)),
  };
}

/**
 * Delete the member's account (ADR 025), confirmed with their password (or, without one, their
 * e-mail typed again). Their listings, wants and unfinished barters go (pending proposals are
 * withdrawn, accepted barters cancelled and their items released, the other side told); completed
 * trades stay in the other member's history as 'Former member', and their messages stay in the
 * other member's conversations without a name. Every session ends.
 */
export async function deleteAccount(
  app: App,
  member: UserRow,
  confirmation: { password?: string | undefined; email?: string | undefined },
): Promise<void> {
  if (member.passwordHash !== null) {
    if (!(await verifyPassword(member.passwordHash, confirmation.password ?? ''))) {
      throw badRequest('Your password is not correct.', AUTH_ERROR_CODES.currentPasswordWrong);
    }
  } else if (member.email && normalizeEmail(confirmation.email ?? '') !== member.email) {
    throw badRequest('Please type your email address to confirm.', AUTH_ERROR_CODES.currentPasswordWrong);
  }
  const photos = await app.db
    .select({ imageUrl: items.imageUrl, thumbnailUrl: items.thumbnailUrl, all: items.photos })
    .from(items)
    .where(eq(items.userId, member.id));
  await app.db.transaction(async (tx) => {
    const party = or(eq(barterRequests.fromUserId, member.id), eq(barterRequests.toUserId, member.id));
    const now = new Date();
    const withdrawn = await tx
      .update(barterRequests)
      .set({ status: 'withdrawn', updatedAt: now, closeReason: 'Account deleted' })
      .where(and(party, eq(barterRequests.status, 'pending')))
      .returning();
    const cancelled = await tx
      .update(barterRequests)
      .set({ status: 'cancelled', updatedAt: now, closeReason: 'Account deleted' })
      .where(and(party, eq(barterRequests.status, 'accepted')))
      .returning();
    if (cancelled.length) {
      await tx
        .update(items)
        .set({ reservedByRequestId: null })
        .where(
          inArray(
            items.reservedByRequestId,
            cancelled.map((row) => row.id),
          ),
        );
    }
    for (const row of [...withdrawn, ...cancelled]) {
      const other = row.fromUserId === member.id ? row.toUserId : row.fromUserId;
      if (other) {
        await notifyMember(tx, {
          userId: other,
          kind: row.status === 'cancelled' ? 'barter_cancelled' : 'proposal_withdrawn',
          barterRequestId: row.id,
          actorId: null,
        });
      }
    }
    await tx.delete(items).where(eq(items.userId, member.id));
    await tx.delete(users).where(eq(users.id, member.id));
  });
  await endSessions(app, member.id);
  await removeUnusedPhotos(
    { db: app.db, store: app.photoStore, log: app.log },
    photos.flatMap((row) => [
      row.imageUrl,
      row.thumbnailUrl,
      ...row.all.flatMap((photo) => [photo.imageUrl, photo.thumbnailUrl]),
    ]),
  );
}
