-- Rate limits shared by every server process on one PostgreSQL (issue 18, ADR 044): one row per
-- limited route and key (address or member), counted in a fixed window. UNLOGGED: counters are
-- worth no write-ahead log (a crash forgets them, like a restart of one process did before).
-- PGlite (one process) keeps its counters in memory and never writes here.
CREATE UNLOGGED TABLE "rate_limit_counters" (
  "key" text PRIMARY KEY,
  "count" integer NOT NULL,
  "window_ends_at" timestamptz NOT NULL
);--> statement-breakpoint
CREATE INDEX "rate_limit_counters_window_ends_at" ON "rate_limit_counters" ("window_ends_at");
--> statement-breakpoint
-- The sign-in throttle's failure records (ADR 016), shared the same way: 'pair:<account>\n<source>'
-- and 'account:<account>', read and written under an advisory lock on the account
-- (server/features/auth/login-throttle.ts).
CREATE UNLOGGED TABLE "login_failures" (
  "key" text PRIMARY KEY,
  "failures" integer NOT NULL,
  "last_failure_at" timestamptz NOT NULL
);--> statement-breakpoint
CREATE INDEX "login_failures_last_failure_at" ON "login_failures" ("last_failure_at");
