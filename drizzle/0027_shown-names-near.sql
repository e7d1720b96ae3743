-- Names told apart (ADR 058), revised: a member without an area is near nobody. Counting them near
-- everyone let one abandoned sign-up claim "Maya O." across the world; a member without an area
-- sees every item anyway, so no rule could keep her feed free of namesakes. Her name is settled
-- afresh when she sets her area (her public point changes).
CREATE OR REPLACE FUNCTION "members_near"(a_lat numeric, a_lon numeric, b_lat numeric, b_lon numeric) RETURNS boolean
  LANGUAGE sql IMMUTABLE AS $$
  SELECT a_lat IS NOT NULL AND a_lon IS NOT NULL AND b_lat IS NOT NULL AND b_lon IS NOT NULL
    AND 2 * 3958.761315865529 * asin(least(1.0, sqrt(
      power(sin(radians(b_lat::float8 - a_lat::float8) / 2), 2)
      + cos(radians(a_lat::float8)) * cos(radians(b_lat::float8))
        * power(sin(radians(b_lon::float8 - a_lon::float8) / 2), 2)))) <= 100
$$;--> statement-breakpoint
-- Named again under this rule, oldest first (the names are an hour old: nobody has come to know one):
-- all cleared first (the trigger, which keeps a name against writes, set aside for that), then each.
ALTER TABLE "users" DISABLE TRIGGER "users_shown_name";--> statement-breakpoint
UPDATE "users" SET "display_name" = NULL;--> statement-breakpoint
ALTER TABLE "users" ENABLE TRIGGER "users_shown_name";--> statement-breakpoint
DO $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT "id" FROM "users" ORDER BY "created_at", "id" LOOP
    UPDATE "users" SET "display_name" = NULL WHERE "id" = r."id";
  END LOOP;
END;
$$;
