-- Web Push (ADR 087): every notification written, by whatever statement, queues a push to each
-- device of its member who did not mute its kind, in the same transaction; the push job is told on
-- commit (NOTIFY), so a rolled-back notification is never pushed.
CREATE FUNCTION "queue_web_pushes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "push_deliveries" ("subscription_id", "notification_id")
  SELECT s."id", n."id"
    FROM "new_notifications" n
    JOIN "push_subscriptions" s ON s."user_id" = n."user_id"
   WHERE NOT EXISTS (
     SELECT 1 FROM "push_muted_kinds" m WHERE m."user_id" = n."user_id" AND m."kind" = n."kind");
  IF FOUND THEN
    PERFORM pg_notify('web_push', '');
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "notifications_queue_web_pushes" AFTER INSERT ON "notifications"
  REFERENCING NEW TABLE AS "new_notifications"
  FOR EACH STATEMENT EXECUTE FUNCTION "queue_web_pushes"();
