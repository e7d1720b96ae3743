ALTER TABLE "items" ADD COLUMN "photos" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "condition" text;--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_photos_at_most_8" CHECK (jsonb_typeof("items"."photos") = 'array' AND jsonb_array_length("items"."photos") <= 8);--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_condition_known" CHECK ("items"."condition" IS NULL OR (NOT "items"."is_service" AND "items"."condition" IN ('new', 'like-new', 'good', 'fair', 'for-parts')));--> statement-breakpoint
-- Existing items keep their one photo as the cover (issue 31, ADR 082): photos lists it, image_url
-- and thumbnail_url stay its copy. Rows stored before feed-size photos had only the large one.
UPDATE "items" SET "photos" = jsonb_build_array(jsonb_build_object('imageUrl', "image_url", 'thumbnailUrl', coalesce("thumbnail_url", "image_url")))
  WHERE "image_url" IS NOT NULL;--> statement-breakpoint
-- Cards show the condition and feeds filter by it: a change moves both counters (ADR 012).
CREATE TRIGGER "items_update_condition_listings" AFTER UPDATE OF "condition" ON "items"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_listing_version"();
