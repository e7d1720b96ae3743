DROP INDEX "items_active_search_idx";--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', description), 'B') || setweight(to_tsvector('english', category), 'C')) STORED;--> statement-breakpoint
ALTER TABLE "wants" ADD COLUMN "title_lexemes" text[] GENERATED ALWAYS AS (tsvector_to_array(to_tsvector('english', title))) STORED;--> statement-breakpoint
CREATE INDEX "items_active_search_vector_idx" ON "items" USING gin ("search_vector") WHERE "items"."is_active";--> statement-breakpoint
CREATE INDEX "items_active_shuffle_idx" ON "items" USING btree (hashint4("id"),"id") WHERE "items"."is_active";