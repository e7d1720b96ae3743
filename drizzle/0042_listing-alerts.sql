CREATE TABLE "listing_alert_runs" (
	"item_id" integer PRIMARY KEY NOT NULL,
	"listed_at" timestamp with time zone NOT NULL,
	"waves_sent" smallint DEFAULT 0 NOT NULL,
	"next_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "listing_alerts" (
	"item_id" integer NOT NULL,
	"member_id" uuid NOT NULL,
	"notification_id" integer,
	"wave" smallint NOT NULL,
	"matched" text NOT NULL,
	"saved_search_id" integer,
	"want_id" integer,
	"sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "listing_alerts_item_id_member_id_pk" PRIMARY KEY("item_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "saved_searches" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "saved_searches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"feed" text NOT NULL,
	"q" text,
	"radius_miles" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_searches_name" CHECK (length("saved_searches"."name") between 1 and 60)
);
--> statement-breakpoint
ALTER TABLE "listing_alert_runs" ADD CONSTRAINT "listing_alert_runs_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_alerts" ADD CONSTRAINT "listing_alerts_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_alerts" ADD CONSTRAINT "listing_alerts_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_alerts" ADD CONSTRAINT "listing_alerts_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_alerts" ADD CONSTRAINT "listing_alerts_saved_search_id_saved_searches_id_fk" FOREIGN KEY ("saved_search_id") REFERENCES "public"."saved_searches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_alerts" ADD CONSTRAINT "listing_alerts_want_id_wants_id_fk" FOREIGN KEY ("want_id") REFERENCES "public"."wants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD CONSTRAINT "saved_searches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "listing_alert_runs_due_idx" ON "listing_alert_runs" USING btree ("next_at") WHERE "listing_alert_runs"."finished_at" IS NULL;--> statement-breakpoint
CREATE INDEX "listing_alerts_notification_idx" ON "listing_alerts" USING btree ("notification_id");--> statement-breakpoint
CREATE INDEX "listing_alerts_member_idx" ON "listing_alerts" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "saved_searches_user_idx" ON "saved_searches" USING btree ("user_id","id" DESC NULLS LAST);