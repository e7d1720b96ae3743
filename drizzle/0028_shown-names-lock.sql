-- Names told apart (ADR 058): the advisory lock bounded to 256 keys per transaction.
CREATE OR REPLACE FUNCTION "member_shown_name"(p_id uuid, p_first text, p_last text, p_lat numeric, p_lon numeric) RETURNS text
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
  -- Two namesakes saving at once wait for each other instead of both taking the short form. One of
  -- 256 locks by the short form's hash: a bulk insert of thousands of members (a benchmark's town)
  -- holds at most 256, never one per name, which would exhaust the lock table.
  PERFORM pg_advisory_xact_lock(7058, hashtext(lower(v_base)) & 255);
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
-- The very-same-name test of member_shown_name reads by these expressions (ADR 058).
CREATE INDEX IF NOT EXISTS "users_full_name_idx" ON "users" (lower(btrim("first_name")), lower(btrim("last_name")));
