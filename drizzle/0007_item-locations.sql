DROP INDEX "items_active_category_idx";--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "latitude" numeric(10, 8);--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "longitude" numeric(11, 8);--> statement-breakpoint
UPDATE "items" i SET "latitude" = u."latitude", "longitude" = u."longitude" FROM "users" u WHERE u."id" = i."user_id" AND u."latitude" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "items_active_category_lat_idx" ON "items" USING btree ("category","is_service","latitude") WHERE "items"."is_active";--> statement-breakpoint
-- An item carries its owner's coordinates (feeds filter by radius inside their index scans):
-- copied when the item is written...
CREATE FUNCTION "copy_owner_location"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT u."latitude", u."longitude" INTO NEW."latitude", NEW."longitude" FROM "users" u WHERE u."id" = NEW."user_id";
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "items_owner_location" BEFORE INSERT OR UPDATE OF "user_id", "latitude", "longitude" ON "items"
  FOR EACH ROW EXECUTE FUNCTION "copy_owner_location"();--> statement-breakpoint
-- ...and when the owner moves.
CREATE FUNCTION "move_owner_items"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "items" SET "latitude" = NEW."latitude", "longitude" = NEW."longitude" WHERE "user_id" = NEW."id";
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "users_move_items" AFTER UPDATE OF "latitude", "longitude" ON "users"
  FOR EACH ROW WHEN (OLD."latitude" IS DISTINCT FROM NEW."latitude" OR OLD."longitude" IS DISTINCT FROM NEW."longitude")
  EXECUTE FUNCTION "move_owner_items"();
