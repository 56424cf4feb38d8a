CREATE TABLE "site_probes" (
	"domain" text PRIMARY KEY NOT NULL,
	"active" boolean NOT NULL,
	"detail" text,
	"checked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "checkout_sessions" ALTER COLUMN "partner_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "referral_link_id" text;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "visitor_id" text;--> statement-breakpoint
-- Prefixed ids sort by creation time only byte-wise; pin that order on every
-- database, whatever its default collation, for the keyset cursors that use it.
ALTER TABLE "orders" ALTER COLUMN "id" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "id" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "settlements" ALTER COLUMN "id" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "payouts" ALTER COLUMN "id" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "refunds" ALTER COLUMN "id" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "checkout_sessions" ALTER COLUMN "id" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "brokerage_cases" ALTER COLUMN "id" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "referral_links" ALTER COLUMN "id" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "referral_sales" ALTER COLUMN "id" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "commission_ledger" ALTER COLUMN "id" SET DATA TYPE text COLLATE "C";
