ALTER TABLE "users" ADD COLUMN "display_name" text;--> statement-breakpoint
CREATE INDEX "users_display_name_idx" ON "users" USING btree (lower("display_name"));--> statement-breakpoint
-- Names told apart (ADR 058). Two members are near when either has no area yet (they can see every
-- item) or their public points are at most 100 miles apart: twice the widest feed radius, so any two
-- members who can appear in one feed, and any member and everyone she can see, are near.
CREATE FUNCTION "members_near"(a_lat numeric, a_lon numeric, b_lat numeric, b_lon numeric) RETURNS boolean
  LANGUAGE sql IMMUTABLE AS $$
  SELECT a_lat IS NULL OR a_lon IS NULL OR b_lat IS NULL OR b_lon IS NULL
    OR 2 * 3958.761315865529 * asin(least(1.0, sqrt(
      power(sin(radians(b_lat::float8 - a_lat::float8) / 2), 2)
      + cos(radians(a_lat::float8)) * cos(radians(b_lat::float8))
        * power(sin(radians(b_lon::float8 - a_lon::float8) / 2), 2)))) <= 100
$$;--> statement-breakpoint
-- The shortest form nobody near already shows: "Maya O.", else one more letter of the last name at a
-- time ("Maya Ol.", "Maya Ols."), the whole last name without a full stop; a number after the short
-- form ("Maya O. (2)") when a near member has the very same name, since letters could not tell them
-- apart. Only members already named count (the backfill names them oldest first).
CREATE FUNCTION "member_shown_name"(p_id uuid, p_first text, p_last text, p_lat numeric, p_lon numeric) RETURNS text
  LANGUAGE plpgsql AS $$
DECLARE
  v_first text := btrim(coalesce(p_first, ''));
  v_last text := btrim(coalesce(p_last, ''));
  v_base text;
  v_candidate text;
  v_len int;
  v_n int := 2;
BEGIN
  IF v_first = '' THEN RETURN 'User'; END IF;
  v_base := CASE WHEN v_last = '' THEN v_first ELSE v_first || ' ' || upper(left(v_last, 1)) || '.' END;
  -- Two namesakes saving at once wait for each other instead of both taking the short form.
  PERFORM pg_advisory_xact_lock(hashtext('member_shown_name:' || lower(v_base)));
  IF NOT EXISTS (SELECT 1 FROM "users" o WHERE lower(o."display_name") = lower(v_base) AND o."id" <> p_id
      AND "members_near"(p_lat, p_lon, o."public_latitude", o."public_longitude")) THEN
    RETURN v_base;
  END IF;
  v_len := char_length(v_last);
  IF v_len > 1 AND NOT EXISTS (SELECT 1 FROM "users" o WHERE o."id" <> p_id AND o."display_name" IS NOT NULL
      AND lower(btrim(o."first_name")) = lower(v_first) AND lower(btrim(o."last_name")) = lower(v_last)
      AND "members_near"(p_lat, p_lon, o."public_latitude", o."public_longitude")) THEN
    FOR k IN 2..v_len LOOP
      -- A letter at a time: an apostrophe or hyphen alone tells nobody apart.
      CONTINUE WHEN k < v_len AND substr(v_last, k, 1) !~ '[[:alpha:]]';
      v_candidate := v_first || ' ' || upper(left(v_last, 1)) || substr(v_last, 2, k - 1)
        || CASE WHEN k = v_len THEN '' ELSE '.' END;
      IF NOT EXISTS (SELECT 1 FROM "users" o WHERE lower(o."display_name") = lower(v_candidate) AND o."id" <> p_id
          AND "members_near"(p_lat, p_lon, o."public_latitude", o."public_longitude")) THEN
        RETURN v_candidate;
      END IF;
    END LOOP;
  END IF;
  LOOP
    v_candidate := v_base || ' (' || v_n || ')';
    IF NOT EXISTS (SELECT 1 FROM "users" o WHERE lower(o."display_name") = lower(v_candidate) AND o."id" <> p_id
        AND "members_near"(p_lat, p_lon, o."public_latitude", o."public_longitude")) THEN
      RETURN v_candidate;
    END IF;
    v_n := v_n + 1;
  END LOOP;
END;
$$;--> statement-breakpoint
-- Kept on every insert and on every change of name or public point, by whoever writes (profile,
-- registration, seed, tests, scripts); nothing anyone else does changes it. Named after
-- "users_public_point" so it runs after it (same-event triggers run in name order) and sees the
-- public point of this very write.
CREATE FUNCTION "users_shown_name"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD."display_name" IS NOT NULL
    AND OLD."first_name" IS NOT DISTINCT FROM NEW."first_name"
    AND OLD."last_name" IS NOT DISTINCT FROM NEW."last_name"
    AND OLD."public_latitude" IS NOT DISTINCT FROM NEW."public_latitude"
    AND OLD."public_longitude" IS NOT DISTINCT FROM NEW."public_longitude" THEN
    NEW."display_name" := OLD."display_name";
    RETURN NEW;
  END IF;
  NEW."display_name" := "member_shown_name"(NEW."id", NEW."first_name", NEW."last_name",
    NEW."public_latitude", NEW."public_longitude");
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "users_shown_name"
  BEFORE INSERT OR UPDATE OF "first_name", "last_name", "latitude", "longitude", "public_latitude", "public_longitude", "display_name" ON "users"
  FOR EACH ROW EXECUTE FUNCTION "users_shown_name"();--> statement-breakpoint
-- Existing members, oldest first: the earlier member keeps the short form.
DO $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT "id" FROM "users" ORDER BY "created_at", "id" LOOP
    UPDATE "users" SET "display_name" = NULL WHERE "id" = r."id";
  END LOOP;
END;
$$;
