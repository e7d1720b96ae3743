CREATE TABLE "want_questions" (
	"barter_request_id" integer NOT NULL,
	"want_id" integer NOT NULL,
	"member_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "want_questions_barter_request_id_want_id_pk" PRIMARY KEY("barter_request_id","want_id")
);
--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "traded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "traded_in_request_id" integer;--> statement-breakpoint
ALTER TABLE "wants" ADD COLUMN "fulfilled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "wants" ADD COLUMN "fulfilled_by_request_id" integer;--> statement-breakpoint
ALTER TABLE "want_questions" ADD CONSTRAINT "want_questions_barter_request_id_barter_requests_id_fk" FOREIGN KEY ("barter_request_id") REFERENCES "public"."barter_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "want_questions" ADD CONSTRAINT "want_questions_want_id_wants_id_fk" FOREIGN KEY ("want_id") REFERENCES "public"."wants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "want_questions" ADD CONSTRAINT "want_questions_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "want_questions_member_idx" ON "want_questions" USING btree ("member_id","barter_request_id");--> statement-breakpoint
CREATE INDEX "want_questions_want_idx" ON "want_questions" USING btree ("want_id");--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_traded_in_request_id_barter_requests_id_fk" FOREIGN KEY ("traded_in_request_id") REFERENCES "public"."barter_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wants" ADD CONSTRAINT "wants_fulfilled_by_request_id_barter_requests_id_fk" FOREIGN KEY ("fulfilled_by_request_id") REFERENCES "public"."barter_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Items that already went through a completed trade (issue 30): traded, inactive for good. An item
-- shown again after its trade and traded again keeps its latest trade.
UPDATE "items" AS i SET "traded_at" = t."updated_at", "traded_in_request_id" = t."id", "is_active" = false,
  "reserved_by_request_id" = NULL
FROM (
  SELECT DISTINCT ON (bri."item_id") bri."item_id", br."id", br."updated_at"
  FROM "barter_request_items" bri JOIN "barter_requests" br ON br."id" = bri."barter_request_id"
  WHERE br."status" = 'completed' AND bri."item_id" IS NOT NULL
  ORDER BY bri."item_id", br."updated_at" DESC, br."id" DESC
) AS t
WHERE i."id" = t."item_id";
