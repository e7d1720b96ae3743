ALTER TABLE "items" ADD COLUMN "confirmed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "stale_asked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "stale_paused_at" timestamp with time zone;--> statement-breakpoint
-- Listings from before issue 31's stale listings (ADR 088) were last confirmed when last edited.
UPDATE "items" SET "confirmed_at" = "updated_at";--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "item_id" integer;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "item_title" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "items_active_unasked_confirmed_idx" ON "items" USING btree ("confirmed_at") WHERE "items"."is_active" AND "items"."stale_asked_at" IS NULL;--> statement-breakpoint
CREATE INDEX "items_active_asked_idx" ON "items" USING btree ("stale_asked_at") WHERE "items"."is_active" AND "items"."stale_asked_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "notifications_item_idx" ON "notifications" USING btree ("item_id") WHERE "notifications"."item_id" IS NOT NULL;