CREATE TABLE "hand_over_plans" (
	"barter_request_id" integer PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"proposed_by" uuid,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"place_name" text NOT NULL,
	"agreed_at" timestamp with time zone,
	"late_by" uuid,
	"late_minutes" smallint,
	"late_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hand_over_plans_window" CHECK ("hand_over_plans"."ends_at" > "hand_over_plans"."starts_at"),
	CONSTRAINT "hand_over_plans_place" CHECK (length("hand_over_plans"."place_name") between 1 and 200),
	CONSTRAINT "hand_over_plans_late_minutes" CHECK ("hand_over_plans"."late_minutes" is null or "hand_over_plans"."late_minutes" in (5, 10, 15, 30))
);
--> statement-breakpoint
ALTER TABLE "hand_over_plans" ADD CONSTRAINT "hand_over_plans_barter_request_id_barter_requests_id_fk" FOREIGN KEY ("barter_request_id") REFERENCES "public"."barter_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hand_over_plans" ADD CONSTRAINT "hand_over_plans_proposed_by_users_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hand_over_plans" ADD CONSTRAINT "hand_over_plans_late_by_users_id_fk" FOREIGN KEY ("late_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hand_over_plans_agreed_starts_idx" ON "hand_over_plans" USING btree ("starts_at") WHERE "hand_over_plans"."agreed_at" IS NOT NULL;