-- ADR 090: the digest's two switches and the muted push kinds became notification_channels (0051).
DROP TABLE "push_muted_kinds" CASCADE;--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "mail_proposals";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "mail_messages";