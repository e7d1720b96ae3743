ALTER TABLE "swap_days" ADD COLUMN "match_stage" text;--> statement-breakpoint
ALTER TABLE "swap_days" ADD COLUMN "match_failure" text;--> statement-breakpoint
CREATE INDEX "swap_days_matching_idx" ON "swap_days" USING btree ("id") WHERE "swap_days"."status" = 'matching';