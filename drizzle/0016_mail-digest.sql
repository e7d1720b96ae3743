ALTER TABLE "users" ADD COLUMN "last_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "mailed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "mail_proposals" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "mail_messages" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "notifications_unread_recent_idx" ON "notifications" USING btree ("created_at") WHERE "notifications"."read_at" IS NULL;--> statement-breakpoint
-- Nothing unread before today is mailed: the digest starts from now.
UPDATE "users" SET "mailed_until" = now();
