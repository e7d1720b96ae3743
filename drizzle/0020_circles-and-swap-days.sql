CREATE TABLE "circle_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"member_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "circle_members" (
	"circle_id" integer NOT NULL,
	"position" smallint NOT NULL,
	"member_id" uuid,
	"item_id" integer,
	"title" text NOT NULL,
	"category" text NOT NULL,
	"is_service" boolean NOT NULL,
	"value" numeric(10, 2),
	"want_id" integer,
	"accepted_at" timestamp with time zone,
	"barter_request_id" integer,
	CONSTRAINT "circle_members_circle_id_position_pk" PRIMARY KEY("circle_id","position")
);
--> statement-breakpoint
CREATE TABLE "circles" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "circles_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"status" text DEFAULT 'proposed' NOT NULL,
	"size" smallint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"closed_by_id" uuid,
	"closed_at" timestamp with time zone,
	"thread_id" integer,
	"swap_day_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "circles_size_range" CHECK ("circles"."size" >= 2)
);
--> statement-breakpoint
CREATE TABLE "swap_day_members" (
	"swap_day_id" integer NOT NULL,
	"member_id" uuid NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "swap_day_members_swap_day_id_member_id_pk" PRIMARY KEY("swap_day_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "swap_day_offers" (
	"swap_day_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	"member_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "swap_day_offers_swap_day_id_item_id_pk" PRIMARY KEY("swap_day_id","item_id")
);
--> statement-breakpoint
CREATE TABLE "swap_day_wants" (
	"swap_day_id" integer NOT NULL,
	"offer_item_id" integer NOT NULL,
	"wanted_item_id" integer NOT NULL,
	"rank" smallint NOT NULL,
	CONSTRAINT "swap_day_wants_swap_day_id_offer_item_id_wanted_item_id_pk" PRIMARY KEY("swap_day_id","offer_item_id","wanted_item_id"),
	CONSTRAINT "swap_day_wants_rank_positive" CHECK ("swap_day_wants"."rank" >= 1)
);
--> statement-breakpoint
CREATE TABLE "swap_days" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "swap_days_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"organiser_id" uuid,
	"name" text NOT NULL,
	"place" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"latitude" numeric(10, 8),
	"longitude" numeric(11, 8),
	"solved_at" timestamp with time zone,
	"items_traded" integer,
	"members_trading" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "barter_requests" ADD COLUMN "circle_id" integer;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "copy_of_id" integer;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "circle_id" integer;--> statement-breakpoint
ALTER TABLE "circle_members" ADD CONSTRAINT "circle_members_circle_id_circles_id_fk" FOREIGN KEY ("circle_id") REFERENCES "public"."circles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "circle_members" ADD CONSTRAINT "circle_members_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "circle_members" ADD CONSTRAINT "circle_members_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "circle_members" ADD CONSTRAINT "circle_members_want_id_wants_id_fk" FOREIGN KEY ("want_id") REFERENCES "public"."wants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "circles" ADD CONSTRAINT "circles_closed_by_id_users_id_fk" FOREIGN KEY ("closed_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "circles" ADD CONSTRAINT "circles_swap_day_id_swap_days_id_fk" FOREIGN KEY ("swap_day_id") REFERENCES "public"."swap_days"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swap_day_members" ADD CONSTRAINT "swap_day_members_swap_day_id_swap_days_id_fk" FOREIGN KEY ("swap_day_id") REFERENCES "public"."swap_days"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swap_day_members" ADD CONSTRAINT "swap_day_members_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swap_day_offers" ADD CONSTRAINT "swap_day_offers_swap_day_id_swap_days_id_fk" FOREIGN KEY ("swap_day_id") REFERENCES "public"."swap_days"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swap_day_offers" ADD CONSTRAINT "swap_day_offers_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swap_day_offers" ADD CONSTRAINT "swap_day_offers_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swap_day_wants" ADD CONSTRAINT "swap_day_wants_swap_day_id_swap_days_id_fk" FOREIGN KEY ("swap_day_id") REFERENCES "public"."swap_days"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swap_day_wants" ADD CONSTRAINT "swap_day_wants_offer_item_id_items_id_fk" FOREIGN KEY ("offer_item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swap_day_wants" ADD CONSTRAINT "swap_day_wants_wanted_item_id_items_id_fk" FOREIGN KEY ("wanted_item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swap_days" ADD CONSTRAINT "swap_days_organiser_id_users_id_fk" FOREIGN KEY ("organiser_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "circle_members_member_idx" ON "circle_members" USING btree ("member_id","circle_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "circle_members_item_idx" ON "circle_members" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "circles_proposed_expiry_idx" ON "circles" USING btree ("expires_at") WHERE "circles"."status" = 'proposed';--> statement-breakpoint
CREATE INDEX "circles_swap_day_idx" ON "circles" USING btree ("swap_day_id") WHERE "circles"."swap_day_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "swap_day_members_member_idx" ON "swap_day_members" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "swap_day_offers_member_idx" ON "swap_day_offers" USING btree ("swap_day_id","member_id");--> statement-breakpoint
CREATE INDEX "swap_day_offers_item_idx" ON "swap_day_offers" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "swap_day_wants_wanted_idx" ON "swap_day_wants" USING btree ("wanted_item_id");--> statement-breakpoint
CREATE INDEX "swap_days_open_deadline_idx" ON "swap_days" USING btree ("deadline") WHERE "swap_days"."status" = 'open';--> statement-breakpoint
CREATE INDEX "swap_days_starts_idx" ON "swap_days" USING btree ("starts_at");--> statement-breakpoint
CREATE INDEX "swap_days_organiser_idx" ON "swap_days" USING btree ("organiser_id");--> statement-breakpoint
ALTER TABLE "barter_requests" ADD CONSTRAINT "barter_requests_circle_id_circles_id_fk" FOREIGN KEY ("circle_id") REFERENCES "public"."circles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_copy_of_id_messages_id_fk" FOREIGN KEY ("copy_of_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_circle_id_circles_id_fk" FOREIGN KEY ("circle_id") REFERENCES "public"."circles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "barter_requests_circle_idx" ON "barter_requests" USING btree ("circle_id") WHERE "barter_requests"."circle_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "messages_copy_of_idx" ON "messages" USING btree ("copy_of_id") WHERE "messages"."copy_of_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "notifications_circle_idx" ON "notifications" USING btree ("circle_id") WHERE "notifications"."circle_id" IS NOT NULL;