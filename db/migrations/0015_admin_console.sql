-- Admin console: suspending a partner (the signing gate reads suspended_at in
-- the credential lookup it already makes), server-side session versions for
-- "sign out everywhere", and payouts that staff mark paid with a reference.
ALTER TABLE "partners" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "suspended_reason" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "session_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Payouts written from now on start pending; the ones already written stay paid.
ALTER TABLE "payouts" ALTER COLUMN "status" SET DEFAULT 'pending';--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "reference" text;--> statement-breakpoint
CREATE INDEX "payouts_pending" ON "payouts" USING btree ("created_at","id") WHERE "payouts"."status" = 'pending';
