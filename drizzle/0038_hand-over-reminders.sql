ALTER TABLE "hand_over_plans" ADD COLUMN "reminded_day_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "hand_over_plans" ADD COLUMN "reminded_hour_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "hand_over_starts_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "hand_over_place" text;