CREATE TYPE "public"."access_request_status" AS ENUM('pending', 'approved', 'declined');--> statement-breakpoint
CREATE TYPE "public"."partner_role" AS ENUM('owner', 'developer', 'viewer');--> statement-breakpoint
CREATE TABLE "production_access_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"status" "access_request_status" DEFAULT 'pending' NOT NULL,
	"website" text NOT NULL,
	"use_case" text NOT NULL,
	"expected_monthly_orders" integer NOT NULL,
	"requested_by" text NOT NULL,
	"decided_by" text,
	"decision_note" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "request_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "request_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"request_id" text NOT NULL,
	"partner_id" text NOT NULL,
	"environment" "environment" NOT NULL,
	"key_id" text NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"status" integer NOT NULL,
	"error_code" text,
	"latency_ms" integer NOT NULL,
	"client_ip" text,
	"debug" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "credentials" ADD COLUMN "allowed_cidrs" text[];--> statement-breakpoint
ALTER TABLE "credentials" ADD COLUMN "previous_secret_sealed" text;--> statement-breakpoint
ALTER TABLE "credentials" ADD COLUMN "previous_secret_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "credentials" ADD COLUMN "rolled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "credentials" ADD COLUMN "last_used_ip" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "partner_role" "partner_role" DEFAULT 'owner' NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "previous_secret_sealed" text;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "previous_secret_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "disabled_reason" text;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "failing_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "production_access_requests" ADD CONSTRAINT "production_access_requests_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "production_access_requests_partner_id_created_at_index" ON "production_access_requests" USING btree ("partner_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "production_access_requests_one_pending" ON "production_access_requests" USING btree ("partner_id") WHERE "production_access_requests"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "request_log_partner_id_environment_id_index" ON "request_log" USING btree ("partner_id","environment","id");--> statement-breakpoint
CREATE INDEX "request_log_created_at_index" ON "request_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "request_log_request_id_index" ON "request_log" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_id_created_at_index" ON "webhook_deliveries" USING btree ("endpoint_id","created_at");--> statement-breakpoint
DROP FUNCTION partner_request_gate(text, text, timestamptz, integer, text, integer, integer);
--> statement-breakpoint
-- As in 0008, plus the caller's address: last_used_at/last_used_ip are written
-- at most once a minute per key, or at once when the address changes.
CREATE FUNCTION partner_request_gate(
  p_credential_id text,
  p_nonce text,
  p_now timestamptz,
  p_nonce_ttl_ms integer,
  p_bucket text,
  p_limit integer,
  p_period_ms integer,
  p_ip text
) RETURNS TABLE (replay boolean, allowed boolean, remaining integer, reset_ms integer, retry_after_ms integer)
LANGUAGE plpgsql AS $$
DECLARE
  v_rows integer;
BEGIN
  INSERT INTO nonces (credential_id, nonce, expires_at)
  VALUES (p_credential_id, p_nonce, p_now + p_nonce_ttl_ms * interval '1 millisecond')
  ON CONFLICT (credential_id, nonce) DO UPDATE SET expires_at = excluded.expires_at
    WHERE nonces.expires_at <= p_now;
  GET DIAGNOSTICS v_rows = ROW_COUNT;
  IF v_rows = 0 THEN
    RETURN QUERY SELECT true, false, 0, 0, 0;
    RETURN;
  END IF;

  IF random() < 0.001 THEN
    DELETE FROM nonces WHERE ctid IN (SELECT ctid FROM nonces WHERE expires_at < p_now LIMIT 5000);
  END IF;

  UPDATE credentials SET last_used_at = p_now, last_used_ip = p_ip
  WHERE id = p_credential_id
    AND (last_used_at IS NULL OR last_used_at < p_now - interval '1 minute' OR last_used_ip IS DISTINCT FROM p_ip);

  IF p_bucket IS NULL THEN
    RETURN QUERY SELECT false, true, 0, 0, 0;
    RETURN;
  END IF;

  RETURN QUERY SELECT false, t.allowed, t.remaining, t.reset_ms, t.retry_after_ms
    FROM rate_limit_take(p_bucket, p_limit, p_period_ms, p_now) t;
END;
$$;
