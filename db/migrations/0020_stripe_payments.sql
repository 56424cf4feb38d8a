CREATE TABLE "payment_disputes" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"payment_id" text NOT NULL,
	"order_id" text NOT NULL,
	"status" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "processor_events" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "commission_ledger" ADD COLUMN "held_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_disputes" ADD CONSTRAINT "payment_disputes_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_disputes_order_id_index" ON "payment_disputes" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "payments_provider_ref" ON "payments" USING btree ("provider","provider_ref");