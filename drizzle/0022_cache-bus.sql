-- Several processes, one database (issue 18, ADR 040): what a server process keeps in memory about
-- a row is dropped in every process when the row changes, whoever wrote it (a route, a job, a
-- script, another process). A statement trigger sends the changed keys on the channel
-- 'barterhood_cache' (server/lib/cache-bus.ts), one NOTIFY per statement, delivered when the
-- transaction commits. A payload that would not fit (NOTIFY takes under 8000 bytes) names the cache
-- alone, and every process drops that whole cache.
CREATE FUNCTION "cache_bus_notify"(cache text, keys text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  payload text;
BEGIN
  IF keys IS NULL OR cardinality(keys) = 0 THEN
    RETURN;
  END IF;
  payload := json_build_object('cache', cache, 'keys', keys)::text;
  IF octet_length(payload) > 7500 THEN
    payload := json_build_object('cache', cache)::text;
  END IF;
  PERFORM pg_notify('barterhood_cache', payload);
END;
$$;--> statement-breakpoint
-- A member's row changed or went: their cached sessions (which carry the row) go. Presence
-- (last_seen_at, written each minute for members with a page open) changes nothing cached.
CREATE FUNCTION "users_cache_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM cache_bus_notify('member', ARRAY(SELECT o.id::text FROM old_rows o));
  ELSE
    PERFORM cache_bus_notify('member', ARRAY(
      SELECT o.id::text FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE (to_jsonb(o) - 'last_seen_at') IS DISTINCT FROM (to_jsonb(n) - 'last_seen_at')));
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "users_cache_update" AFTER UPDATE ON "users"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "users_cache_notify"();--> statement-breakpoint
CREATE TRIGGER "users_cache_delete" AFTER DELETE ON "users"
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "users_cache_notify"();--> statement-breakpoint
-- A session ended (sign-out, signed out elsewhere, password change, ban, account deletion). Expired
-- rows (the hourly purge) are no longer served from any cache, so they are not sent.
CREATE FUNCTION "sessions_cache_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cache_bus_notify('session', ARRAY(SELECT o.sid FROM old_rows o WHERE o.expire > now()));
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "sessions_cache_delete" AFTER DELETE ON "sessions"
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "sessions_cache_notify"();--> statement-breakpoint
-- A member's match graph was dropped (idle, or the member went): processes that saw it built ask
-- again instead of reading an empty graph.
CREATE FUNCTION "match_graph_members_cache_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cache_bus_notify('match-graph', ARRAY(SELECT o.member_id::text FROM old_rows o));
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "match_graph_members_cache_delete" AFTER DELETE ON "match_graph_members"
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "match_graph_members_cache_notify"();
