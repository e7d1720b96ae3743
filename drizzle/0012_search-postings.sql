CREATE TABLE "search_postings" (
	"lexeme" text NOT NULL,
	"item_id" integer NOT NULL,
	"in_title" boolean NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"value" numeric(10, 2),
	"latitude" numeric(10, 8),
	"longitude" numeric(11, 8)
);
--> statement-breakpoint
CREATE TABLE "search_words" (
	"lexeme" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE INDEX "search_postings_title_recent_idx" ON "search_postings" USING btree ("lexeme","created_at" DESC NULLS LAST,"item_id" DESC NULLS LAST) WHERE "search_postings"."in_title";--> statement-breakpoint
CREATE INDEX "search_postings_other_recent_idx" ON "search_postings" USING btree ("lexeme","created_at" DESC NULLS LAST,"item_id" DESC NULLS LAST) WHERE NOT "search_postings"."in_title";--> statement-breakpoint
CREATE INDEX "search_postings_item_idx" ON "search_postings" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "search_words_trgm_idx" ON "search_words" USING gin ("lexeme" gin_trgm_ops);--> statement-breakpoint
-- Index entries carry the item's point and owner (INCLUDE), so a walk tests the radius and skips
-- the viewer's own items on the index entry itself (index-only scans) before reading any item.
DROP INDEX "search_postings_title_recent_idx";--> statement-breakpoint
DROP INDEX "search_postings_other_recent_idx";--> statement-breakpoint
CREATE INDEX "search_postings_title_recent_idx" ON "search_postings" USING btree ("lexeme","created_at" DESC NULLS LAST,"item_id" DESC NULLS LAST) INCLUDE ("latitude","longitude","user_id","value") WHERE "search_postings"."in_title";--> statement-breakpoint
CREATE INDEX "search_postings_other_recent_idx" ON "search_postings" USING btree ("lexeme","created_at" DESC NULLS LAST,"item_id" DESC NULLS LAST) INCLUDE ("latitude","longitude","user_id","value") WHERE NOT "search_postings"."in_title";--> statement-breakpoint
-- Postings follow listed items (active and not reserved) in the writer's own transaction (ADR 023):
-- statement triggers with transition tables, so a bulk insert writes its postings in one statement,
-- and an update that changes nothing a search reads (a view count) writes none. New words join the
-- vocabulary in sorted order (two writers adding the same new words never wait on each other in a cycle).
CREATE FUNCTION "search_postings_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "search_postings" ("lexeme", "item_id", "in_title", "user_id", "created_at", "value", "latitude", "longitude")
    SELECT l."lexeme", n."id", 'A' = ANY (l."weights"), n."user_id", n."created_at", n."estimated_value", n."latitude", n."longitude"
    FROM new_rows n CROSS JOIN LATERAL unnest(n."search_vector") l
    WHERE n."is_active" AND n."reserved_by_request_id" IS NULL;
  INSERT INTO "search_words" ("lexeme")
    SELECT DISTINCT l."lexeme" FROM new_rows n CROSS JOIN LATERAL unnest(n."search_vector") l
    WHERE n."is_active" ORDER BY 1
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "search_postings_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "search_postings" p USING old_rows o WHERE p."item_id" = o."id";
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "search_postings_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH changed AS (
    SELECT n.* FROM new_rows n JOIN old_rows o ON o."id" = n."id"
    WHERE (o."search_vector", o."is_active", o."reserved_by_request_id", o."user_id", o."created_at",
           o."estimated_value", o."latitude", o."longitude")
      IS DISTINCT FROM
          (n."search_vector", n."is_active", n."reserved_by_request_id", n."user_id", n."created_at",
           n."estimated_value", n."latitude", n."longitude")
  ),
  gone AS (DELETE FROM "search_postings" p USING changed c WHERE p."item_id" = c."id"),
  words AS (
    INSERT INTO "search_words" ("lexeme")
      SELECT DISTINCT l."lexeme" FROM changed c CROSS JOIN LATERAL unnest(c."search_vector") l
      WHERE c."is_active" ORDER BY 1
      ON CONFLICT DO NOTHING
  )
  INSERT INTO "search_postings" ("lexeme", "item_id", "in_title", "user_id", "created_at", "value", "latitude", "longitude")
    SELECT l."lexeme", c."id", 'A' = ANY (l."weights"), c."user_id", c."created_at", c."estimated_value", c."latitude", c."longitude"
    FROM changed c CROSS JOIN LATERAL unnest(c."search_vector") l
    WHERE c."is_active" AND c."reserved_by_request_id" IS NULL;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "items_search_postings_insert" AFTER INSERT ON "items"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "search_postings_inserted"();--> statement-breakpoint
CREATE TRIGGER "items_search_postings_delete" AFTER DELETE ON "items"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "search_postings_deleted"();--> statement-breakpoint
CREATE TRIGGER "items_search_postings_update" AFTER UPDATE ON "items"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "search_postings_updated"();--> statement-breakpoint
INSERT INTO "search_postings" ("lexeme", "item_id", "in_title", "user_id", "created_at", "value", "latitude", "longitude")
  SELECT l."lexeme", i."id", 'A' = ANY (l."weights"), i."user_id", i."created_at", i."estimated_value", i."latitude", i."longitude"
  FROM "items" i CROSS JOIN LATERAL unnest(i."search_vector") l
  WHERE i."is_active" AND i."reserved_by_request_id" IS NULL;--> statement-breakpoint
INSERT INTO "search_words" ("lexeme")
  SELECT DISTINCT l."lexeme" FROM "items" i CROSS JOIN LATERAL unnest(i."search_vector") l ORDER BY 1;
