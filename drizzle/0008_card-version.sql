ALTER TABLE "listing_changes" ADD COLUMN "card_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- What a feed card shows changes with every change that reorders feeds (bump_listing_version now
-- moves both counters) and with a few that do not: photos, owners' names and pictures, ratings and
-- trades (ADR 012). Feed cards kept in memory are used only while card_version stands.
CREATE OR REPLACE FUNCTION "bump_listing_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "listing_changes" SET "version" = "version" + 1, "card_version" = "card_version" + 1 WHERE "id" = 1;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "bump_card_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "listing_changes" SET "card_version" = "card_version" + 1 WHERE "id" = 1;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "items_update_cards" AFTER UPDATE OF "image_url", "thumbnail_url" ON "items"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_card_version"();--> statement-breakpoint
CREATE TRIGGER "wants_update_cards" AFTER UPDATE OF "created_at" ON "wants"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_card_version"();--> statement-breakpoint
CREATE TRIGGER "users_update_cards" AFTER UPDATE OF "first_name", "last_name", "profile_image_url" ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_card_version"();--> statement-breakpoint
CREATE TRIGGER "ratings_change_cards" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "ratings"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_card_version"();--> statement-breakpoint
CREATE TRIGGER "barter_requests_change_cards" AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF "status", "from_user_id", "to_user_id" ON "barter_requests"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_card_version"();
