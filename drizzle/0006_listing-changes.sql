CREATE TABLE "listing_changes" (
	"id" integer PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "listing_changes_one_row" CHECK ("listing_changes"."id" = 1)
);
--> statement-breakpoint
INSERT INTO "listing_changes" ("id", "version") VALUES (1, 0) ON CONFLICT DO NOTHING;--> statement-breakpoint
-- Feed rankings kept in memory (ADR 012) are valid while this version stays: it moves on with any
-- statement that writes what feeds rank (not with a view count, a photo or a password).
CREATE FUNCTION "bump_listing_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "listing_changes" SET "version" = "version" + 1 WHERE "id" = 1;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "items_change_listings" AFTER INSERT OR DELETE OR TRUNCATE ON "items"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_listing_version"();--> statement-breakpoint
CREATE TRIGGER "items_update_listings"
  AFTER UPDATE OF "user_id", "title", "description", "category", "is_service", "estimated_value", "is_active", "created_at" ON "items"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_listing_version"();--> statement-breakpoint
CREATE TRIGGER "wants_change_listings" AFTER INSERT OR DELETE OR TRUNCATE ON "wants"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_listing_version"();--> statement-breakpoint
CREATE TRIGGER "wants_update_listings"
  AFTER UPDATE OF "user_id", "title", "category", "is_service", "max_value", "is_active" ON "wants"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_listing_version"();--> statement-breakpoint
CREATE TRIGGER "users_location_listings" AFTER UPDATE OF "latitude", "longitude" ON "users"
  FOR EACH ROW WHEN (OLD."latitude" IS DISTINCT FROM NEW."latitude" OR OLD."longitude" IS DISTINCT FROM NEW."longitude")
  EXECUTE FUNCTION "bump_listing_version"();
