CREATE TABLE "public_spots" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"area_name" text NOT NULL,
	"place_name" text NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"source" text NOT NULL,
	"added_by" uuid,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_by" uuid,
	"removed_at" timestamp with time zone,
	CONSTRAINT "public_spots_kind" CHECK ("public_spots"."kind" in ('library', 'station', 'cafe', 'police_safe_trade', 'other')),
	CONSTRAINT "public_spots_name" CHECK (length("public_spots"."name") between 1 and 120),
	CONSTRAINT "public_spots_source" CHECK (length("public_spots"."source") between 1 and 500),
	CONSTRAINT "public_spots_position" CHECK ("public_spots"."latitude" between -90 and 90 and "public_spots"."longitude" between -180 and 180)
);
--> statement-breakpoint
ALTER TABLE "hand_over_plans" ADD COLUMN "spot_id" integer;--> statement-breakpoint
ALTER TABLE "public_spots" ADD CONSTRAINT "public_spots_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public_spots" ADD CONSTRAINT "public_spots_removed_by_users_id_fk" FOREIGN KEY ("removed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "public_spots_live_lat_idx" ON "public_spots" USING btree ("latitude","longitude") WHERE "public_spots"."removed_at" IS NULL;--> statement-breakpoint
ALTER TABLE "hand_over_plans" ADD CONSTRAINT "hand_over_plans_spot_id_public_spots_id_fk" FOREIGN KEY ("spot_id") REFERENCES "public"."public_spots"("id") ON DELETE set null ON UPDATE no action;