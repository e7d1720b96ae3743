import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** Members (spec section 3). E-mail is stored normalised (trimmed, lower case) and unique. */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email'),
    passwordHash: text('password_hash'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    /**
     * How other members see this member's name ("Maya O.", or "Maya Ol." when another Maya O. lives
     * near): kept by the database (trigger `users_shown_name`, ADR 058), never written by the app.
     */
    displayName: text('display_name'),
    profileImageUrl: text('profile_image_url'),
    location: text('location'),
    latitude: numeric('latitude', { precision: 10, scale: 8, mode: 'number' }),
    longitude: numeric('longitude', { precision: 11, scale: 8, mode: 'number' }),
    /**
     * The point other members' distances are computed from (server/geo/public-point.ts): the exact
     * point's ~1 km grid cell centre plus a random offset kept while the member stays in that cell.
     * Never sent to anyone; items copy it (migration 0007/0009 triggers) for radius scans.
     */
    publicLatitude: numeric('public_latitude', { precision: 10, scale: 8, mode: 'number' }),
    publicLongitude: numeric('public_longitude', { precision: 11, scale: 8, mode: 'number' }),
    maxTravelDistance: integer('max_travel_distance').notNull().default(25),
    onboardingCompleted: boolean('onboarding_completed').notNull().default(false),
    /** Google's stable subject id, when the member signed in with Google. */
    googleSub: text('google_sub'),
    /** The name typed at demo login, for members created by it (not unique: every visitor gets their own). */
    demoName: text('demo_name'),
    /** A demo account: made by demo login, never signed into by anyone but the browser that made it. */
    isDemo: boolean('is_demo').notNull().default(false),
    /** A few words the member writes about themselves, shown on their page (moderated). */
    bio: text('bio'),
    /** 'moderator' may act on reports (ADR 025); given only by `npm run admin -- grant EMAIL`. */
    role: text('role', { enum: ['member', 'moderator'] })
      .notNull()
      .default('member'),
    /** Suspended until then: may sign in only to read their account and appeal; listings hidden. */
    suspendedUntil: timestamp('suspended_until', { withTimezone: true }),
    /** Banned: cannot sign in, every session ended, listings hidden for good. */
    bannedAt: timestamp('banned_at', { withTimezone: true }),
    /** Last seen with a page open (an event stream), for the e-mail digest (ADR 026). */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    /** Notifications created up to here were mailed, or seen (ADR 026). */
    mailedUntil: timestamp('mailed_until', { withTimezone: true }),
    /**
     * The language the member reads Barterhood in ('en' or 'es'), for the e-mail we send them: the
     * one their pages last asked for (ADR 060). Null until known (English, or a request's language).
     */
    locale: text('locale', { enum: ['en', 'es'] }),
    /** When the member proved they read mail at `email` (null: not yet; ADR 024). */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    uniqueIndex('users_google_sub_unique').on(t.googleSub),
    // Bounding-box prefilter for radius queries (docs/stack-notes.md).
    index('users_lat_lon_idx').on(t.latitude, t.longitude),
    // Radius queries over what other members may learn: the public point.
    index('users_public_lat_lon_idx').on(t.publicLatitude, t.publicLongitude),
    // Names shown alike: the trigger looks up nearby members showing a candidate name (ADR 058).
    index('users_display_name_idx').on(sql`lower(${t.displayName})`),
    check('users_max_travel_distance_range', sql`${t.maxTravelDistance} BETWEEN 1 AND 100`),
    check('users_latitude_range', sql`${t.latitude} BETWEEN -90 AND 90`),
    check('users_longitude_range', sql`${t.longitude} BETWEEN -180 AND 180`),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
