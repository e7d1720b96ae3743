import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { ERROR_CODES } from '#common/error-codes.ts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { reports } from '../../db/schema/safety';
import { items } from '../../db/schema/trading';
import { users } from '../../db/schema/users';
import { badRequest } from '../../errors';
import type { ScreeningStep } from '../../photos/photo-pipeline';
import { type PhotoScreener, photoScreener, type Screening } from '../../photos/screening/photo-screener';
import { recordRefusal } from './refusals';

/** The settings' photo screening (ADR 027): the process's screener and how likely is too likely. */
export interface PhotoScreeningPolicy {
  screener: PhotoScreener;
  threshold: number;
}

/** The policy the settings ask for; null when PHOTO_SCREENING is off. */
export function photoScreeningPolicy(
  config: Pick<Config, 'photoScreening'>,
  screener: PhotoScreener = photoScreener,
): PhotoScreeningPolicy | null {
  return config.photoScreening.enabled ? { screener, threshold: config.photoScreening.threshold } : null;
}

/** The screening found the photo likely explicit. */
export function likelyExplicit(screening: Screening | null, policy: PhotoScreeningPolicy | null): boolean {
  return (
    policy !== null &&
    screening !== null &&
    screening.explicit !== undefined &&
    screening.explicit >= policy.threshold
  );
}

/** Log a photo the screener could not look at (it goes through: ADR 027). */
export function logUnscreened(log: FastifyBaseLogger, screening: Screening | null): void {
  if (screening?.unavailable !== undefined) {
    log.warn({ reason: screening.unavailable }, 'photo screening unavailable: the photo was not screened');
  }
}

const percent = (screening: Screening) => `${Math.round((screening.explicit ?? 0) * 100)}%`;

/** The screening step of a listing's photo: screened, always stored (a moderator must see it). */
export function listingScreening(policy: PhotoScreeningPolicy | null): ScreeningStep | null {
  return policy ? { screener: policy.screener } : null;
}

/**
 * The screening step of a profile photo: one found likely explicit is refused before it is stored
 * (400 CONTENT_NOT_ALLOWED) and the refusal recorded for the moderators' screen.
 */
export function profilePhotoScreening(
  db: Db,
  memberId: string,
  policy: PhotoScreeningPolicy | null,
): ScreeningStep | null {
  if (!policy) return null;
  return {
    screener: policy.screener,
    check: async (screening) => {
      if (!likelyExplicit(screening, policy)) return;
      // Recorded before the answer, so the moderators' list has it when the member sees the refusal.
      await recordRefusal(
        db,
        memberId,
        'profile-photo',
        'explicit photo',
        `Profile photo screened ${percent(screening)} likely explicit; not stored.`,
      );
      throw badRequest(
        'This photo cannot be used: it looks like explicit material, which the Terms do not allow. Please choose another.',
        ERROR_CODES.contentNotAllowed,
      );
    },
  };
}

/**
 * Send a listing whose photo the screening found likely explicit to the moderators' queue: a report
 * with no reporter (the screening's), unless one is already open for it. The item itself is written
 * as held (inactive, moderation 'held') by its create or edit.
 */
export async function reportScreenedPhoto(db: Db, itemId: number, ownerId: string, screening: Screening) {
  await db.execute(sql`
    INSERT INTO ${reports} (reporter_id, target_kind, target_id, target_user_id, reason, note)
    SELECT NULL, 'item', ${String(itemId)}, ${ownerId}, 'explicit',
      ${`The photo screening found this photo ${percent(screening)} likely explicit. The listing shows once a moderator dismisses this.`}
    WHERE NOT EXISTS (
      SELECT 1 FROM ${reports}
      WHERE target_kind = 'item' AND target_id = ${String(itemId)} AND status = 'open' AND reporter_id IS NULL
    )`);
}

/**
 * A moderator closed the case of a held listing without removing it: it shows again, or stays
 * hidden as 'suspended' while its owner is suspended or banned.
 */
export async function releaseHeldItem(db: Db, itemId: number): Promise<void> {
  const ownerHidden = sql`EXISTS (
    SELECT 1 FROM ${users} WHERE ${users.id} = ${items.userId}
      AND (${users.bannedAt} IS NOT NULL OR ${users.suspendedUntil} > now())
  )`;
  await db
    .update(items)
    .set({
      moderation: sql`CASE WHEN ${ownerHidden} THEN 'suspended' ELSE NULL END`,
      isActive: sql`NOT ${ownerHidden}`,
    })
    .where(and(eq(items.id, itemId), eq(items.moderation, 'held')));
}
