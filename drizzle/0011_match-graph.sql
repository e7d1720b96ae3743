CREATE TABLE "match_graph" (
	"member_id" uuid NOT NULL,
	"item_id" integer NOT NULL,
	"item_user_id" uuid NOT NULL,
	"want_id" integer NOT NULL,
	"same_category" boolean NOT NULL,
	"text_pct" smallint NOT NULL,
	"value_points" smallint NOT NULL,
	"mutual" boolean NOT NULL,
	"their_want_id" integer,
	"distance" double precision,
	"score" smallint NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"value" numeric(10, 2),
	CONSTRAINT "match_graph_member_id_item_id_pk" PRIMARY KEY("member_id","item_id")
);
--> statement-breakpoint
CREATE TABLE "match_graph_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"item_id" integer,
	"member_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "match_graph_members" (
	"member_id" uuid PRIMARY KEY NOT NULL,
	"built_at" timestamp with time zone,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "match_graph" ADD CONSTRAINT "match_graph_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_graph" ADD CONSTRAINT "match_graph_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_graph" ADD CONSTRAINT "match_graph_want_id_wants_id_fk" FOREIGN KEY ("want_id") REFERENCES "public"."wants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_graph_members" ADD CONSTRAINT "match_graph_members_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "match_graph_score_idx" ON "match_graph" USING btree ("member_id","score" DESC NULLS LAST,"item_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "match_graph_recent_idx" ON "match_graph" USING btree ("member_id","created_at" DESC NULLS LAST,"item_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "match_graph_distance_idx" ON "match_graph" USING btree ("member_id","distance","item_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "match_graph_value_idx" ON "match_graph" USING btree ("member_id","value" DESC NULLS LAST,"item_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "match_graph_item_idx" ON "match_graph" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "match_graph_owner_idx" ON "match_graph" USING btree ("item_user_id");--> statement-breakpoint
CREATE INDEX "match_graph_changes_member_idx" ON "match_graph_changes" USING btree ("member_id");--> statement-breakpoint
-- Every write that can change a member's matches leaves a row here in the writer's own transaction
-- (ADR 022): the match-graph job drains them. Statement triggers with transition tables, so a bulk
-- insert writes one change per row in one statement, and an update that changes nothing the graph
-- reads (a view count) writes none.
CREATE FUNCTION "match_graph_items_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "match_graph_changes" ("kind", "item_id", "member_id")
    SELECT 'item', n."id", n."user_id" FROM new_rows n;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "match_graph_items_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "match_graph_changes" ("kind", "item_id", "member_id")
    SELECT 'item', o."id", o."user_id" FROM old_rows o;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "match_graph_items_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "match_graph_changes" ("kind", "item_id", "member_id")
    SELECT 'item', n."id", n."user_id" FROM new_rows n JOIN old_rows o ON o."id" = n."id"
    WHERE (o."user_id", o."title", o."description", o."category", o."is_service", o."estimated_value",
           o."is_active", o."created_at", o."reserved_by_request_id", o."latitude", o."longitude")
      IS DISTINCT FROM
          (n."user_id", n."title", n."description", n."category", n."is_service", n."estimated_value",
           n."is_active", n."created_at", n."reserved_by_request_id", n."latitude", n."longitude")
    UNION ALL
    -- An item given to another member: the old owner's offers changed too.
    SELECT 'item', n."id", o."user_id" FROM new_rows n JOIN old_rows o ON o."id" = n."id"
    WHERE o."user_id" IS DISTINCT FROM n."user_id";
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "items_match_graph_insert" AFTER INSERT ON "items"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "match_graph_items_inserted"();--> statement-breakpoint
CREATE TRIGGER "items_match_graph_delete" AFTER DELETE ON "items"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "match_graph_items_deleted"();--> statement-breakpoint
CREATE TRIGGER "items_match_graph_update" AFTER UPDATE ON "items"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "match_graph_items_updated"();--> statement-breakpoint
CREATE FUNCTION "match_graph_wants_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "match_graph_changes" ("kind", "member_id") SELECT DISTINCT 'wants', n."user_id" FROM new_rows n;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "match_graph_wants_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "match_graph_changes" ("kind", "member_id") SELECT DISTINCT 'wants', o."user_id" FROM old_rows o;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "match_graph_wants_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "match_graph_changes" ("kind", "member_id")
    SELECT DISTINCT 'wants', m.user_id FROM new_rows n JOIN old_rows o ON o."id" = n."id"
    CROSS JOIN LATERAL (VALUES (n."user_id"), (o."user_id")) m(user_id)
    WHERE (o."user_id", o."title", o."category", o."is_service", o."max_value", o."is_active")
      IS DISTINCT FROM (n."user_id", n."title", n."category", n."is_service", n."max_value", n."is_active");
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "wants_match_graph_insert" AFTER INSERT ON "wants"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "match_graph_wants_inserted"();--> statement-breakpoint
CREATE TRIGGER "wants_match_graph_delete" AFTER DELETE ON "wants"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "match_graph_wants_deleted"();--> statement-breakpoint
CREATE TRIGGER "wants_match_graph_update" AFTER UPDATE ON "wants"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "match_graph_wants_updated"();--> statement-breakpoint
-- A member's own point is where their distances start: moving rebuilds their graph. (Their public
-- point moves their items' copies of it, which the items trigger reports.)
CREATE FUNCTION "match_graph_member_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "match_graph_changes" ("kind", "member_id") VALUES ('member', NEW."id");
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "users_match_graph_moved" AFTER UPDATE OF "latitude", "longitude" ON "users"
  FOR EACH ROW WHEN (OLD."latitude" IS DISTINCT FROM NEW."latitude" OR OLD."longitude" IS DISTINCT FROM NEW."longitude")
  EXECUTE FUNCTION "match_graph_member_moved"();--> statement-breakpoint
-- Wakes the match-graph job in every server process (each asks for one drain; the job queue keeps
-- one waiting and one running).
CREATE FUNCTION "match_graph_changes_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('match_graph', '');
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "match_graph_changes_notify" AFTER INSERT ON "match_graph_changes"
  FOR EACH STATEMENT EXECUTE FUNCTION "match_graph_changes_notify"();--> statement-breakpoint
-- Nearest-first walks for the distance order: each member's public point on the unit sphere. The
-- straight-line distance between two points on the sphere grows with their great-circle distance,
-- so a K-nearest-neighbour scan of this index (cube's <->) meets members in distance order, and
-- each one's items (which carry that same point) follow, stopping after the page.
CREATE EXTENSION IF NOT EXISTS cube;--> statement-breakpoint
CREATE INDEX "users_public_sphere_idx" ON "users" USING gist ((cube(ARRAY[
    cos(radians("public_latitude"::float8)) * cos(radians("public_longitude"::float8)),
    cos(radians("public_latitude"::float8)) * sin(radians("public_longitude"::float8)),
    sin(radians("public_latitude"::float8))])))
  WHERE "public_latitude" IS NOT NULL;
