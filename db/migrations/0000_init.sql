CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TYPE "public"."environment" AS ENUM('sandbox', 'live');--> statement-breakpoint
CREATE TYPE "public"."payment_model" AS ENUM('mor', 'non_mor');--> statement-breakpoint
CREATE TYPE "public"."user_role" AS ENUM('partner', 'admin', 'customer');--> statement-breakpoint
CREATE TYPE "public"."listing_status" AS ENUM('listed', 'reserved', 'sold', 'removed');--> statement-breakpoint
CREATE TYPE "public"."order_status" AS ENUM('EXTERNALLY_PAID', 'PAID', 'MANUAL_REVIEW', 'TRANSFER_IN_PROGRESS', 'TRANSFER_COMPLETED', 'SETTLED', 'REFUNDED', 'CANCELLED');--> statement-breakpoint
CREATE TYPE "public"."sale_channel" AS ENUM('mor', 'checkout', 'marketplace');--> statement-breakpoint
CREATE TYPE "public"."brokerage_status" AS ENUM('OPEN', 'RESEARCHING', 'NEGOTIATING', 'COMPLETED', 'CLOSED_NO_DEAL');--> statement-breakpoint
CREATE TYPE "public"."commission_state" AS ENUM('accrued', 'pending', 'paid_out', 'reversed');--> statement-breakpoint
CREATE TYPE "public"."link_type" AS ENUM('generic', 'domain', 'product');--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" text PRIMARY KEY NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" text,
	"action" text NOT NULL,
	"target_type" text,
	"target_id" text,
	"partner_id" text,
	"environment" "environment",
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credentials" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"key_id" text NOT NULL,
	"environment" "environment" NOT NULL,
	"secret_sealed" text NOT NULL,
	"scopes" text[] NOT NULL,
	"label" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "credentials_keyId_unique" UNIQUE("key_id")
);
--> statement-breakpoint
CREATE TABLE "partners" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"payment_model" "payment_model" NOT NULL,
	"is_affiliate" boolean DEFAULT false NOT NULL,
	"live_approved_at" timestamp with time zone,
	"sale_commission_bps" integer DEFAULT 1000 NOT NULL,
	"referral_commission_bps" integer DEFAULT 1000 NOT NULL,
	"brokerage_share_bps" integer DEFAULT 2000 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"password_hash" text NOT NULL,
	"role" "user_role" NOT NULL,
	"partner_id" text,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "domains" (
	"id" text PRIMARY KEY NOT NULL,
	"environment" "environment" NOT NULL,
	"name" text NOT NULL,
	"label" text NOT NULL,
	"tld" text NOT NULL,
	"status" "listing_status" DEFAULT 'listed' NOT NULL,
	"price_cents" bigint NOT NULL,
	"floor_price_cents" bigint,
	"currency" text DEFAULT 'USD' NOT NULL,
	"vertical" text,
	"tokens" text DEFAULT '' NOT NULL,
	"description" text,
	"registered_year" integer,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "checkout_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"environment" "environment" NOT NULL,
	"domain_id" text NOT NULL,
	"domain" text NOT NULL,
	"sale_price_cents" bigint NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"return_url" text,
	"cancel_url" text,
	"status" text DEFAULT 'open' NOT NULL,
	"order_id" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"partner_id" text NOT NULL,
	"environment" "environment" NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"state" text NOT NULL,
	"response_status" integer,
	"response_body" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_partner_id_environment_key_pk" PRIMARY KEY("partner_id","environment","key")
);
--> statement-breakpoint
CREATE TABLE "order_timeline" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "order_timeline_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"order_id" text NOT NULL,
	"status" "order_status" NOT NULL,
	"note" text,
	"actor" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text,
	"environment" "environment" NOT NULL,
	"credential_id" text,
	"domain_id" text NOT NULL,
	"domain" text NOT NULL,
	"status" "order_status" NOT NULL,
	"channel" "sale_channel" NOT NULL,
	"sale_price_cents" bigint NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"commission_bps" integer NOT NULL,
	"commission_cents" bigint NOT NULL,
	"buyer_email" text NOT NULL,
	"buyer_name" text,
	"buyer_country" text,
	"return_url" text,
	"cancel_url" text,
	"quote_id" text,
	"external_payment_ref" text,
	"checkout_session_id" text,
	"referral_link_id" text,
	"settlement_id" text,
	"transfer_completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" text PRIMARY KEY NOT NULL,
	"checkout_session_id" text,
	"order_id" text,
	"environment" "environment" NOT NULL,
	"provider" text NOT NULL,
	"provider_ref" text,
	"idempotency_key" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"status" text NOT NULL,
	"failure_code" text,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_idempotencyKey_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "quotes" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"environment" "environment" NOT NULL,
	"domain_id" text NOT NULL,
	"domain" text NOT NULL,
	"sale_price_cents" bigint NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"order_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"partner_id" text,
	"environment" "environment" NOT NULL,
	"amount_cents" bigint NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"reason" text,
	"status" text DEFAULT 'succeeded' NOT NULL,
	"requested_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"environment" "environment" NOT NULL,
	"kind" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"status" text DEFAULT 'paid' NOT NULL,
	"settlement_id" text,
	"period_start" date,
	"period_end" date,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settlements" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"environment" "environment" NOT NULL,
	"payment_model" "payment_model" NOT NULL,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"gross_sold_cents" bigint NOT NULL,
	"commission_retained_cents" bigint NOT NULL,
	"amount_owed_cents" bigint,
	"commission_payable_cents" bigint,
	"order_count" integer NOT NULL,
	"status" text DEFAULT 'closed' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "events_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"partner_id" text NOT NULL,
	"environment" "environment" NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "webhook_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"delivery_id" text NOT NULL,
	"url" text NOT NULL,
	"response_status" integer,
	"latency_ms" integer,
	"error" text,
	"response_body" text,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"endpoint_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"environment" "environment" NOT NULL,
	"url" text NOT NULL,
	"secret_sealed" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "brokerage_cases" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"environment" "environment" NOT NULL,
	"domain" text NOT NULL,
	"tier" text NOT NULL,
	"buyer_email" text NOT NULL,
	"budget_cents" bigint NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"status" "brokerage_status" DEFAULT 'OPEN' NOT NULL,
	"progress_token_hash" text NOT NULL,
	"final_price_cents" bigint,
	"service_fee_cents" bigint,
	"partner_share_cents" bigint,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "brokerage_cases_progressTokenHash_unique" UNIQUE("progress_token_hash")
);
--> statement-breakpoint
CREATE TABLE "brokerage_timeline" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "brokerage_timeline_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"case_id" text NOT NULL,
	"status" "brokerage_status" NOT NULL,
	"note" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "commission_ledger" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"environment" "environment" NOT NULL,
	"source" text NOT NULL,
	"source_id" text NOT NULL,
	"order_id" text,
	"state" "commission_state" DEFAULT 'accrued' NOT NULL,
	"amount_cents" bigint NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"payout_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "referral_clicks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "referral_clicks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"link_id" text NOT NULL,
	"visitor_hash" text NOT NULL,
	"day" date NOT NULL,
	"is_bot" boolean DEFAULT false NOT NULL,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "referral_links" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"environment" "environment" NOT NULL,
	"code" text NOT NULL,
	"type" "link_type" NOT NULL,
	"target" text NOT NULL,
	"domain" text,
	"product" text,
	"label" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "referral_links_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "referral_sales" (
	"id" text PRIMARY KEY NOT NULL,
	"link_id" text NOT NULL,
	"partner_id" text NOT NULL,
	"environment" "environment" NOT NULL,
	"order_id" text NOT NULL,
	"buyer_email" text NOT NULL,
	"domain" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"commission_cents" bigint NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "referral_sales_orderId_unique" UNIQUE("order_id")
);
--> statement-breakpoint
CREATE TABLE "oauth_clients" (
	"id" text PRIMARY KEY NOT NULL,
	"client_name" text,
	"redirect_uris" text[] NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "oauth_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"user_id" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"code_challenge" text NOT NULL,
	"scope" text NOT NULL,
	"resource" text,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oauth_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"kind" text NOT NULL,
	"family_id" text NOT NULL,
	"code_hash" text,
	"client_id" text NOT NULL,
	"user_id" text NOT NULL,
	"scope" text NOT NULL,
	"resource" text,
	"expires_at" timestamp with time zone NOT NULL,
	"rotated_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oauth_tokens_tokenHash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "nonces" (
	"credential_id" text NOT NULL,
	"nonce" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "nonces_credential_id_nonce_pk" PRIMARY KEY("credential_id","nonce")
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"tat" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_timeline" ADD CONSTRAINT "order_timeline_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_credential_id_credentials_id_fk" FOREIGN KEY ("credential_id") REFERENCES "public"."credentials"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brokerage_cases" ADD CONSTRAINT "brokerage_cases_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brokerage_timeline" ADD CONSTRAINT "brokerage_timeline_case_id_brokerage_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."brokerage_cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_ledger" ADD CONSTRAINT "commission_ledger_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_clicks" ADD CONSTRAINT "referral_clicks_link_id_referral_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."referral_links"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_links" ADD CONSTRAINT "referral_links_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_sales" ADD CONSTRAINT "referral_sales_link_id_referral_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."referral_links"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_sales" ADD CONSTRAINT "referral_sales_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_codes" ADD CONSTRAINT "oauth_codes_client_id_oauth_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."oauth_clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_codes" ADD CONSTRAINT "oauth_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_tokens" ADD CONSTRAINT "oauth_tokens_client_id_oauth_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."oauth_clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_tokens" ADD CONSTRAINT "oauth_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_partner_id_created_at_index" ON "audit_log" USING btree ("partner_id","created_at");--> statement-breakpoint
CREATE INDEX "audit_log_target_type_target_id_index" ON "audit_log" USING btree ("target_type","target_id");--> statement-breakpoint
CREATE INDEX "credentials_partner_id_index" ON "credentials" USING btree ("partner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_partner_id_index" ON "users" USING btree ("partner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "domains_environment_name_index" ON "domains" USING btree ("environment","name");--> statement-breakpoint
CREATE INDEX "domains_name_trgm" ON "domains" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "domains_tokens_fts" ON "domains" USING gin (to_tsvector('simple', "tokens"));--> statement-breakpoint
CREATE INDEX "domains_environment_status_vertical_index" ON "domains" USING btree ("environment","status","vertical");--> statement-breakpoint
CREATE INDEX "checkout_sessions_partner_id_environment_created_at_index" ON "checkout_sessions" USING btree ("partner_id","environment","created_at");--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_at_index" ON "idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "order_timeline_order_id_id_index" ON "order_timeline" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "orders_partner_id_environment_created_at_index" ON "orders" USING btree ("partner_id","environment","created_at");--> statement-breakpoint
CREATE INDEX "orders_partner_id_environment_status_index" ON "orders" USING btree ("partner_id","environment","status");--> statement-breakpoint
CREATE INDEX "orders_transfer_completed_at_index" ON "orders" USING btree ("transfer_completed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_one_active_per_domain" ON "orders" USING btree ("domain_id") WHERE "orders"."status" not in ('REFUNDED', 'CANCELLED');--> statement-breakpoint
CREATE INDEX "payments_checkout_session_id_index" ON "payments" USING btree ("checkout_session_id");--> statement-breakpoint
CREATE INDEX "quotes_domain_id_expires_at_index" ON "quotes" USING btree ("domain_id","expires_at");--> statement-breakpoint
CREATE INDEX "quotes_partner_id_environment_index" ON "quotes" USING btree ("partner_id","environment");--> statement-breakpoint
CREATE INDEX "refunds_partner_id_environment_created_at_index" ON "refunds" USING btree ("partner_id","environment","created_at");--> statement-breakpoint
CREATE INDEX "refunds_order_id_index" ON "refunds" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "payouts_partner_id_environment_created_at_index" ON "payouts" USING btree ("partner_id","environment","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "settlements_partner_id_environment_period_start_currency_index" ON "settlements" USING btree ("partner_id","environment","period_start","currency");--> statement-breakpoint
CREATE UNIQUE INDEX "events_seq_index" ON "events" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "events_partner_id_environment_seq_index" ON "events" USING btree ("partner_id","environment","seq");--> statement-breakpoint
CREATE INDEX "webhook_attempts_delivery_id_index" ON "webhook_attempts" USING btree ("delivery_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_status_next_attempt_at_index" ON "webhook_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_event_id_endpoint_id_index" ON "webhook_deliveries" USING btree ("event_id","endpoint_id");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_endpoints_partner_id_environment_index" ON "webhook_endpoints" USING btree ("partner_id","environment");--> statement-breakpoint
CREATE INDEX "brokerage_cases_partner_id_environment_created_at_index" ON "brokerage_cases" USING btree ("partner_id","environment","created_at");--> statement-breakpoint
CREATE INDEX "brokerage_cases_environment_domain_index" ON "brokerage_cases" USING btree ("environment","domain");--> statement-breakpoint
CREATE INDEX "brokerage_timeline_case_id_id_index" ON "brokerage_timeline" USING btree ("case_id","id");--> statement-breakpoint
CREATE INDEX "commission_ledger_partner_id_environment_created_at_index" ON "commission_ledger" USING btree ("partner_id","environment","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "commission_ledger_source_source_id_index" ON "commission_ledger" USING btree ("source","source_id");--> statement-breakpoint
CREATE UNIQUE INDEX "referral_clicks_link_id_visitor_hash_day_index" ON "referral_clicks" USING btree ("link_id","visitor_hash","day");--> statement-breakpoint
CREATE INDEX "referral_clicks_link_id_created_at_index" ON "referral_clicks" USING btree ("link_id","created_at");--> statement-breakpoint
CREATE INDEX "referral_links_partner_id_environment_created_at_index" ON "referral_links" USING btree ("partner_id","environment","created_at");--> statement-breakpoint
CREATE INDEX "referral_sales_partner_id_environment_created_at_index" ON "referral_sales" USING btree ("partner_id","environment","created_at");--> statement-breakpoint
CREATE INDEX "oauth_tokens_family_id_index" ON "oauth_tokens" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "oauth_tokens_user_id_index" ON "oauth_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "oauth_tokens_client_id_index" ON "oauth_tokens" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "nonces_expires_at_index" ON "nonces" USING btree ("expires_at");