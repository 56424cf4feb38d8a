CREATE TABLE "sandbox_processor_charges" (
	"ref" text PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"status" text NOT NULL,
	"failure_code" text,
	"message" text,
	"last4" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"refund_ref" text,
	"refund_key" text,
	"refunded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_processor_charges_idempotencyKey_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "sandbox_processor_charges_refundKey_unique" UNIQUE("refund_key")
);
--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "provider_ref" text;--> statement-breakpoint
CREATE INDEX "payments_pending" ON "payments" USING btree ("created_at") WHERE "payments"."status" = 'pending';