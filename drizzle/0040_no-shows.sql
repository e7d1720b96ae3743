CREATE TABLE "hand_over_attendance" (
	"barter_request_id" integer NOT NULL,
	"member_id" uuid NOT NULL,
	"plan_version" integer NOT NULL,
	"confirmed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hand_over_attendance_barter_request_id_member_id_plan_version_pk" PRIMARY KEY("barter_request_id","member_id","plan_version")
);
--> statement-breakpoint
CREATE TABLE "no_show_reports" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "no_show_reports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"barter_request_id" integer NOT NULL,
	"plan_version" integer NOT NULL,
	"window_ends_at" timestamp with time zone NOT NULL,
	"reporter_id" uuid,
	"reported_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answer" text,
	"answer_note" text,
	"answered_at" timestamp with time zone,
	"decision" text,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	CONSTRAINT "no_show_reports_answer" CHECK ("no_show_reports"."answer" is null or "no_show_reports"."answer" in ('was_there', 'rescheduled')),
	CONSTRAINT "no_show_reports_decision" CHECK ("no_show_reports"."decision" is null or "no_show_reports"."decision" in ('kept', 'missed', 'dismissed')),
	CONSTRAINT "no_show_reports_note" CHECK ("no_show_reports"."answer_note" is null or length("no_show_reports"."answer_note") <= 280)
);
--> statement-breakpoint
ALTER TABLE "hand_over_attendance" ADD CONSTRAINT "hand_over_attendance_barter_request_id_barter_requests_id_fk" FOREIGN KEY ("barter_request_id") REFERENCES "public"."barter_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hand_over_attendance" ADD CONSTRAINT "hand_over_attendance_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "no_show_reports" ADD CONSTRAINT "no_show_reports_barter_request_id_barter_requests_id_fk" FOREIGN KEY ("barter_request_id") REFERENCES "public"."barter_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "no_show_reports" ADD CONSTRAINT "no_show_reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "no_show_reports" ADD CONSTRAINT "no_show_reports_reported_id_users_id_fk" FOREIGN KEY ("reported_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "no_show_reports" ADD CONSTRAINT "no_show_reports_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "no_show_reports_once" ON "no_show_reports" USING btree ("barter_request_id","reporter_id","plan_version");--> statement-breakpoint
CREATE INDEX "no_show_reports_reported_idx" ON "no_show_reports" USING btree ("reported_id","created_at");--> statement-breakpoint
CREATE INDEX "no_show_reports_disputed_idx" ON "no_show_reports" USING btree ("answered_at") WHERE "no_show_reports"."answer" IS NOT NULL AND "no_show_reports"."decision" IS NULL;