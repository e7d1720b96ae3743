-- users_cache_notify (ADR 040) joins its transition tables (old_rows to new_rows) to find the members
-- whose cached part changed. A static query in PL/pgSQL is planned once per connection and kept:
-- planned first for a one-row update, the join stayed a nested loop, and the minute's presence write
-- for 2,000 members with a page open spent 2 s in this function on the embedded database's one
-- connection (ADR 096). A statement of more than 64 rows now runs the join through EXECUTE, planned
-- with its real row counts (100 ms for the 2,000); smaller ones keep the static query, whose kept
-- plan is fine at that size and costs nothing to plan (EXECUTE for every update doubled a one-row
-- update's time on PGlite, 0.6-0.7 to 0.8-1.2 ms).
CREATE OR REPLACE FUNCTION "users_cache_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text[];
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM cache_bus_notify('member', ARRAY(SELECT o.id::text FROM old_rows o));
  ELSIF (SELECT count(*) FROM new_rows) <= 64 THEN
    PERFORM cache_bus_notify('member', ARRAY(
      SELECT o.id::text FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE (to_jsonb(o) - 'last_seen_at') IS DISTINCT FROM (to_jsonb(n) - 'last_seen_at')));
  ELSE
    EXECUTE $q$SELECT ARRAY(
      SELECT o.id::text FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE (to_jsonb(o) - 'last_seen_at') IS DISTINCT FROM (to_jsonb(n) - 'last_seen_at'))$q$
    INTO changed;
    PERFORM cache_bus_notify('member', changed);
  END IF;
  RETURN NULL;
END;
$$;
