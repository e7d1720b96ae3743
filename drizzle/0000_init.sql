CREATE TABLE "barter_requests" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "barter_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"from_user_id" uuid,
	"to_user_id" uuid,
	"from_item_id" integer,
	"to_item_id" integer,
	"message" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"from_user_id" uuid NOT NULL,
	"to_user_id" uuid NOT NULL,
	"barter_request_id" integer,
	"content" text NOT NULL,
	"is_read" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ratings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ratings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"barter_request_id" integer NOT NULL,
	"rater_id" uuid,
	"ratee_id" uuid NOT NULL,
	"stars" smallint NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ratings_stars_range" CHECK ("ratings"."stars" BETWEEN 1 AND 5)
);
--> statement-breakpoint
CREATE TABLE "items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"category" text NOT NULL,
	"is_service" boolean DEFAULT false NOT NULL,
	"image_url" text,
	"estimated_value" numeric(10, 2),
	"view_count" integer DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "items_estimated_value_non_negative" CHECK ("items"."estimated_value" >= 0)
);
--> statement-breakpoint
CREATE TABLE "saved_items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "saved_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" uuid NOT NULL,
	"item_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wants" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "wants_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"category" text NOT NULL,
	"is_service" boolean DEFAULT false NOT NULL,
	"max_value" numeric(10, 2),
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wants_max_value_non_negative" CHECK ("wants"."max_value" >= 0)
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"sid" text PRIMARY KEY NOT NULL,
	"sess" jsonb NOT NULL,
	"expire" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text,
	"password_hash" text,
	"first_name" text,
	"last_name" text,
	"profile_image_url" text,
	"location" text,
	"latitude" numeric(10, 8),
	"longitude" numeric(11, 8),
	"max_travel_distance" integer DEFAULT 25 NOT NULL,
	"onboarding_completed" boolean DEFAULT false NOT NULL,
	"google_sub" text,
	"demo_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_max_travel_distance_range" CHECK ("users"."max_travel_distance" BETWEEN 1 AND 100),
	CONSTRAINT "users_latitude_range" CHECK ("users"."latitude" BETWEEN -90 AND 90),
	CONSTRAINT "users_longitude_range" CHECK ("users"."longitude" BETWEEN -180 AND 180)
);
--> statement-breakpoint
ALTER TABLE "barter_requests" ADD CONSTRAINT "barter_requests_from_user_id_users_id_fk" FOREIGN KEY ("from_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "barter_requests" ADD CONSTRAINT "barter_requests_to_user_id_users_id_fk" FOREIGN KEY ("to_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "barter_requests" ADD CONSTRAINT "barter_requests_from_item_id_items_id_fk" FOREIGN KEY ("from_item_id") REFERENCES "public"."items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "barter_requests" ADD CONSTRAINT "barter_requests_to_item_id_items_id_fk" FOREIGN KEY ("to_item_id") REFERENCES "public"."items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_from_user_id_users_id_fk" FOREIGN KEY ("from_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_to_user_id_users_id_fk" FOREIGN KEY ("to_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_barter_request_id_barter_requests_id_fk" FOREIGN KEY ("barter_request_id") REFERENCES "public"."barter_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_barter_request_id_barter_requests_id_fk" FOREIGN KEY ("barter_request_id") REFERENCES "public"."barter_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_rater_id_users_id_fk" FOREIGN KEY ("rater_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_ratee_id_users_id_fk" FOREIGN KEY ("ratee_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_items" ADD CONSTRAINT "saved_items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_items" ADD CONSTRAINT "saved_items_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wants" ADD CONSTRAINT "wants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "barter_requests_from_user_idx" ON "barter_requests" USING btree ("from_user_id","status","updated_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "barter_requests_to_user_idx" ON "barter_requests" USING btree ("to_user_id","status","updated_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "barter_requests_from_item_idx" ON "barter_requests" USING btree ("from_item_id");--> statement-breakpoint
CREATE INDEX "barter_requests_to_item_idx" ON "barter_requests" USING btree ("to_item_id");--> statement-breakpoint
CREATE INDEX "messages_to_user_unread_idx" ON "messages" USING btree ("to_user_id") WHERE NOT "messages"."is_read";--> statement-breakpoint
CREATE INDEX "messages_conversation_idx" ON "messages" USING btree ("from_user_id","to_user_id","created_at");--> statement-breakpoint
CREATE INDEX "messages_barter_request_idx" ON "messages" USING btree ("barter_request_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ratings_request_rater_unique" ON "ratings" USING btree ("barter_request_id","rater_id");--> statement-breakpoint
CREATE INDEX "ratings_ratee_idx" ON "ratings" USING btree ("ratee_id");--> statement-breakpoint
CREATE INDEX "items_user_id_idx" ON "items" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "items_active_recent_idx" ON "items" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "items"."is_active";--> statement-breakpoint
CREATE INDEX "items_active_category_idx" ON "items" USING btree ("category","is_service") WHERE "items"."is_active";--> statement-breakpoint
CREATE UNIQUE INDEX "saved_items_user_item_unique" ON "saved_items" USING btree ("user_id","item_id");--> statement-breakpoint
CREATE INDEX "saved_items_item_id_idx" ON "saved_items" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "wants_user_id_idx" ON "wants" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "wants_active_category_idx" ON "wants" USING btree ("category","is_service") WHERE "wants"."is_active";--> statement-breakpoint
CREATE INDEX "sessions_expire_idx" ON "sessions" USING btree ("expire");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_unique" ON "users" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "users_google_sub_unique" ON "users" USING btree ("google_sub");--> statement-breakpoint
CREATE UNIQUE INDEX "users_demo_name_unique" ON "users" USING btree ("demo_name");--> statement-breakpoint
CREATE INDEX "users_lat_lon_idx" ON "users" USING btree ("latitude","longitude");