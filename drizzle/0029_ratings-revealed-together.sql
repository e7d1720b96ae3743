ALTER TABLE "ratings" ADD COLUMN "revealed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Ratings made before they were revealed together were shown when made (ADR 074).
UPDATE "ratings" SET "revealed_at" = "created_at";
