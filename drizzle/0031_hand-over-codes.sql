CREATE TABLE "hand_over_codes" (
	"barter_request_id" integer NOT NULL,
	"member_id" uuid NOT NULL,
	"code" text NOT NULL,
	"failed_entries" smallint DEFAULT 0 NOT NULL,
	"entry_locked_until" timestamp with time zone,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hand_over_codes_barter_request_id_member_id_pk" PRIMARY KEY("barter_request_id","member_id"),
	CONSTRAINT "hand_over_codes_code_shape" CHECK ("hand_over_codes"."code" ~ '^[A-HJ-NP-Z2-9]{6}$'),
	CONSTRAINT "hand_over_codes_failed_entries_range" CHECK ("hand_over_codes"."failed_entries" >= 0)
);
--> statement-breakpoint
ALTER TABLE "hand_over_codes" ADD CONSTRAINT "hand_over_codes_barter_request_id_barter_requests_id_fk" FOREIGN KEY ("barter_request_id") REFERENCES "public"."barter_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hand_over_codes" ADD CONSTRAINT "hand_over_codes_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;