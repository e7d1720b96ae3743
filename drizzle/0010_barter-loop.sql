CREATE TABLE "barter_request_items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "barter_request_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"barter_request_id" integer NOT NULL,
	"item_id" integer,
	"side" text NOT NULL,
	"position" smallint NOT NULL,
	"title" text NOT NULL,
	"category" text NOT NULL,
	"is_service" boolean NOT NULL,
	CONSTRAINT "barter_request_items_side" CHECK ("barter_request_items"."side" IN ('from', 'to'))
);
--> statement-breakpoint
CREATE TABLE "member_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "member_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" uuid NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "notifications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"barter_request_id" integer,
	"actor_id" uuid,
	"count" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "messages_barter_request_idx";--> statement-breakpoint
ALTER TABLE "barter_requests" ADD COLUMN "thread_id" integer;--> statement-breakpoint
ALTER TABLE "barter_requests" ADD COLUMN "counter_of_id" integer;--> statement-breakpoint
ALTER TABLE "barter_requests" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "barter_requests" ADD COLUMN "from_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "barter_requests" ADD COLUMN "to_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "barter_requests" ADD COLUMN "accepted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "barter_requests" ADD COLUMN "closed_by_id" uuid;--> statement-breakpoint
ALTER TABLE "barter_requests" ADD COLUMN "close_reason" text;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "reserved_by_request_id" integer;--> statement-breakpoint
ALTER TABLE "barter_request_items" ADD CONSTRAINT "barter_request_items_barter_request_id_barter_requests_id_fk" FOREIGN KEY ("barter_request_id") REFERENCES "public"."barter_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "barter_request_items" ADD CONSTRAINT "barter_request_items_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_events" ADD CONSTRAINT "member_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_barter_request_id_barter_requests_id_fk" FOREIGN KEY ("barter_request_id") REFERENCES "public"."barter_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "barter_request_items_request_side_position_unique" ON "barter_request_items" USING btree ("barter_request_id","side","position");--> statement-breakpoint
CREATE UNIQUE INDEX "barter_request_items_request_item_unique" ON "barter_request_items" USING btree ("barter_request_id","item_id");--> statement-breakpoint
CREATE INDEX "barter_request_items_item_idx" ON "barter_request_items" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "member_events_user_idx" ON "member_events" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "member_events_created_idx" ON "member_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notifications_user_unread_idx" ON "notifications" USING btree ("user_id","barter_request_id") WHERE "notifications"."read_at" IS NULL;--> statement-breakpoint
ALTER TABLE "barter_requests" ADD CONSTRAINT "barter_requests_thread_id_barter_requests_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."barter_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "barter_requests" ADD CONSTRAINT "barter_requests_counter_of_id_barter_requests_id_fk" FOREIGN KEY ("counter_of_id") REFERENCES "public"."barter_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "barter_requests" ADD CONSTRAINT "barter_requests_closed_by_id_users_id_fk" FOREIGN KEY ("closed_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_reserved_by_request_id_barter_requests_id_fk" FOREIGN KEY ("reserved_by_request_id") REFERENCES "public"."barter_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "barter_requests_thread_idx" ON "barter_requests" USING btree ("thread_id");--> statement-breakpoint
CREATE INDEX "barter_requests_pending_expiry_idx" ON "barter_requests" USING btree ("expires_at") WHERE "barter_requests"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "messages_to_user_unread_thread_idx" ON "messages" USING btree ("to_user_id","barter_request_id") WHERE NOT "messages"."is_read";--> statement-breakpoint
CREATE INDEX "messages_barter_request_idx" ON "messages" USING btree ("barter_request_id","id");--> statement-breakpoint
-- Requests made before issue 13 start their own thread and list their one item per side.
UPDATE "barter_requests" SET "thread_id" = "id" WHERE "thread_id" IS NULL;--> statement-breakpoint
INSERT INTO "barter_request_items" ("barter_request_id", "item_id", "side", "position", "title", "category", "is_service")
  SELECT r."id", i."id", s."side", 0, i."title", i."category", i."is_service"
  FROM "barter_requests" r
  CROSS JOIN LATERAL (VALUES ('from', r."from_item_id"), ('to', r."to_item_id")) AS s("side", "item_id")
  JOIN "items" i ON i."id" = s."item_id";--> statement-breakpoint
-- A reservation takes an item out of other members' feeds, so it moves the feeds' version like an
-- edit does (migration 0006).
DROP TRIGGER "items_update_listings" ON "items";--> statement-breakpoint
CREATE TRIGGER "items_update_listings"
  AFTER UPDATE OF "user_id", "title", "description", "category", "is_service", "estimated_value", "is_active", "reserved_by_request_id", "created_at" ON "items"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_listing_version"();
