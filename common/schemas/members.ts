import { z } from 'zod';
import { BIO_MAX_LENGTH } from '../constants';
import { memberRefSchema } from './barters';
import { approximateAreaSchema } from './places';
import { textField } from './text';
import { tradeStatsSchema } from './trades';

/**
 * `:id` of /api/members/:id: any text. A malformed id answers 404 like an unknown one (the trades
 * routes do the same), so the check is the server's, not the schema's.
 */
export const memberParamsSchema = z.object({ id: z.string() });

/**
 * 403 of /api/members/:id and its lists when the viewer blocked that member: the blocker is told
 * ("You blocked this member"); the blocked member gets the 404 of an unknown id (issue 28).
 */
export const MEMBER_ERROR_CODES = { blockedByYou: 'MEMBER_BLOCKED_BY_YOU' } as const;

/**
 * GET /api/members/:id: a member's public page (issue 13). What other members may see only: the
 * name as "Ann R.", the picture, the town nearest their public point, when they joined and their
 * trade record. Never an e-mail, a position or the location text they typed.
 */
export const memberProfileSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  profileImageUrl: z.string().nullable(),
  /** The town or neighborhood nearest the member's public point (ADR 015); null without a location. */
  area: z.string().nullable(),
  /** The circle a map draws around the member's public point (never their exact point); null without a location. */
  approximateArea: approximateAreaSchema.nullable(),
  memberSince: z.iso.datetime(),
  /** The same numbers as GET /api/users/:id/trade-stats. */
  stats: tradeStatsSchema,
  /** common/trader-reputation.ts: at least 3 completed trades and 4.5 stars on average. */
  trustedTrader: z.boolean(),
  /** A few words the member wrote about themselves (moderated); null when none. */
  bio: z.string().nullable(),
});

export type MemberProfile = z.infer<typeof memberProfileSchema>;

/** A rating the member received, as their page lists it (GET /api/members/:id/ratings). */
export const memberRatingSchema = z.object({
  id: z.number().int(),
  stars: z.number().int().min(1).max(5),
  comment: z.string().nullable(),
  /** Who gave it ('User' with a null id when their account was deleted). */
  rater: memberRefSchema,
  createdAt: z.iso.datetime(),
});

export type MemberRating = z.infer<typeof memberRatingSchema>;

/** GET /api/members/:id/ratings: a page of ratings received, newest first (total in X-Total-Count). */
export const memberRatingListSchema = z.array(memberRatingSchema);

/** The most wants GET /api/members/:id/wants lists (newest first). */
export const MEMBER_WANTS_MAX = 50;

/** One of a member's active wants as their page shows it: what, in which category, service or goods. */
export const memberWantSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  category: z.string(),
  isService: z.boolean(),
});

export type MemberWant = z.infer<typeof memberWantSchema>;

/** GET /api/members/:id/wants: up to MEMBER_WANTS_MAX active wants, newest first. */
export const memberWantListSchema = z.array(memberWantSchema);

/** PUT /api/user/bio: a few words about yourself; blank removes them. */
export const bioSchema = z.strictObject({
  bio: textField('About you', { multiline: true }).max(
    BIO_MAX_LENGTH,
    `Please keep it under ${BIO_MAX_LENGTH} characters.`,
  ),
});
