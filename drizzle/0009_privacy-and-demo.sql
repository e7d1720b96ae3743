DROP INDEX "users_demo_name_unique";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "public_latitude" numeric(10, 8);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "public_longitude" numeric(11, 8);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "is_demo" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "users_public_lat_lon_idx" ON "users" USING btree ("public_latitude","public_longitude");--> statement-breakpoint
-- Demo accounts are marked; a name no longer identifies one (each demo visitor gets their own).
UPDATE "users" SET "is_demo" = true WHERE "demo_name" IS NOT NULL;--> statement-breakpoint
-- The public point (server/geo/README.md): what other members' distances are computed from. The
-- centre of the exact point's ~1 km grid cell (1/111.19508 degree of latitude; the same length of
-- longitude at the cell's latitude) plus a random offset of 0.4-0.8 km in a random direction, kept
-- while the member stays in the same cell and redrawn when they move to another. Kept by the
-- database, so every write of a position (profile, seed, tests, benches) gets one and no code path
-- can set it to anything else.
CREATE FUNCTION "users_public_point"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  step float8 := 1 / 111.19508;
  clat float8;
  lonstep float8;
  clon float8;
  r float8;
  theta float8;
BEGIN
  IF NEW."latitude" IS NULL OR NEW."longitude" IS NULL THEN
    NEW."public_latitude" := NULL;
    NEW."public_longitude" := NULL;
    RETURN NEW;
  END IF;
  clat := least(89.9, greatest(-89.9, (floor(NEW."latitude"::float8 / step) + 0.5) * step));
  lonstep := step / cos(radians(clat));
  IF TG_OP = 'UPDATE' AND OLD."latitude" IS NOT NULL AND OLD."longitude" IS NOT NULL
    AND OLD."public_latitude" IS NOT NULL AND OLD."public_longitude" IS NOT NULL
    AND floor(OLD."latitude"::float8 / step) = floor(NEW."latitude"::float8 / step)
    AND floor(OLD."longitude"::float8 / lonstep) = floor(NEW."longitude"::float8 / lonstep) THEN
    NEW."public_latitude" := OLD."public_latitude";
    NEW."public_longitude" := OLD."public_longitude";
    RETURN NEW;
  END IF;
  clon := (floor(NEW."longitude"::float8 / lonstep) + 0.5) * lonstep;
  r := 0.4 + 0.4 * random();
  theta := 2 * pi() * random();
  NEW."public_latitude" := greatest(-89.9, least(89.9, clat + r * cos(theta) / 111.19508));
  NEW."public_longitude" := ((clon + r * sin(theta) / (111.19508 * cos(radians(clat))) + 540)::numeric % 360) - 180;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "users_public_point"
  BEFORE INSERT OR UPDATE OF "latitude", "longitude", "public_latitude", "public_longitude" ON "users"
  FOR EACH ROW EXECUTE FUNCTION "users_public_point"();--> statement-breakpoint
UPDATE "users" SET "latitude" = "latitude" WHERE "latitude" IS NOT NULL;--> statement-breakpoint
-- Items now carry their owner's public point, never the exact one: radius scans and distances over
-- items then reveal no more than the public point does.
CREATE OR REPLACE FUNCTION "copy_owner_location"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT u."public_latitude", u."public_longitude" INTO NEW."latitude", NEW."longitude" FROM "users" u WHERE u."id" = NEW."user_id";
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "move_owner_items"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "items" SET "latitude" = NEW."public_latitude", "longitude" = NEW."public_longitude" WHERE "user_id" = NEW."id";
  RETURN NULL;
END;
$$;--> statement-breakpoint
DROP TRIGGER "users_move_items" ON "users";--> statement-breakpoint
-- UPDATE OF lists the exact columns too: an UPDATE OF trigger fires only for columns the statement
-- names, and a move names latitude/longitude (the public point is set by the BEFORE trigger).
CREATE TRIGGER "users_move_items" AFTER UPDATE OF "latitude", "longitude", "public_latitude", "public_longitude" ON "users"
  FOR EACH ROW WHEN (OLD."public_latitude" IS DISTINCT FROM NEW."public_latitude" OR OLD."public_longitude" IS DISTINCT FROM NEW."public_longitude")
  EXECUTE FUNCTION "move_owner_items"();--> statement-breakpoint
UPDATE "items" i SET "latitude" = u."public_latitude", "longitude" = u."public_longitude" FROM "users" u WHERE u."id" = i."user_id";
