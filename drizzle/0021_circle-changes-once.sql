-- A member is logged once until the finder drains them (earlier logs may hold repeats).
DELETE FROM "circle_changes" a USING "circle_changes" b WHERE a."member_id" = b."member_id" AND a."id" > b."id";--> statement-breakpoint
CREATE UNIQUE INDEX "circle_changes_member_idx" ON "circle_changes" USING btree ("member_id");
