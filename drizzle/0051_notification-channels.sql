CREATE TABLE "notification_channels" (
	"user_id" uuid NOT NULL,
	"kind_group" text NOT NULL,
	"channel" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_channels_user_id_kind_group_pk" PRIMARY KEY("user_id","kind_group"),
	CONSTRAINT "notification_channels_channel" CHECK ("notification_channels"."channel" IN ('push', 'digest', 'none'))
);
--> statement-breakpoint
ALTER TABLE "notification_channels" ADD CONSTRAINT "notification_channels_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- ADR 090: each group of notification kinds reaches a member by push, the e-mail digest or not at
-- all (the bell has every entry). The groups and defaults are common/notification-channels.ts's; a
-- test holds these functions to it. A kind no group names yet is pushed, as every kind was (ADR 087).
CREATE FUNCTION "notification_kind_group"(kind text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN kind IN ('proposal_received', 'proposal_countered', 'hand_over_reminder_day', 'hand_over_reminder_hour', 'no_show_reported', 'no_show_answered') THEN 'proposals'
    WHEN kind IN ('message_received') THEN 'messages'
    WHEN kind IN ('proposal_accepted', 'proposal_declined', 'proposal_withdrawn', 'proposal_expired', 'proposal_unavailable', 'barter_cancelled', 'completion_requested', 'barter_completed', 'rating_received', 'want_question', 'hand_over_proposed', 'hand_over_agreed', 'hand_over_rescheduled', 'hand_over_running_late') THEN 'barters'
    WHEN kind IN ('circle_proposed', 'circle_accepted', 'circle_declined', 'circle_expired', 'circle_unavailable', 'swap_day_solved') THEN 'circles'
    WHEN kind IN ('listing_alert') THEN 'listing_alerts'
    WHEN kind IN ('listing_still_available', 'listing_paused_stale') THEN 'listings'
    WHEN kind IN ('moderation_warning') THEN 'moderation'
  END
$$;--> statement-breakpoint
-- The channel of one member's kind: their choice for its group, else the default: the digest's
-- groups (proposals, messages, listings) by e-mail until the member has a push device, everything else by push.
CREATE FUNCTION "notification_channel"(member uuid, kind text) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT coalesce(
    (SELECT c."channel" FROM "notification_channels" c
      WHERE c."user_id" = member AND c."kind_group" = "notification_kind_group"(kind)),
    CASE WHEN "notification_kind_group"(kind) IN ('proposals', 'messages', 'listings')
          AND NOT EXISTS (SELECT 1 FROM "push_subscriptions" s WHERE s."user_id" = member)
         THEN 'digest' ELSE 'push' END)
$$;--> statement-breakpoint
-- Nobody's choices are lost: the digest's switches (users.mail_proposals, mail_messages) and the
-- kinds muted for push (push_muted_kinds) become channels where they differ from the default.
-- Mail off: push where the member had a device that got the kind, else none.
-- Mail on with a device that did not get the kind: the digest (the default would be push).
INSERT INTO "notification_channels" ("user_id", "kind_group", "channel")
SELECT u."id", g."kind_group",
       CASE WHEN g."mailed" THEN 'digest' ELSE 'none' END
  FROM "users" u
 CROSS JOIN LATERAL (VALUES ('proposals', u."mail_proposals", 'proposal_received'),
                            ('messages', u."mail_messages", 'message_received')) AS g("kind_group", "mailed", "kind")
 WHERE CASE WHEN EXISTS (SELECT 1 FROM "push_subscriptions" s WHERE s."user_id" = u."id")
                 AND NOT EXISTS (SELECT 1 FROM "push_muted_kinds" m WHERE m."user_id" = u."id" AND m."kind" = g."kind")
            THEN false  -- pushed before, pushed by default now
            WHEN EXISTS (SELECT 1 FROM "push_subscriptions" s WHERE s."user_id" = u."id")
            THEN true   -- a device that did not get the kind: mail on gives digest, mail off none
            ELSE NOT g."mailed"  -- no device: the default digest unless mail was off
       END;--> statement-breakpoint
-- The groups that were only pushed: none when the member muted every kind of the group.
INSERT INTO "notification_channels" ("user_id", "kind_group", "channel")
SELECT muted."user_id", muted."kind_group", 'none'
  FROM (SELECT m."user_id", "notification_kind_group"(m."kind") AS "kind_group", count(DISTINCT m."kind") AS "kinds"
          FROM "push_muted_kinds" m GROUP BY 1, 2) AS muted
  JOIN (SELECT "notification_kind_group"(k."kind") AS "kind_group", count(*) AS "kinds"
          FROM unnest(ARRAY['proposal_received', 'proposal_countered', 'hand_over_reminder_day', 'hand_over_reminder_hour', 'no_show_reported', 'no_show_answered', 'message_received', 'proposal_accepted', 'proposal_declined', 'proposal_withdrawn', 'proposal_expired', 'proposal_unavailable', 'barter_cancelled', 'completion_requested', 'barter_completed', 'rating_received', 'want_question', 'hand_over_proposed', 'hand_over_agreed', 'hand_over_rescheduled', 'hand_over_running_late', 'circle_proposed', 'circle_accepted', 'circle_declined', 'circle_expired', 'circle_unavailable', 'swap_day_solved', 'listing_alert', 'listing_still_available', 'listing_paused_stale', 'moderation_warning']::text[]) AS k("kind")
         GROUP BY 1) AS every_kind
    ON every_kind."kind_group" = muted."kind_group" AND every_kind."kinds" = muted."kinds"
 WHERE muted."kind_group" NOT IN ('proposals', 'messages', 'listings');--> statement-breakpoint
-- The push outbox's trigger (migration 0045) now asks the channel: a kind goes to the member's
-- devices when its group goes by push.
CREATE OR REPLACE FUNCTION "queue_web_pushes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "push_deliveries" ("subscription_id", "notification_id")
  SELECT s."id", n."id"
    FROM "new_notifications" n
    JOIN "push_subscriptions" s ON s."user_id" = n."user_id"
   WHERE "notification_channel"(n."user_id", n."kind") = 'push';
  IF FOUND THEN
    PERFORM pg_notify('web_push', '');
  END IF;
  RETURN NULL;
END;
$$;
